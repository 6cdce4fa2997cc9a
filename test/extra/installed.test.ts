/**
 * Both packages as a user gets them: the library and the CLI are packed once (one `npm pack`) and
 * installed into fresh temporary projects from the tarballs, everything else from the local npm
 * cache (`--prefer-offline`). The JavaScript comes from the global setup's build; the library's
 * declarations are built here (`tsup --dts-only`, which leaves the JavaScript that the other
 * tests read in place), beside the other tests rather than before them. That build takes 10 to
 * 15 s of CPU, so its output is kept under node_modules/.cache, keyed by a hash of everything it
 * reads (src/, the tsup and TypeScript configurations, package.json and the lockfile), and a run
 * whose inputs are unchanged copies it instead. Declarations that `npm run build` wrote after the
 * last change to those inputs are used as they are (`.ci/run` builds before it tests).
 *
 * Two projects, so two installs (each costs seconds of CPU):
 * - "app": first only the README's install line, `npm install @sbissoli/mcp-search
 *   @modelcontextprotocol/server zod`, and the checks of that install (what it added, the
 *   declarations, ./site without its parsers). Then the same project gets the CLI's tarball and
 *   both optional parsers (`npm install` again, into it), so that every package the main entry
 *   must NOT load is there to be loaded, and the bin is there to be run.
 * - "v1": a project on `@modelcontextprotocol/sdk` v1, with fast-xml-parser but no chrono-node,
 *   and without the v2 server: a project of its own, installed while the first one is checked.
 */
