// CPU time, interleaved: on a shared, noisy machine wall time mostly measures the other processes. Each
// round runs every contender for one batch, in turn (so a burst of load falls on all of them alike), and
// the result is each contender's median over the rounds, in ms of CPU per call.

function cpuMs(since) {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
}

/**
 * `contenders`: name → function (sync or async). Runs `warmup` calls of each, then `rounds` rounds of
 * `batch` calls of each in turn; returns name → median ms of CPU per call.
 */
export async function interleaved(contenders, { rounds = 15, batch = 50, warmup = 100, gcBetween = false } = {}) {
  const names = Object.keys(contenders);
  for (const n of names) for (let i = 0; i < warmup; i++) await contenders[n]();
  const samples = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    for (const n of names) {
      const fn = contenders[n];
      if (gcBetween) globalThis.gc?.();
      const t0 = process.cpuUsage();
      for (let i = 0; i < batch; i++) await fn();
      samples[n].push(cpuMs(t0) / batch);
    }
  }
  return Object.fromEntries(names.map((n) => [n, median(samples[n])]));
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
