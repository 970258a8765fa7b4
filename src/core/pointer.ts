/** A JSON Pointer (RFC 6901), e.g. "/steps/2/arguments/path"; "" is the whole document. */
export type Pointer = string;

/** Escapes one reference token. */
export function escapeToken(token: string | number): string {
  const s = String(token);
  return s.includes("~") || s.includes("/") ? s.replace(/~/g, "~0").replace(/\//g, "~1") : s;
}

/** Unescapes one reference token (`~1` is `/`, `~0` is `~`, in that order). */
export function unescapeToken(token: string): string {
  return token.includes("~") ? token.replace(/~1/g, "/").replace(/~0/g, "~") : token;
}

/** Builds a pointer from its tokens. */
export function pointerOf(...tokens: ReadonlyArray<string | number>): Pointer {
  let out = "";
  for (const t of tokens) out += "/" + escapeToken(t);
  return out;
}

/** Appends tokens to a pointer. */
export function childPointer(base: Pointer, ...tokens: ReadonlyArray<string | number>): Pointer {
  return base + pointerOf(...tokens);
}

/** Splits a pointer into its unescaped tokens. */
export function parsePointer(pointer: Pointer): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map(unescapeToken);
}

/** The parent of a pointer ("" has none and returns ""). */
export function parentPointer(pointer: Pointer): Pointer {
  const i = pointer.lastIndexOf("/");
  return i <= 0 ? "" : pointer.slice(0, i);
}

/** Reads the value at a pointer, or undefined. */
export function getAt(root: unknown, pointer: Pointer): unknown {
  let cur: unknown = root;
  for (const t of parsePointer(pointer)) {
    if (Array.isArray(cur)) cur = cur[Number(t)];
    else if (cur !== null && typeof cur === "object" && Object.hasOwn(cur, t))
      cur = (cur as Record<string, unknown>)[t];
    else return undefined;
  }
  return cur;
}
