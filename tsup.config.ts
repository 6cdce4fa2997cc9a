import { defineConfig } from "tsup";

// The library: the main entry (contract, ranking, vocabulary, envelope, factory) and the `./site`
// subpath (catalogue, dates, intent), each as ESM + CJS + .d.ts. The CLI is its own package, in
// packages/cli, with its own build.
export default defineConfig({
  entry: { index: "src/index.ts", site: "src/site/index.ts" },
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
  platform: "node",
  splitting: false,
  shims: true,
});
