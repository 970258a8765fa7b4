/** A parsed ISO 8601 timestamp; `zoned` is false when the text gave no offset (scQC writes naive local times). */
export interface Timestamp {
  epochMs: number;
  zoned: boolean;
}

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * Reads the timestamps Python's datetime.fromisoformat accepts in practice: a date, or a date and time
 * with optional seconds, fraction and zone. A time without a zone is read as UTC.
 */
export function parseTimestamp(text: string): Timestamp | undefined {
  const m = ISO.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h = "0", mi = "0", s = "0", frac = "", zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = frac === "" ? 0 : Math.floor(Number(`0.${frac}`) * 1000);
  let epochMs = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  if (year < 100) epochMs = new Date(epochMs).setUTCFullYear(year);
  let zoned = false;
  if (zone !== undefined) {
    zoned = true;
    if (zone !== "Z" && zone !== "z") {
      const sign = zone.startsWith("-") ? -1 : 1;
      const digits = zone.slice(1).replace(":", "");
      const zh = Number(digits.slice(0, 2));
      const zm = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
      if (zh > 23 || zm > 59) return undefined;
      epochMs -= sign * (zh * 60 + zm) * 60_000;
    }
  }
  return { epochMs, zoned };
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Formats a Date as Python's naive `datetime.isoformat()` does (UTC, microseconds, no zone): what scAgent reads. */
export function isoNaiveMicros(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, (_, ms: string) => `.${ms}000`);
}
