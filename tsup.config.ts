import { readFile, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
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
  onSuccess: async () => {
    await dropBareChunkImports();
    await dropStaleChunks();
  },
});

/**
 * esbuild's splitting adds `import "./chunk-….js";` to an ESM file for every chunk its chunks
 * import, so that a browser may fetch them in parallel. Each such chunk is also imported by name
 * where it is used, and none has side effects, so the line does nothing, but a bundler (esbuild,
 * and wrangler through it) warns about each one in a package marked `"sideEffects": false`.
 */
async function dropBareChunkImports(): Promise<void> {
  const files = await readdir("dist", { recursive: true, encoding: "utf8" });
  for (const file of files.filter((name) => name.endsWith(".js"))) {
    const path = join("dist", file);
    const code = await readFile(path, "utf8");
    const kept = code.replace(/^import "(?:\.\.?\/)+chunk-[\w-]+\.js";\n/gm, "");
    if (kept !== code) await writeFile(path, kept);
  }
}

/**
 * A build without `clean` (the test setup's, which keeps the declarations) leaves the chunks of
 * earlier builds beside the new ones, and `npm pack` would ship them: every chunk that no entry
 * reaches, through the chunks it imports, goes, with its source map.
 */
async function dropStaleChunks(): Promise<void> {
  const files = await readdir("dist", { recursive: true, encoding: "utf8" });
  const code = new Map<string, string>();
  for (const file of files.filter((name) => /\.c?js$/.test(name))) code.set(file.split("\\").join("/"), await readFile(join("dist", file), "utf8"));
  const reached = new Set<string>();
  const pending = [...code.keys()].filter((file) => !file.startsWith("chunk-"));
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (reached.has(file)) continue;
    reached.add(file);
    const folder = file.includes("/") ? file.slice(0, file.lastIndexOf("/") + 1) : "";
    for (const [, specifier] of (code.get(file) ?? "").matchAll(/["'](\.{1,2}\/[\w./-]*chunk-[\w-]+\.c?js)["']/g)) {
      pending.push(new URL(specifier!, `file:///${folder}`).pathname.slice(1));
    }
  }
  const stale = [...code.keys()].filter((file) => file.startsWith("chunk-") && !reached.has(file));
  await Promise.all(stale.flatMap((file) => [rm(join("dist", file), { force: true }), rm(join("dist", `${file}.map`), { force: true })]));
}
