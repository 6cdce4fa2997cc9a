import { defineConfig } from "vitest/config";
import suite from "./vitest.config.js";

/**
 * The tests Stryker runs against each mutant (`npm run mutate`, stryker.config.mjs), not run by
 * `npm test`: only in-process files that cover the mutated modules. Stryker's sandbox holds no
 * dist/, so a test that spawns the built bin cannot run there, and a mutant of the source would
 * not reach the bin anyway. No global setup: nothing is built.
 */
export default defineConfig({
  ...suite,
  test: {
    ...suite.test,
    include: [
      // containment (containment.ts), the hidden and vendor rules, and the doc: ids (ids.ts)
      "packages/cli/test/folder/cli-containment-seam.test.ts",
      "packages/cli/test/folder/containment.test.ts",
      "packages/cli/test/folder/ids.test.ts",
      "packages/cli/test/cli/cli-parts.test.ts",
      // the HTTP guard
      "packages/cli/test/transports/http-guard.test.ts",
      // the snapshot and cache checks
      "packages/cli/test/folder/snapshot.test.ts",
      "packages/cli/test/folder/text-cache.test.ts",
      "packages/cli/test/folder/cache-file.test.ts",
      "packages/cli/test/oauth/state.test.ts",
      "test/ranking/snapshot.test.ts",
      // the factory's caps and deadline
      "test/factory/error-caps.test.ts",
      "test/factory/register.test.ts",
      "test/factory/caps.test.ts",
      // the rule ranking, and the plural folding (BM25's and the vocabulary's) at its shortest words
      "test/ranking/create-index.test.ts",
      "test/ranking/page.test.ts",
      "test/ranking/search-with-total.test.ts",
      "test/ranking/analysis/plural-boundaries.test.ts",
      "test/ranking/analysis/analysis.test.ts",
      "test/vocabulary/vocabulary.test.ts",
      // the options' checks, the matcher of snippets, the languages and the detector, concepts
      "test/contract/option-names.test.ts",
      "test/ranking/matcher.test.ts",
      "test/ranking/matches.test.ts",
      "test/languages/languages.test.ts",
      "test/ranking/concepts.test.ts",
      "test/ranking/index-options.test.ts",
    ],
    exclude: [],
    globalSetup: [],
    // Fewer random snapshots in test/ranking/snapshot.test.ts's property: each mutant runs it again.
    env: { SNAPSHOT_RUNS: "10" },
    passWithNoTests: true,
  },
});
