// Regex safety only: every regular expression in src/ and packages/cli/src/ is checked for catastrophic (super-linear)
// backtracking. Style is not linted here. Run with `npm run lint:regexp`, part of `npm test`.
import regexp from "eslint-plugin-regexp";
import tseslint from "typescript-eslint";

export default [
  {
    files: ["src/**/*.ts", "packages/cli/src/**/*.ts"],
    languageOptions: { parser: tseslint.parser },
    plugins: { regexp },
    rules: {
      "regexp/no-super-linear-backtracking": "error",
      "regexp/no-super-linear-move": ["error", { ignoreSticky: false, ignorePartial: false }],
      "regexp/no-misleading-capturing-group": "error",
      "regexp/no-useless-quantifier": "error",
      "regexp/no-potentially-useless-backreference": "error",
    },
  },
];
