import { defineConfig } from "vitest/config";
import suite from "./vitest.config.js";

/**
 * The static checks, run by `npm run check:static` (and by `.ci/run`), not by `npm test`:
 * test/static/ holds the one TypeScript program over the repository and the documentation's
 * programs, with the TSDoc checks of the public API, and the regex lint. They read sources only:
 * no build first.
 */
export default defineConfig({
  ...suite,
  test: { ...suite.test, include: ["test/static/**/*.test.ts"], exclude: [], globalSetup: [] },
});
