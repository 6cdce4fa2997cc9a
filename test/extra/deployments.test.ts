/**
 * The deployments of docs/factory.md, run from the packed library as a user installs it:
 * - the Cloudflare Worker (the block that starts with `// worker.ts`), bundled by esbuild as
 *   wrangler bundles it, and run under workerd by miniflare (the runtime of `wrangler dev`, with no
 *   `nodejs_compat`), with a D1 database; a real MCP client searches and fetches over HTTP;
 * - a v1 server on zod 3, as most existing v1 servers are: it type-checks against
 *   `McpServerLike`, and answers a real v1 client.
 * In the extra tier: packing, two installs and workerd's start cost more than npm test's budget.
 */
import { execFile as execFileCallback } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { build } from "esbuild";
import { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createVocabulary } from "../../src/index.js";
import { LIBRARY_INPUTS, builtAfter, inputFiles } from "../_built.js";
import { readDoc, scanMarkdown } from "../_docs.js";

const execFile = promisify(execFileCallback);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");
const TSUP = join(ROOT, "node_modules", "tsup", "dist", "cli-default.js");

let workspace: string;
let tarball: string;
const project = (name: string) => join(workspace, name);

async function npm(cwd: string, args: string[]): Promise<string> {
  return (await execFile(NPM, args, { cwd, encoding: "utf8" })).stdout;
}

/** A fresh ESM project with the library's tarball and the given registry packages (from the local cache when there). */
async function createProject(name: string, packages: string[]): Promise<string> {
  const cwd = project(name);
  await mkdir(cwd);
  await writeFile(join(cwd, "package.json"), JSON.stringify({ name: `consumer-${name}`, version: "1.0.0", private: true, type: "module" }));
  await npm(cwd, ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", "--silent", tarball, ...packages]);
  return cwd;
}

beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), "mcp-search-deployments-"));
  // The declarations, for the zod 3 type check: `npm run build` (CI) wrote them, or build them now.
  const inputs = await inputFiles(ROOT, LIBRARY_INPUTS);
  if (!(await builtAfter(inputs, ["index.d.ts", "site.d.ts"].map((name) => join(ROOT, "dist", name))))) {
    await execFile(process.execPath, [TSUP, "--dts-only", "--silent"], { cwd: ROOT });
  }
  tarball = join(workspace, (await npm(ROOT, ["pack", "--ignore-scripts", "--silent", "--pack-destination", workspace, "."])).trim());
});

afterAll(async () => {
  if (workspace !== undefined) await rm(workspace, { recursive: true, force: true });
});

/** The Worker of docs/factory.md: the ts block that starts with `// worker.ts`. */
function workerSource(): string {
  const blocks = scanMarkdown(readDoc("docs/factory.md")).fences.filter((fence) => fence.language === "ts" && fence.body.startsWith("// worker.ts"));
  expect(blocks).toHaveLength(1);
  return blocks[0]!.body;
}

describe("the Cloudflare Worker of docs/factory.md, under workerd", () => {
  let mf: Miniflare;
  let endpoint: URL;

  beforeAll(async () => {
    const cwd = await createProject("worker", ["@modelcontextprotocol/server", "zod"]);
    await writeFile(join(cwd, "worker.ts"), workerSource());
    // As wrangler bundles a Worker: esbuild, the workerd conditions, ESM out, no Node polyfills.
    const bundled = await build({
      entryPoints: [join(cwd, "worker.ts")],
      absWorkingDir: cwd,
      bundle: true,
      format: "esm",
      platform: "neutral",
      conditions: ["workerd", "worker", "browser"],
      mainFields: ["module", "main"],
      outfile: join(cwd, "dist", "worker.js"),
      logLevel: "silent",
    });
    expect(bundled.errors).toStrictEqual([]);
    mf = new Miniflare({
      modules: true,
      scriptPath: join(cwd, "dist", "worker.js"),
      modulesRoot: join(cwd, "dist"),
      compatibilityDate: "2026-04-01",
      d1Databases: ["DB"],
    });
    endpoint = new URL("/mcp", await mf.ready);
    const db = await mf.getD1Database("DB");
    await db.exec("CREATE TABLE pages (id TEXT PRIMARY KEY, title TEXT, title_lc TEXT, url TEXT, body TEXT)");
    const normalize = createVocabulary({ sourceName: "the site", entries: [] }).normalize;
    for (const [id, title, url] of [
      ["page:/gex", "GEX explained", "https://example.com/gex"],
      ["page:/export/gex", "GEX export", "https://example.com/export/gex"],
      ["page:/soja", "Produção de soja", "https://example.com/soja"],
    ] as const) {
      await db.prepare("INSERT INTO pages VALUES (?, ?, ?, ?, ?)").bind(id, title, normalize(title), url, `# ${title}`).run();
    }
  }, 240_000);

  afterAll(async () => {
    await mf?.dispose();
  });

  it("answers search and fetch to a real client over Streamable HTTP", async () => {
    const client = new Client({ name: "host", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(endpoint));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => [tool.name, tool.annotations])).toStrictEqual([
        ["search", { readOnlyHint: true, destructiveHint: false, openWorldHint: false }],
        ["fetch", { readOnlyHint: true, destructiveHint: false, openWorldHint: false }],
      ]);
      // "gamma" reaches the GEX pages through the vocabulary's GLOB clause on D1.
      const gamma = await client.callTool({ name: "search", arguments: { query: "gamma" } });
      expect(gamma.structuredContent).toStrictEqual({
        results: [
          { id: "page:/export/gex", title: "GEX export", url: "https://example.com/export/gex" },
          { id: "page:/gex", title: "GEX explained", url: "https://example.com/gex" },
        ],
      });
      const soja = await client.callTool({ name: "search", arguments: { query: "producao" } });
      expect((soja.structuredContent as { results: { id: string }[] }).results.map((hit) => hit.id)).toStrictEqual(["page:/soja"]);
      const page = await client.callTool({ name: "fetch", arguments: { id: "page:/gex" } });
      expect(page.structuredContent).toStrictEqual({ id: "page:/gex", title: "GEX explained", url: "https://example.com/gex", text: "# GEX explained" });
      // robots.txt disallows /export: the route that runs work is never read.
      const blocked = await client.callTool({ name: "fetch", arguments: { id: "page:/export/gex" } });
      expect(blocked.isError).toBe(true);
      expect((blocked.content as { text: string }[])[0]?.text).toContain('"page:/export/gex"');
    } finally {
      await client.close();
    }
  });
});

