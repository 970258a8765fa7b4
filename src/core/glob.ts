/**
 * A tool-name glob (`*` any run, `?` one character, compared by code point) as a matcher that runs in
 * O(name × glob) time. A backtracking RegExp for a glob with two stars and a literal after them
 * (`*a*a*b`) takes minutes on a long hostile name; this one cannot.
 */
export function globMatcher(glob: string): { test(name: string): boolean } {
  const g = Array.from(glob);
  return {
    test(name: string): boolean {
      const s = Array.from(name);
      let i = 0;
      let j = 0;
      let star = -1;
      let mark = 0;
      while (i < s.length) {
        if (j < g.length && (g[j] === "?" || (g[j] !== "*" && g[j] === s[i]))) {
          i++;
          j++;
        } else if (j < g.length && g[j] === "*") {
          star = j++;
          mark = i;
        } else if (star >= 0) {
          j = star + 1;
          i = ++mark;
        } else return false;
      }
      while (j < g.length && g[j] === "*") j++;
      return j === g.length;
    },
  };
}
