import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";
import { SlowestFirstSequencer } from "./test/sequencer.js";

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // The CLI package imports the library by its public name; in-process tests read the source.
  resolve: {
    alias: [
      { find: /^@sbissoli\/mcp-search$/, replacement: source("./src/index.ts") },
      { find: /^@sbissoli\/mcp-search\/site$/, replacement: source("./src/site/index.ts") },
      { find: /^@sbissoli\/mcp-search\/site\/sitemap$/, replacement: source("./src/site/sitemap.ts") },
      { find: /^@sbissoli\/mcp-search\/site\/dates$/, replacement: source("./src/site/dates.ts") },
    ],
  },
  test: {
    include: ["test/**/*.test.ts", "packages/cli/test/**/*.test.ts"],
    // The type check is not part of `npm test`: `npm run check:static` runs it, with the regex lint (vitest.static.config.ts).
    // The extra tier runs apart, by `npm run test:extra` (vitest.extra.config.ts).
    exclude: [...configDefaults.exclude, "test/static/**", "test/extra/**", "packages/cli/test/extra/**"],
    globalSetup: ["test/global-setup.ts"],
    // A fresh clone has no durations for vitest to sort by: see test/sequencer.ts.
    sequence: { sequencer: SlowestFirstSequencer },
    // Many files wait on child processes, sockets and a WASM Postgres rather than compute, so
    // more workers than cores pay; each worker shares one module cache among its files. Every file
    // restores what it changes (timers, listeners), so sharing is safe. Measured on two cores
    // with 2,573 tests: three workers 65.0 s wall, four 66.8 s, two 67.5 s, each about 123 s of
    // CPU, so the suite is bound by its CPU, not by its waits.
    maxWorkers: 3,
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    benchmark: {
      include: ["bench/**/*.bench.ts", "packages/cli/bench/**/*.bench.ts"],
    },
  },
});