describe("a v1 server on zod 3", () => {
  let cwd: string;

  beforeAll(async () => {
    cwd = await createProject("zod3", ["@modelcontextprotocol/sdk@^1.23", "zod@^3.25"]);
  }, 240_000);

  it("has zod 3 at the top, and the library its own zod 4", async () => {
    const version = async (path: string) => (JSON.parse(await readFile(join(cwd, "node_modules", ...path.split("/"), "package.json"), "utf8")) as { version: string }).version;
    expect(await version("zod")).toMatch(/^3\./);
    expect(await version("@sbissoli/mcp-search/node_modules/zod")).toMatch(/^4\./);
  });

  it("type-checks registerDeepResearchTools on the v1 McpServer, and answers a real v1 client", async () => {
    await writeFile(
      join(cwd, "server.ts"),
      [
        'import { Client } from "@modelcontextprotocol/sdk/client/index.js";',
        'import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";',
        'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";',
        'import { z } from "zod";',
        'import { createIndex, registerDeepResearchTools } from "@sbissoli/mcp-search";',
        "",
        'const pages = [{ id: "page:/soja", title: "Produção de soja", url: "https://example.org/soja", text: "A safra de soja…" }];',
        "const index = createIndex(pages);",
        'const server = new McpServer({ name: "v1-zod3", version: "1.0.0" });',
        '// The server\'s own tool, with zod 3: the project\'s zod.',
        'server.registerTool("echo", { inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: "text", text }] }));',
        "registerDeepResearchTools(server, {",
        "  search: (query) => index.search(query),",
        "  fetch: (id) => pages.find((page) => page.id === id) ?? null,",
        '  corpus: "agricultural pages",',
        "});",
        "const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();",
        "await server.connect(serverSide);",
        'const client = new Client({ name: "host", version: "1.0.0" });',
        "await client.connect(clientSide);",
        "const { tools } = await client.listTools();",
        'const found = await client.callTool({ name: "search", arguments: { query: "soja" } });',
        'const refused = await client.callTool({ name: "search", arguments: { query: "soja", limit: 5 } });',
        'const tooLong = await client.callTool({ name: "search", arguments: { query: "x".repeat(3000) } });',
        "await client.close();",
        "const query = tools.find((tool) => tool.name === \"search\")?.inputSchema.properties?.[\"query\"];",
        "console.log(JSON.stringify({ tools: tools.map((tool) => tool.name), found: found.structuredContent, refused: refused.isError, tooLong: tooLong.isError, query }));",
        "",
      ].join("\n"),
    );
    await writeFile(
      join(cwd, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { target: "ES2022", lib: ["ES2022", "DOM"], module: "NodeNext", moduleResolution: "NodeNext", strict: true, outDir: "out", skipLibCheck: true, types: [] },
        files: ["server.ts"],
      }),
    );
    const checked = await execFile(process.execPath, [TSC, "-p", cwd], { cwd, encoding: "utf8" }).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
    expect(checked.stdout).toBe("");
    const { stdout } = await execFile(process.execPath, [join(cwd, "out", "server.js")], { cwd, encoding: "utf8" });
    expect(JSON.parse(stdout)).toStrictEqual({
      tools: ["echo", "search", "fetch"],
      found: { results: [{ id: "page:/soja", title: "Produção de soja", url: "https://example.org/soja" }] },
      refused: true, // the strict input schema still refuses a key outside the contract
      tooLong: true, // and a query over MAX_QUERY_LENGTH
      // What docs/factory.md's compatibility table says: zod 3.25's copy of zod 4, which this v1
      // SDK converts with, publishes neither the description nor the maxLength.
      query: { type: "string" },
    });
  }, 120_000);
});
