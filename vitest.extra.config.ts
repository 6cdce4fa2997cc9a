import { configDefaults, defineConfig } from "vitest/config";
import suite from "./vitest.config.js";

/**
 * The extra tier, run by `npm run test:extra` (and by `.ci/run` after `npm test`), not by
 * `npm test`: tests that are worth running on every submission but cost more than `npm test`'s
 * budget of about 40 s allows, such as differential tests on real corpora at the scale where a
 * fault shows, or a program under another runtime. They live in `test/extra/` and
 * `packages/cli/test/extra/`, and the global setup builds both packages first, as for `npm test`.
 */
export default defineConfig({
  ...suite,
  test: {
    ...suite.test,
    include: ["test/extra/**/*.test.ts", "packages/cli/test/extra/**/*.test.ts"],
    exclude: [...configDefaults.exclude],
    // One file at a time: two of them run workerd (miniflare), whose synchronous proxy failed
    // under the load of the others in parallel; the tier's time is the sum, a few minutes.
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 300_000,
    passWithNoTests: true,
  },
});
