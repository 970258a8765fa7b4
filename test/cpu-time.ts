/**
 * CPU time, for the bounds only time can show (an expression that backtracks, work inside a parser or a
 * tokenizer that counts nothing): the user and system time of this process, which other work on a loaded
 * machine does not add to as it does to the wall clock. It counts every thread of the process, V8's
 * compiler and garbage collector included, so a bound on short work warms the code up first, and sits
 * well above what the linear reading takes and well below what the quadratic or exponential one took.
 */

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