import { execFile as execFileCallback, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFile, mkdir, mkdtemp, readFile, readdir, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as source from "../../src/index.js";
import { LIBRARY_INPUTS, builtAfter, inputFiles } from "../_built.js";

const execFile = promisify(execFileCallback);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");
const TSUP = join(ROOT, "node_modules", "tsup", "dist", "cli-default.js");

/** Packages that a server using only the main entry must never load. */
const NEVER_LOADED = ["chrono-node", "fast-xml-parser", "@modelcontextprotocol/client", "@modelcontextprotocol/node", "hono", "@hono/node-server"];

let workspace: string;
let docs: string;
let library: string;
let cli: string;
/** The v1 project's install, started in the first beforeAll and awaited by the v1 checks. */
let v1Installed: Promise<void>;
const project = (name: "app" | "v1") => join(workspace, name);

async function npm(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await execFile(NPM, args, { cwd, encoding: "utf8" });
  return stdout;
}

/**
 * Writes the library's declarations into dist/: copied from the cache when a build of the same
 * inputs left them there (each input's path and bytes are hashed), kept when `npm run build` wrote
 * them after the last change to any input (`.ci/run` builds before it tests; the global setup's
 * build leaves them in place), or else built by `tsup --dts-only`.
 */
async function buildDeclarations(): Promise<void> {
  const inputs = await inputFiles(ROOT, LIBRARY_INPUTS);
  const hash = createHash("sha256");
  for (const file of inputs) hash.update(`${relative(ROOT, file)}\0`).update(await readFile(file)).update("\0");
  const cached = join(ROOT, "node_modules", ".cache", "declarations", hash.digest("hex").slice(0, 32));
  const dist = join(ROOT, "dist");
  const isDeclaration = (name: string) => /\.d\.c?ts$/.test(name);
  // Relative paths: the parser subpaths' declarations live in dist/site/.
  const declarationsIn = async (folder: string) => (await readdir(folder, { recursive: true, encoding: "utf8" }).catch(() => [])).filter(isDeclaration);
  const copyAll = async (names: string[], from: string, to: string) => {
    await Promise.all([...new Set(names.map((name) => dirname(join(to, name))))].map((folder) => mkdir(folder, { recursive: true })));
    await Promise.all(names.map((name) => copyFile(join(from, name), join(to, name))));
  };
  const hit = await declarationsIn(cached);
  if (hit.length > 0) {
    await copyAll(hit, cached, dist);
    return;
  }
  const entries = ["index", "site", "site/sitemap", "site/dates"].flatMap((name) => [`${name}.d.ts`, `${name}.d.cts`]);
  if (!(await builtAfter(inputs, entries.map((name) => join(dist, name))))) {
    await execFile(process.execPath, [TSUP, "--dts-only", "--silent"], { cwd: ROOT });
  }
  const building = `${cached}.${process.pid}`;
  await mkdir(building, { recursive: true });
  await copyAll(await declarationsIn(dist), dist, building);
  await rename(building, cached).catch(() => rm(building, { recursive: true, force: true })); // another run cached it first
}

/** Packs the library and the CLI into the workspace, in one npm run; returns the tarballs' paths. */
async function packBoth(): Promise<[library: string, cli: string]> {
  const names = (await npm(ROOT, ["pack", "--ignore-scripts", "--silent", "--pack-destination", workspace, ".", "./packages/cli"])).trim().split("\n");
  expect(names).toHaveLength(2);
  expect(names[1]).toMatch(/^sbissoli-mcp-search-cli-/);
  return [join(workspace, names[0]!), join(workspace, names[1]!)];
}

/**
 * `npm install` of the given packages into a project, every registry package from the local
 * cache when it is there (`--prefer-offline`). None of these packages needs an install script.
 */
async function install(name: "app" | "v1", packages: string[]): Promise<void> {
  await npm(project(name), ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", "--silent", ...packages]);
}

let cliAdded: Promise<void> | undefined;

/**
 * Adds the CLI's tarball and both parsers to the "app" project, once its README checks ran (file
 * order: the describe of those checks comes first). Both describes that need the CLI call it.
 */
function addCli(): Promise<void> {
  cliAdded ??= install("app", [cli, "chrono-node", "fast-xml-parser"]);
  return cliAdded;
}

/** A fresh, empty ESM project. */
async function createProject(name: "app" | "v1"): Promise<void> {
  await mkdir(project(name));
  await writeFile(join(project(name), "package.json"), JSON.stringify({ name: `consumer-${name}`, version: "1.0.0", private: true, type: "module" }));
}

beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), "mcp-search-installed-"));
  docs = join(workspace, "docs");
  await mkdir(docs);
  await writeFile(join(docs, "brewing.md"), "# Pour-over brewing\n\nBloom the coffee for thirty seconds.");
  await Promise.all([createProject("app"), createProject("v1")]);
  await buildDeclarations();
  [library, cli] = await packBoth();
  v1Installed = install("v1", [library, "@modelcontextprotocol/sdk@^1.23", "zod", "fast-xml-parser"]);
  v1Installed.catch(() => undefined); // awaited, and reported, by the v1 checks
  await install("app", [library, "@modelcontextprotocol/server", "zod"]);
}, 180_000);

afterAll(async () => {
  await v1Installed?.catch(() => undefined);
  if (workspace !== undefined) await rm(workspace, { recursive: true, force: true });
});

interface LockEntry {
  readonly resolved?: string;
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
}

/** The installed packages, by name, read from npm's hidden lockfile. */
async function installedPackages(cwd: string): Promise<Map<string, LockEntry>> {
  const lock = JSON.parse(await readFile(join(cwd, "node_modules", ".package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };
  return new Map(Object.entries(lock.packages).map(([path, entry]) => [path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length), entry]));
}

/** Every package the named ones bring, themselves included. */
function closure(packages: ReadonlyMap<string, LockEntry>, names: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const pending = [...names];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    const entry = packages.get(name);
    if (seen.has(name) || entry === undefined) continue;
    seen.add(name);
    pending.push(...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.optionalDependencies ?? {}));
  }
  return seen;
}

/** The package a file path or file URL belongs to: the part after its last `node_modules/`. */
function packageOf(path: string): string | undefined {
  const at = path.lastIndexOf("node_modules/");
  if (at === -1) return undefined;
  const [first, second] = path.slice(at + "node_modules/".length).split("/");
  return first?.startsWith("@") ? `${first}/${second}` : first;
}

