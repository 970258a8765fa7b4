/**
 * CPU time, for the bounds only time can show (an expression that backtracks, work inside a parser or a
 * tokenizer that counts nothing): the user and system time of this process, which other work on a loaded
 * machine does not add to as it does to the wall clock. It counts every thread of the process, V8's
 * compiler and garbage collector included, so a bound on short work warms the code up first, and sits
 * well above what the linear reading takes and well below what the quadratic or exponential one took.
 *
 * The bounds were set on one machine; a slower one (a CI runner on two shared cores) runs the same
 * linear work in more CPU time. So every bound goes through cpuBound, which scales it by how much slower
 * than that machine this one runs a fixed piece of work (parse, walk, match, hash), never tighter.
 */
import { createHash } from "node:crypto";

/** CPU time (user + system, in ms) since a process.cpuUsage() reading. */
export function cpuMsSince(start: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}

/** What `f` returns, and the CPU time (ms) it took. */
export function cpuTimed<T>(f: () => T): { value: T; ms: number } {
  const start = process.cpuUsage();
  const value = f();
  return { value, ms: cpuMsSince(start) };
}

/** CPU time the reference work takes, warm, on the machine the bounds were set on (best of five). */
const REFERENCE_MS = 12;
/** However slow the machine, a bound is loosened at most this much: past it, it would show nothing. */
const MAX_SCALE = 4;

function referenceWork(): number {
  const items: { id: number; name: string; args: { path: string; n: (number | string)[] } }[] = [];
  for (let i = 0; i < 6000; i++) items.push({ id: i, name: "step-" + i, args: { path: "src/a/" + (i % 97) + "/file.txt", n: [i, i * 2, "x".repeat(i % 13)] } });
  const text = JSON.stringify(items);
  const back = JSON.parse(text) as typeof items;
  let hits = 0;
  for (const it of back) if (/^src\/(?:[a-z0-9]+\/)*file\.txt$/.test(it.args.path)) hits += it.name.split("-").length;
  const counts = new Map<string, number>();
  for (const it of back) counts.set(it.args.path, (counts.get(it.args.path) ?? 0) + 1);
  return createHash("sha256").update(text).digest("hex").length + hits + counts.size;
}

let scale: number | undefined;

/**
 * How much slower than the reference machine this one runs the reference work, between 1 and MAX_SCALE;
 * PLANGATE_TEST_CPU_SCALE sets it. Measured once a test file, best of five runs after two to warm up.
 */
export function machineScale(): number {
  if (scale !== undefined) return scale;
  const set = Number(process.env["PLANGATE_TEST_CPU_SCALE"]);
  if (Number.isFinite(set) && set > 0) return (scale = set);
  let best = Infinity;
  for (let i = 0; i < 7; i++) {
    const start = process.cpuUsage();
    referenceWork();
    if (i >= 2) best = Math.min(best, cpuMsSince(start));
  }
  return (scale = Math.min(MAX_SCALE, Math.max(1, best / REFERENCE_MS)));
}

/** A CPU-time bound (ms) set on the reference machine, as it applies on this one. */
export function cpuBound(ms: number): number {
  return ms * machineScale();
}
