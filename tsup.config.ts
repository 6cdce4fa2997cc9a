import { defineConfig } from "tsup";

// The library: the main entry (contract, ranking, vocabulary, envelope, factory), the `./site`
// subpath (catalogue, intent, robots.txt) and one subpath per optional parser (`./site/sitemap`
// with fast-xml-parser, `./site/dates` with chrono-node), each as ESM + CJS + .d.ts. The CLI is
// its own package, in packages/cli, with its own build.
//
// Code splitting puts what two entries share (McpSearchError, the ranking engine, the locales)
// in one chunk that both load, so there is one McpSearchError class and `instanceof` holds
// across entries, in ESM and in CJS alike (tsup splits CJS too when `splitting` is set).
// No shims: nothing reads `import.meta.url`, `__dirname` or `require`, so every entry runs
// unchanged in a runtime without Node's built-ins (test/installed.test.ts bundles each one with
// esbuild --platform=neutral).
export default defineConfig({
  entry: {
    index: "src/index.ts",
    site: "src/site/index.ts",
    "site/sitemap": "src/site/sitemap.ts",
    "site/dates": "src/site/dates.ts",
  },
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
  platform: "neutral",
  splitting: true,
});