/** Runs node in a project and returns its stdout. */
async function node(cwd: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await execFile(process.execPath, args, { cwd, encoding: "utf8", env: { ...process.env, ...env } });
  return stdout;
}

/**
 * The packages whose files an ESM import of `specifier` loaded: the URLs a loader hook saw
 * resolved (registered with `module.register` before the import runs, through `node --import`),
 * and the files in `require.cache`, where the `require`s of a `createRequire` land.
 */
async function packagesLoadedByImport(cwd: string, specifier: string): Promise<string[]> {
  const log = await writeRecordHooks(cwd);
  const script = [
    `await import(${JSON.stringify(specifier)});`,
    'const { createRequire } = await import("node:module");',
    'console.log(JSON.stringify(Object.keys(createRequire(process.cwd() + "/").cache)));',
  ].join("\n");
  const required = JSON.parse(await node(cwd, ["--import", "./record.mjs", "--input-type=module", "-e", script], { RECORD_LOG: log })) as string[];
  const imported = await packagesResolved(log);
  expect(imported).toContain("@sbissoli/mcp-search");
  return [...new Set([...imported, ...required.map((path) => packageOf(path.split("\\").join("/"))).filter((name) => name !== undefined)])].sort();
}

/** The packages of every URL the hooks of {@link writeRecordHooks} logged. */
async function packagesResolved(log: string): Promise<string[]> {
  const urls = (await readFile(log, "utf8")).split("\n").filter((url) => url.startsWith("file:"));
  return [...new Set(urls.map((url) => packageOf(fileURLToPath(url).split("\\").join("/"))).filter((name) => name !== undefined))].sort();
}

/**
 * Writes record.mjs into `cwd`: with `node --import ./record.mjs`, a loader hook logs every URL
 * an ESM import resolves to the file named by RECORD_LOG. Returns that file's path, emptied.
 */
async function writeRecordHooks(cwd: string): Promise<string> {
  const log = join(cwd, "resolved.log");
  await writeFile(log, "");
  await writeFile(
    join(cwd, "record-hooks.mjs"),
    [
      'import { appendFileSync } from "node:fs";',
      "let log;",
      "export function initialize(data) { log = data.log; }",
      "export async function resolve(specifier, context, nextResolve) {",
      "  const resolved = await nextResolve(specifier, context);",
      '  appendFileSync(log, resolved.url + "\\n");',
      "  return resolved;",
      "}",
    ].join("\n"),
  );
  await writeFile(
    join(cwd, "record.mjs"),
    'import { register } from "node:module";\nregister("./record-hooks.mjs", import.meta.url, { data: { log: process.env.RECORD_LOG } });\n',
  );
  return log;
}

/** The packages whose files a CJS `require` of `specifier` loaded, read from `require.cache`. */
async function packagesLoadedByRequire(cwd: string, specifier: string): Promise<string[]> {
  const stdout = await node(cwd, ["-e", `require(${JSON.stringify(specifier)}); console.log(JSON.stringify(Object.keys(require.cache)));`]);
  const paths = JSON.parse(stdout) as string[];
  return [...new Set(paths.map((path) => packageOf(path.split("\\").join("/"))).filter((name) => name !== undefined))].sort();
}

