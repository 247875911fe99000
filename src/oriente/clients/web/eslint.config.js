// ESLint's flat configuration for the page: the recommended rules of
// @eslint/js over the sources (browser modules) and the build script and
// unit tests (Node.js modules). `npm run lint`; tests/web/test_lint_js.py
// runs it with the Python suite.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["dist/", "node_modules/"] },
  js.configs.recommended,
  {
    files: ["src/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
  },
  {
    files: ["*.js", "*.mjs", "test/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
  },
  {
    rules: {
      // An unused argument documents a callback's shape; an unused caught error is normal.
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
      eqeqeq: ["error", "always", { null: "ignore" }],
      "prefer-const": "error",
      "no-var": "error",
    },
  },
];
