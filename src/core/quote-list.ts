/** A quoted list for messages: `"a", "b" or "c"`. */
export function quoteList(items: readonly string[], conj = "or"): string {
  const q = items.map((s) => `"${s}"`);
  if (q.length <= 1) return q.join("");
  return `${q.slice(0, -1).join(", ")} ${conj} ${q[q.length - 1]}`;
}