describe("the library installed with the README's line", () => {
  it("runs in a workspace with no node_modules above it, where an uninstalled package stays missing", async () => {
    // Node looks for a package in every node_modules up to the root: one in an ancestor (a stray
    // /tmp/node_modules) would lend this project the parsers it must not have.
    const above: string[] = [];
    for (let folder = dirname(workspace); folder !== dirname(folder); folder = dirname(folder)) {
      if ((await readdir(folder).catch((): string[] => [])).includes("node_modules")) above.push(join(folder, "node_modules"));
    }
    expect(above, "set TMPDIR to a folder with no node_modules above it").toStrictEqual([]);
  });

  it("ships declarations of every export for both module systems", async () => {
    const dist = join(project("app"), "node_modules", "@sbissoli", "mcp-search", "dist");
    const [esmTypes, cjsTypes] = await Promise.all([readFile(join(dist, "index.d.ts"), "utf8"), readFile(join(dist, "index.d.cts"), "utf8")]);
    for (const name of [...Object.keys(source), "SearchResult", "FetchDocument", "Locale", "JsonSchemaObject", "IndexEntry", "SearchIndex", "SearchOptions"]) {
      expect(esmTypes).toContain(name);
      expect(cjsTypes).toContain(name);
    }
  });

  it("adds itself alone beyond what zod and the server bring", async () => {
    const packages = await installedPackages(project("app"));
    const serverAndZod = closure(packages, ["@modelcontextprotocol/server", "zod"]);
    const added = [...packages.keys()].filter((name) => name !== "" && !serverAndZod.has(name)).sort();
    expect(added).toStrictEqual(["@sbissoli/mcp-search"]);
  });

  it("imports ./site with neither parser installed, and runs each helper that needs none, in ESM and in CJS", async () => {
    const installed = await installedPackages(project("app"));
    expect(installed.has("chrono-node") || installed.has("fast-xml-parser")).toBe(false);
    for (const [flag, load] of [
      ["--input-type=module", 'const site = await import("@sbissoli/mcp-search/site");'],
      ["--input-type=commonjs", 'const site = require("@sbissoli/mcp-search/site");'],
    ] as const) {
      const script = [
        `${load}`,
        'const llms = site.parseLlmsTxt("# Site\\n## Docs\\n- [Live](https://example.com/live): now\\n").entries;',
        'const merged = site.mergeCatalogues(llms, [{ id: "page:/old", title: "Old", url: "https://example.com/old" }]);',
        'const index = site.createIntentIndex(merged, { now: ["page:/live"] });',
        "console.log(JSON.stringify({",
        "  merged: merged.map((entry) => entry.id),",
        '  title: site.titleFromUrl("https://example.com/gamma-flip"),',
        '  intent: site.detectIntent("live right now").now,',
        '  search: index.search("right now").map((hit) => hit.id),',
        '  words: Object.keys(site.INTENT_WORDS),',
        '  robots: site.parseRobotsTxt("User-agent: *\\nDisallow: /api/").isAllowed("/api/run"),',
        "}));",
      ].join("\n");
      expect(JSON.parse(await node(project("app"), [flag, "-e", script])), flag).toStrictEqual({
        merged: ["page:/live", "page:/old"],
        title: "Gamma flip",
        intent: true,
        search: ["page:/live"],
        words: ["pt-BR", "en", "es"],
        robots: false,
      });
    }
  });

  it("fails to import a parser's subpath without its parser, with the runtime's error naming the package", async () => {
    for (const [subpath, parser] of [
      ["site/sitemap", "fast-xml-parser"],
      ["site/dates", "chrono-node"],
    ] as const) {
      const script = `import("@sbissoli/mcp-search/${subpath}").then(() => console.log("loaded"), (error) => console.log(error.code + ": " + error.message));`;
      const printed = (await node(project("app"), ["-e", script])).trim();
      expect(printed).toMatch(new RegExp(`^ERR_MODULE_NOT_FOUND: Cannot find package '${parser}' imported from `));
    }
  });

  it("ships one copy of the error class and of the ranking engine for each module system", async () => {
    const dist = join(project("app"), "node_modules", "@sbissoli", "mcp-search", "dist");
    const files = (await readdir(dist, { recursive: true, encoding: "utf8" })).filter((name) => /\.c?js$/.test(name));
    const defining = async (pattern: RegExp, extension: string) => {
      const found: string[] = [];
      for (const file of files.filter((name) => name.endsWith(extension))) if (pattern.test(await readFile(join(dist, file), "utf8"))) found.push(file);
      return found.length;
    };
    for (const extension of [".js", ".cjs"]) {
      expect(await defining(/\bvar McpSearchError = /, extension), extension).toBe(1);
      expect(await defining(/\bfunction createIndex\(/, extension), extension).toBe(1);
    }
  });

  it("keeps one McpSearchError: an error thrown in ./site is an instance of the main entry's class, in ESM and in CJS", async () => {
    const check = [
      "const duplicate = [{ id: 'a', title: 'A', url: 'https://x.org/a' }, { id: 'a', title: 'B', url: 'https://x.org/b' }];",
      "const caught = [() => site.createIntentIndex(duplicate), () => site.parseRobotsTxt('', { maxBytes: 0 }), () => site.parseLlmsTxt('', { baseUrl: 'relative' })].map((run) => {",
      "  try { run(); return 'no error'; } catch (error) { return [error instanceof main.McpSearchError, error.constructor === main.McpSearchError]; }",
      "});",
      "console.log(JSON.stringify(caught));",
    ];
    const esm = ['const main = await import("@sbissoli/mcp-search");', 'const site = await import("@sbissoli/mcp-search/site");', ...check].join("\n");
    const cjs = ['const main = require("@sbissoli/mcp-search");', 'const site = require("@sbissoli/mcp-search/site");', ...check].join("\n");
    const expected = [[true, true], [true, true], [true, true]];
    expect(JSON.parse(await node(project("app"), ["--input-type=module", "-e", esm]))).toStrictEqual(expected);
    expect(JSON.parse(await node(project("app"), ["--input-type=commonjs", "-e", cjs]))).toStrictEqual(expected);
  });
});

describe("the main entry, beside the CLI, both parsers, the client and the HTTP transport", () => {
  // The README project above, once its own checks ran, gets the CLI and both parsers.
  beforeAll(addCli, 120_000);

  it("has every package it must not load installed, and still the library from its tarball", async () => {
    const installed = await installedPackages(project("app"));
    for (const name of NEVER_LOADED) expect(installed.has(name), name).toBe(true);
    expect(installed.get("@sbissoli/mcp-search")?.resolved).toBe(`file:../${basename(library)}`);
  });

  it("loads only itself and zod through ESM import", async () => {
    expect(await packagesLoadedByImport(project("app"), "@sbissoli/mcp-search")).toStrictEqual(["@sbissoli/mcp-search", "zod"]);
  });

  it("loads only itself and zod through CJS require", async () => {
    expect(await packagesLoadedByRequire(project("app"), "@sbissoli/mcp-search")).toStrictEqual(["@sbissoli/mcp-search", "zod"]);
  });

  it("loads no parser through ./site, and only its own parser through ./site/sitemap and ./site/dates", async () => {
    // Of the packages a server may have, each subpath loads only its own parser (and what the
    // parser itself brings); none reads the contract's schemas, so none loads zod either.
    const watched = ["zod", "chrono-node", "fast-xml-parser", "@modelcontextprotocol/client", "@modelcontextprotocol/node", "@modelcontextprotocol/server"];
    const loaded = async (subpath: string) => (await packagesLoadedByImport(project("app"), `@sbissoli/mcp-search/${subpath}`)).filter((name) => watched.includes(name));
    expect(await loaded("site")).toStrictEqual([]);
    expect(await loaded("site/sitemap")).toStrictEqual(["fast-xml-parser"]);
    expect(await loaded("site/dates")).toStrictEqual(["chrono-node"]);
  });

  it("keeps one McpSearchError across the parser subpaths too, in ESM and in CJS", async () => {
    const check = [
      "const caught = [() => dates.findDates('x', { minYear: 3000 }), () => sitemap.parseSitemap('', { baseUrl: 'relative' })].map((run) => {",
      "  try { run(); return 'no error'; } catch (error) { return error instanceof main.McpSearchError; }",
      "});",
      "console.log(JSON.stringify(caught));",
    ];
    const names = ["main", "dates", "sitemap"];
    const specifiers = ["@sbissoli/mcp-search", "@sbissoli/mcp-search/site/dates", "@sbissoli/mcp-search/site/sitemap"];
    const esm = [...names.map((name, i) => `const ${name} = await import(${JSON.stringify(specifiers[i])});`), ...check].join("\n");
    const cjs = [...names.map((name, i) => `const ${name} = require(${JSON.stringify(specifiers[i])});`), ...check].join("\n");
    expect(JSON.parse(await node(project("app"), ["--input-type=module", "-e", esm]))).toStrictEqual([true, true]);
    expect(JSON.parse(await node(project("app"), ["--input-type=commonjs", "-e", cjs]))).toStrictEqual([true, true]);
  });

  it("bundles every entry with esbuild --platform=neutral, and no bundle imports a Node built-in", async () => {
    const { build } = await import("esbuild");
    for (const entry of ["", "/site", "/site/sitemap", "/site/dates"]) {
      const specifier = `@sbissoli/mcp-search${entry}`;
      // A module that uses every export, so that nothing is shaken out unseen.
      const result = await build({
        stdin: { contents: `export * from ${JSON.stringify(specifier)};`, resolveDir: project("app"), loader: "js" },
        absWorkingDir: project("app"),
        bundle: true,
        write: false,
        platform: "neutral",
        format: "esm",
        mainFields: ["module", "main"],
        metafile: true,
        logLevel: "silent",
      });
      const imports = Object.values(result.metafile.inputs).flatMap((input) => input.imports);
      expect(imports.filter((found) => found.external), specifier).toStrictEqual([]);
      expect(Object.keys(result.metafile.inputs).filter((path) => path.includes("@sbissoli/mcp-search/")).length, specifier).toBeGreaterThan(0);
      expect(result.warnings, specifier).toStrictEqual([]);
    }
  });

  it("aborts a callback's signal on the time limit and on a real client's cancellation", async () => {
    const script = [
      'import { Client } from "@modelcontextprotocol/client";',
      'import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";',
      'import { registerDeepResearchTools } from "@sbissoli/mcp-search";',
      "const seen = [];",
      "let started;",
      "const waiting = (_input, { signal }) => new Promise((_resolve, reject) => {",
      "  started?.();",
      "  signal.addEventListener('abort', () => { seen.push(signal.reason?.name ?? String(signal.reason)); reject(signal.reason); });",
      "});",
      "const server = new McpServer({ name: 'installed', version: '1.0.0' });",
      "registerDeepResearchTools(server, { search: waiting, fetch: waiting, corpus: 'nothing', timeoutMs: 100 });",
      "const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();",
      "await server.connect(serverSide);",
      "const client = new Client({ name: 'host', version: '1.0.0' });",
      "await client.connect(clientSide);",
      "const timedOut = await client.callTool({ name: 'search', arguments: { query: 'x' } });",
      "const running = new Promise((resolve) => (started = resolve));",
      "const controller = new AbortController();",
      "const cancelled = client.callTool({ name: 'fetch', arguments: { id: 'x' } }, { signal: controller.signal }).then(() => 'answered', () => 'rejected');",
      "await running;",
      "controller.abort();",
      "const outcome = await cancelled;",
      "while (seen.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));",
      "await client.close();",
      "console.log(JSON.stringify({ timedOut: timedOut.isError, outcome, seen }));",
    ].join("\n");
    const printed = JSON.parse(await node(project("app"), ["--input-type=module", "-e", script])) as { timedOut: boolean; outcome: string; seen: string[] };
    expect(printed.timedOut).toBe(true);
    expect(printed.outcome).toBe("rejected");
    expect(printed.seen[0]).toBe("TimeoutError");
    expect(printed.seen).toHaveLength(2); // the cancelled fetch saw its signal abort too
  });
});

describe("a project on @modelcontextprotocol/sdk v1", () => {
  beforeAll(() => v1Installed, 120_000);

  it("type-checks a server that registers the tools on the v1 McpServer", async () => {
    const cwd = project("v1");
    await writeFile(
      join(cwd, "server.ts"),
      [
        'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";',
        'import { createIndex, registerDeepResearchTools, type DeepResearchTools } from "@sbissoli/mcp-search";',
        "",
        "const pages = [",
        '  { id: "page:/soja", title: "Produção de soja no Paraná", url: "https://example.org/soja", text: "A safra de soja…" },',
        "];",
        "const index = createIndex(pages);",
        'const server = new McpServer({ name: "example-docs", version: "1.0.0" });',
        "const tools: DeepResearchTools<ReturnType<McpServer[\"registerTool\"]>> = registerDeepResearchTools(server, {",
        "  search: (query) => index.search(query),",
        "  fetch: (id) => pages.find((page) => page.id === id) ?? null,",
        "  resolveId: index.resolve,",
        '  corpus: "agricultural production pages of example.org",',
        "  annotations: { readOnlyHint: true },",
        "});",
        "tools.fetch.update({ title: \"Read a page\" }); // the v1 RegisteredTool's own method",
        "// @ts-expect-error the options need a corpus: were the library's types lost, this line would be an error",
        "registerDeepResearchTools(server, { search: () => [], fetch: () => null });",
        "",
      ].join("\n"),
    );
    await writeFile(
      join(cwd, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          // A Node server's libraries; the default would add the DOM's (0.4 s of CPU to parse).
          lib: ["ES2022"],
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          exactOptionalPropertyTypes: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        files: ["server.ts"],
      }),
    );
    const installed = await installedPackages(cwd);
    expect(installed.has("@modelcontextprotocol/server")).toBe(false);
    // skipLibCheck would hide an import of a missing package in the declarations: there is none.
    const declarations = join(cwd, "node_modules", "@sbissoli", "mcp-search", "dist");
    for (const file of (await readdir(declarations)).filter((name) => /\.d\.c?ts$/.test(name))) {
      expect(await readFile(join(declarations, file), "utf8"), file).not.toMatch(/^(?:import|export)\b[^\n]*"@modelcontextprotocol\/|import\("@modelcontextprotocol\//m);
    }
    const result = await execFile(process.execPath, [TSC, "-p", cwd], { cwd, encoding: "utf8" }).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
    expect(result.stdout).toBe("");
  }, 60_000);

  it("loads ./site and ./site/sitemap without chrono-node, and only ./site/dates asks for it", async () => {
    const script = [
      'const results = await Promise.allSettled(["site", "site/sitemap", "site/dates"].map((subpath) => import("@sbissoli/mcp-search/" + subpath)));',
      'console.log(JSON.stringify(results.map((result) => result.status === "fulfilled" ? "loaded" : result.reason.message.split(" imported from ")[0])));',
    ].join("\n");
    expect(JSON.parse(await node(project("v1"), ["--input-type=module", "-e", script]))).toStrictEqual(["loaded", "loaded", "Cannot find package 'chrono-node'"]);
  });
});

/** The stdout lines that are not a JSON-RPC 2.0 message: anything here corrupts the protocol. */
function nonProtocolLines(stdout: string): string[] {
  return stdout
    .split("\n")
    .filter((line) => line !== "")
    .filter((line) => {
      try {
        return (JSON.parse(line) as { jsonrpc?: unknown }).jsonrpc !== "2.0";
      } catch {
        return true;
      }
    });
}

describe("the installed mcp-search bin of @sbissoli/mcp-search-cli", () => {
  const bin = () => join(project("app"), "node_modules", ".bin", "mcp-search");

  beforeAll(addCli, 120_000);

  it("is linked from the CLI package", async () => {
    expect(await readdir(join(project("app"), "node_modules", ".bin"))).toContain("mcp-search");
  });

  it("serves search and fetch over stdio to a real client", async () => {
    const transport = new StdioClientTransport({ command: bin(), args: ["serve", docs, "--locale", "en"], stderr: "pipe" });
    const client = new Client({ name: "installed-test", version: "0.0.0" });
    await client.connect(transport);
    try {
      // All three hints set, as OpenAI's app review asks.
      const { tools } = await client.listTools();
      for (const tool of tools) expect(tool.annotations, tool.name).toStrictEqual({ readOnlyHint: true, destructiveHint: false, openWorldHint: false });
      const found = await client.callTool({ name: "search", arguments: { query: "bloom" } });
      expect((found.structuredContent as { results: { id: string }[] }).results.map((hit) => hit.id)).toStrictEqual(["doc:brewing.md"]);
      const doc = await client.callTool({ name: "fetch", arguments: { id: "doc:brewing.md" } });
      expect(doc.structuredContent).toMatchObject({ title: "Pour-over brewing", text: "# Pour-over brewing\n\nBloom the coffee for thirty seconds." });
    } finally {
      await client.close();
    }
  });

  it("ships eld's rows for the library's languages beside its bundle, and detects a one-word title's language with them", async () => {
    const cli = join(project("app"), "node_modules", "@sbissoli", "mcp-search-cli");
    const rows = JSON.parse(await readFile(join(cli, "dist", "eld-extrasmall-rows.json"), "utf8")) as { eld: string; languages: string[] };
    const eld = JSON.parse(await readFile(join(project("app"), "node_modules", "eld", "package.json"), "utf8")) as { version: string };
    expect(rows.eld).toBe(eld.version);
    expect(rows.languages).toStrictEqual([...source.LANGUAGES]);
    // No function word tells "Сетка" is Russian: eld does, and Snowball's Russian meets "сетки".
    const folder = await mkdtemp(join(tmpdir(), "mcp-search-installed-eld-"));
    await writeFile(join(folder, "grid.md"), "Сетка\n");
    await writeFile(join(folder, "other.md"), "Cuadrícula\n");
    const transport = new StdioClientTransport({ command: bin(), args: ["serve", folder, "--locale", "en"], stderr: "pipe" });
    const client = new Client({ name: "installed-test", version: "0.0.0" });
    await client.connect(transport);
    try {
      const found = await client.callTool({ name: "search", arguments: { query: "сетки" } });
      expect((found.structuredContent as { results: { id: string }[] }).results.map((hit) => hit.id)).toStrictEqual(["doc:grid.md"]);
    } finally {
      await client.close();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("writes nothing but protocol to stdout, and its logs to stderr; over stdio it loads no client and no HTTP adapter", async () => {
    const log = await writeRecordHooks(project("app"));
    const child = spawn(process.execPath, ["--import", "./record.mjs", bin(), "serve", docs], {
      cwd: project("app"),
      env: { ...process.env, RECORD_LOG: log },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const messages = [
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "search", arguments: { query: "bloom" } } },
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "fetch", arguments: { id: "doc:../../etc/passwd" } } },
    ];
    const answered = new Promise<void>((resolve) => {
      child.stdout.on("data", () => {
        if (stdout.split("\n").filter((line) => line.includes('"id":')).length >= 3) resolve();
      });
    });
    for (const message of messages) child.stdin.write(`${JSON.stringify(message)}\n`);
    await answered;
    child.stdin.end();
    await new Promise((resolve) => child.once("exit", resolve));
    expect(nonProtocolLines(stdout)).toStrictEqual([]);
    // The replies; a notification the server sends meanwhile (the resource list changed once
    // indexing ended) is protocol too, but has no id.
    const received = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { id?: number; method?: string; result?: { isError?: boolean } });
    for (const message of received) if (message.id === undefined) expect(message.method).toMatch(/^notifications\//);
    const replies = received.filter((message) => message.id !== undefined).sort((a, b) => a.id! - b.id!);
    expect(replies.map((reply) => reply.id)).toStrictEqual([1, 2, 3]);
    expect(replies[2]?.result?.isError).toBe(true);
    expect(stderr).toContain("mcp-search: indexed 1 documents");
    const loaded = await packagesResolved(log);
    expect(loaded).toContain("@modelcontextprotocol/server");
    expect(loaded.filter((name) => ["@modelcontextprotocol/client", "@modelcontextprotocol/node", "hono", "@hono/node-server"].includes(name))).toStrictEqual([]);
  });
});
