// @ts-check
/**
 * Mutation testing of the files where a surviving bug is a breach (`npm run mutate`; see
 * CONTRIBUTING.md, "Mutation testing"). The tests are vitest.mutate.config.ts's, in-process only.
 *
 * @type {import("@stryker-mutator/api/core").PartialStrykerOptions}
 */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutate.config.ts" },
  plugins: ["@stryker-mutator/vitest-runner"],
  mutate: [
    // containment, and the hidden and vendor rules (VENDOR_FOLDERS, isServedPath); the doc: ids
    "packages/cli/src/folder/containment.ts",
    "packages/cli/src/folder/ids.ts",
    // the HTTP guard
    "packages/cli/src/transports/http-guard.ts",
    // the snapshot and cache checks
    "packages/cli/src/folder/snapshot.ts",
    "packages/cli/src/folder/cache-file.ts",
    "src/ranking/snapshot.ts",
    // the factory's caps and deadline
    "src/factory/outcomes.ts",
    "src/factory/deadline.ts",
    "src/factory/options.ts",
    "src/factory/replies.ts:30-93", // the search reply's cap on results, and the checks it runs
    // the rule ranking, and its one definition (fields, bonuses, stopwords, tokenizer)
    "src/ranking/create-index.ts",
    "src/ranking/rule/core.ts",
    "src/ranking/rule/definition.ts",
    // BM25's folding (й and ї kept), and the walk that gives the matcher of snippets BM25's words with their places
    "src/ranking/analysis/fold.ts",
    "src/ranking/matches.ts",
    // the plural rules at their shortest words (reis, pais, ties, pies): BM25's folding of its
    // Portuguese and English tokens, and the vocabulary's singular of a query's words, each in its
    // language's module (src/languages/)
    "src/languages/pt.ts:39-54", // foldPluralPt
    "src/languages/en.ts:28-37", // foldPluralEn
    "src/languages/pt.ts:67-73", // singularPt
    "src/languages/en.ts:48-53", // singularEn
  ],
  coverageAnalysis: "perTest",
  // Two cores, shared: one test runner at a time.
  concurrency: 1,
  incremental: true,
  incrementalFile: "reports/stryker/incremental.json",
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/stryker/mutation.html" },
  jsonReporter: { fileName: "reports/stryker/mutation.json" },
  thresholds: { high: 95, low: 90, break: 90 },
  // A mutant that loops forever is stopped this long after the tests' own time (ms).
  timeoutMS: 3000,
};
