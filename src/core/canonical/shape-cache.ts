/** An object's keys in reader order, the same keys in output order, and the text before each member's value. */
export interface Shape {
  keys: string[];
  sorted: string[];
  names: string[];
}

const SHAPES = 16;
const SHAPE_KEYS = 32;

/**
 * Recently seen small object shapes. A plan repeats a few shapes (every step has the same keys), and
 * sorting and escaping keys is a large part of serialising; matching a known shape is a few pointer
 * comparisons of interned keys.
 */
export class ShapeCache {
  readonly #shapes: Shape[] = [];
  #next = 0;

  /** `build` sorts the keys and writes each member's prefix; it runs only for a shape not seen recently. */
  constructor(private readonly build: (keys: string[]) => { sorted: string[]; names: string[] }) {}

  shapeOf(node: object): Shape {
    const keys = Object.keys(node);
    const n = keys.length;
    search: for (const shape of this.#shapes) {
      const known = shape.keys;
      if (known.length !== n) continue;
      for (let i = 0; i < n; i++) if (known[i] !== keys[i]) continue search;
      return shape;
    }
    const shape: Shape = { keys, ...this.build(keys) };
    if (n <= SHAPE_KEYS) {
      this.#shapes[this.#next] = shape;
      this.#next = (this.#next + 1) % SHAPES;
    }
    return shape;
  }
}
