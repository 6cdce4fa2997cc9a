import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // The CLI package imports the library by its public name; in-process tests read the source.
  resolve: {
    alias: [
      { find: /^@sbissoli\/mcp-search$/, replacement: source("./src/index.ts") },
      { find: /^@sbissoli\/mcp-search\/site$/, replacement: source("./src/site/index.ts") },
    ],
  },
  test: {
    include: ["test/**/*.test.ts", "packages/cli/test/**/*.test.ts"],
    // The type check is not part of `npm test`: `npm run check:static` runs it, with the regex lint (vitest.static.config.ts).
    exclude: [...configDefaults.exclude, "test/static/**"],
    globalSetup: ["test/global-setup.ts"],
    // Most files wait on child processes, sockets and a WASM Postgres rather than compute: four
    // workers on two cores, sharing one module cache per worker, halve the suite's wall time.
    // Every file restores what it changes (timers, listeners), so sharing is safe. Two workers
    // were measured too: the same wall time and a little less CPU when the folder server does not
    // collect its garbage after indexing, but much slower while it does (each worker's heap is
    // larger, and that full collection costs more), so four it stays.
    maxWorkers: 4,
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    benchmark: {
      include: ["bench/**/*.bench.ts", "packages/cli/bench/**/*.bench.ts"],
    },
  },
});
