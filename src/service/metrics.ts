/*
 * The service's metrics in the Prometheus text exposition format (version 0.0.4): counters and one
 * histogram, kept in memory, no dependency. Label values are escaped (backslash, quote, newline) and
 * bounded: a rule id or event name comes from plangate's own rule list or a checked event name, and any
 * other value is folded into "other", so a caller cannot grow the label set without bound.
 */

/** Seconds: the hook decision's buckets, from a cached in-process decision to the 5 s timeout. */
const BUCKETS = [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

const MAX_SERIES = 1000;

type Labels = Record<string, string>;

function escape(v: string): string {
  return v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

function labelText(labels: Labels): string {
  const keys = Object.keys(labels).sort();
  return keys.length === 0 ? "" : `{${keys.map((k) => `${k}="${escape(labels[k]!)}"`).join(",")}}`;
}

class Counter {
  readonly values = new Map<string, number>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  inc(labels: Labels = {}, by = 1): void {
    let key = labelText(labels);
    if (!this.values.has(key) && this.values.size >= MAX_SERIES) key = labelText(Object.fromEntries(Object.keys(labels).map((k) => [k, "other"])));
    this.values.set(key, (this.values.get(key) ?? 0) + by);
  }
  get(labels: Labels = {}): number {
    return this.values.get(labelText(labels)) ?? 0;
  }
  text(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const [k, v] of [...this.values].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) lines.push(`${this.name}${k} ${v}`);
    return lines.join("\n") + "\n";
  }
}

class Histogram {
  readonly counts = BUCKETS.map(() => 0);
  sum = 0;
  count = 0;
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  observe(seconds: number): void {
    for (let i = 0; i < BUCKETS.length; i++) if (seconds <= BUCKETS[i]!) this.counts[i]!++;
    this.sum += seconds;
    this.count++;
  }
  text(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    BUCKETS.forEach((b, i) => lines.push(`${this.name}_bucket{le="${b}"} ${this.counts[i]}`));
    lines.push(`${this.name}_bucket{le="+Inf"} ${this.count}`, `${this.name}_sum ${this.sum}`, `${this.name}_count ${this.count}`);
    return lines.join("\n") + "\n";
  }
}

/** The service's counters and histogram. */
export class Metrics {
  readonly decisions = new Counter("plangate_hook_decisions_total", "Hook decisions by event, outcome (allow, deny, ask, none) and the rule of a deny.");
  readonly latency = new Histogram("plangate_hook_decision_seconds", "Time from a hook request's first byte read to its answer, in seconds.");
  readonly storeErrors = new Counter("plangate_store_errors_total", "Hook decisions denied because the state directory could not be read, locked or written, or the decision timed out.");
  readonly requests = new Counter("plangate_http_requests_total", "HTTP requests by route and status code.");
  readonly authFailures = new Counter("plangate_auth_failures_total", "Requests refused for a missing or wrong bearer token, a foreign Host or an Origin header.");

  text(): string {
    return [this.decisions, this.latency, this.storeErrors, this.requests, this.authFailures].map((m) => m.text()).join("");
  }
}
