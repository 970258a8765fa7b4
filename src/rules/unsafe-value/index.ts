import { defineRule } from "../../core/rule.js";

export default defineRule({
  meta: {
    id: "unsafe-value",
    defaultSeverity: "error",
    phase: "read",
    summary: "A value that parses but means different things to different consumers.",
    docs: {
      description:
        "Reports lone UTF-16 surrogates, numbers that overflow to infinity (1e400), integers beyond ±(2^53-1), keys named __proto__, constructor or prototype, and bidi or zero-width controls in keys, tool names or paths.",
      rationale:
        "Each of these reads differently in different languages or encoders (a lone surrogate becomes U+FFFD in one and an escape in another, so two plans can share a hash; a big integer is rounded by JavaScript; __proto__ pollutes prototypes; bidi controls make a reviewer read another name than the executor runs).",
      fix: "Remove the control or surrogate, write the number as a string or within range, and rename the key.",
      bad: '{"tool": "read_file", "params": {"n": 1e400}}',
      good: '{"tool": "read_file", "params": {"n": 1000}}',
    },
  },
});
