// ESLint's flat configuration for the bot: the recommended rules of
// @eslint/js over every module here (Node.js). `npm run lint`;
// tests/web/test_lint_js.py runs it with the Python suite.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/"] },
  js.configs.recommended,
  {
    files: ["**/*.js", "**/*.mjs"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
    rules: {
      // An unused argument documents a callback's shape; an unused caught error is normal.
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
      eqeqeq: ["error", "always", { null: "ignore" }],
      "prefer-const": "error",
      "no-var": "error",
    },
  },
];
