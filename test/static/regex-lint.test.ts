/**
 * The static half of regex safety (test/extra/regex-safety.test.ts holds the run-time half): every
 * pattern in both packages' src/ passes eslint-plugin-regexp with the repository's
 * eslint.config.js, through ESLint's Node API, and a planted super-linear pattern is reported.
 * `npm run check:static` runs it (vitest.static.config.ts), and so does `.ci/run`;
 * `npm run lint:regexp` is the same lint from the command line.
 */
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

describe("regex lint", () => {
  it("finds no super-linear pattern in either package's src/, and finds a planted one", async () => {
    // ESLint's cache (keyed by each file's content and the configuration) skips the files that
    // are unchanged since the last run: most of the lint's cost is parsing them.
    const eslint = new ESLint({
      cwd: fileURLToPath(new URL("../..", import.meta.url)),
      cache: true,
      cacheLocation: fileURLToPath(new URL("../../node_modules/.cache/eslint/", import.meta.url)),
      cacheStrategy: "content",
    });
    const results = await eslint.lintFiles(["src", "packages/cli/src"]);
    expect(results.length).toBeGreaterThan(50);
    const problems = results.flatMap((result) => result.messages.map((message) => `${result.filePath}:${message.line} ${message.ruleId ?? ""} ${message.message}`));
    expect(problems).toStrictEqual([]);
    // The linter really reads the patterns: a nested quantifier is reported.
    const [planted] = await eslint.lintText("export const slow = /(a+)+b/;\n", { filePath: "src/planted.ts" });
    expect(planted?.messages.map((message) => message.ruleId)).toContain("regexp/no-super-linear-backtracking");
  }, 60_000);
});
