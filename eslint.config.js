// Lint configuration: ESLint's and typescript-eslint's recommended rules (pure JavaScript, so the
// lock file installs on every platform).
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import { layerConfigs } from "./eslint.layers.js";

const NO_CLOCK = "tests read no wall clock: count the work, measure CPU time (test/cpu-time.ts), or pass a fixed clock in";

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "coverage/**", "src/generated/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly", performance: "readonly", Buffer: "readonly", TextEncoder: "readonly", TextDecoder: "readonly" } },
    rules: {
      "@typescript-eslint/no-explicit-any": "warn",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "no-control-regex": "off",
      "no-misleading-character-class": "off",
      "no-empty": ["error", { allowEmptyCatch: true }],
    },
  },
  {
    // bin/ is CommonJS (bin/package.json), so starting the command does not start the ES module loader; so are .cjs files.
    files: ["bin/**/*.js", "**/*.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { require: "readonly", module: "writable", __dirname: "readonly" } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  ...layerConfigs(),
  {
    // Tests read no wall clock: a machine's other work moves it. A bound on work counts the work, or the
    // CPU time where only time can show it (test/cpu-time.ts); a clock the code needs is passed in.
    files: ["**/*.test.ts", "test/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: NO_CLOCK },
        { selector: "CallExpression[callee.object.name='performance'][callee.property.name='now']", message: NO_CLOCK },
      ],
    },
  },
);
