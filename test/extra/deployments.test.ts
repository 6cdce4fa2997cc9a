/**
 * The deployments of docs/factory.md, run from the packed library as a user installs it:
 * - the Cloudflare Worker (the block that starts with `// worker.ts`), bundled by esbuild as
 *   wrangler bundles it, and run under workerd by miniflare (the runtime of `wrangler dev`, with no
 *   `nodejs_compat`), with a D1 database; a real MCP client searches and fetches over HTTP;
 * - the OAuth-protected Worker (the block that starts with `// oauth-worker.ts`), with
 *   @cloudflare/workers-oauth-provider and a KV namespace, the same way; a real MCP client goes
 *   through the whole OAuth flow (401, discovery, registration, consent, PKCE) and searches;
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
import { Client, StreamableHTTPClientTransport, type OAuthClientProvider } from "@modelcontextprotocol/client";
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

/** A Worker of docs/factory.md: the ts block that starts with `// <file>`. */
function workerSource(file = "worker.ts"): string {
  const blocks = scanMarkdown(readDoc("docs/factory.md")).fences.filter((fence) => fence.language === "ts" && fence.body.startsWith(`// ${file}`));
  expect(blocks).toHaveLength(1);
  return blocks[0]!.body;
}

/** Bundles `source` as wrangler does: esbuild, the workerd conditions, ESM out, no Node polyfills, cloudflare:* left to workerd. */
async function bundleWorker(cwd: string, source: string): Promise<string> {
  await writeFile(join(cwd, "worker.ts"), source);
  const bundled = await build({
    entryPoints: [join(cwd, "worker.ts")],
    absWorkingDir: cwd,
    bundle: true,
    format: "esm",
    platform: "neutral",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["module", "main"],
    external: ["cloudflare:*"],
    outfile: join(cwd, "dist", "worker.js"),
    logLevel: "silent",
  });
  expect(bundled.errors).toStrictEqual([]);
  return join(cwd, "dist", "worker.js");
}

describe("the Cloudflare Worker of docs/factory.md, under workerd", () => {
  let mf: Miniflare;
  let endpoint: URL;

  beforeAll(async () => {
    const cwd = await createProject("worker", ["@modelcontextprotocol/server", "zod"]);
    const script = await bundleWorker(cwd, workerSource());
    mf = new Miniflare({
      modules: true,
      scriptPath: script,
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
      // "gamma" reaches the GEX pages through the vocabulary's GLOB clause on D1; robots.txt
      // leaves /export/gex out of search as out of fetch.
      const gamma = await client.callTool({ name: "search", arguments: { query: "gamma" } });
      expect(gamma.structuredContent).toStrictEqual({ results: [{ id: "page:/gex", title: "GEX explained", url: "https://example.com/gex" }] });
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

describe("the OAuth-protected Worker of docs/factory.md, under workerd", () => {
  const SECRET = "correct horse battery staple";
  let mf: Miniflare;

  beforeAll(async () => {
    const cwd = await createProject("oauth-worker", ["@modelcontextprotocol/server", "zod", "@cloudflare/workers-oauth-provider"]);
    // Its entry file exports the provider, as the guide says.
    const script = await bundleWorker(cwd, `${workerSource("oauth-worker.ts")}\nexport default oauthWorker;\n`);
    mf = new Miniflare({
      modules: true,
      scriptPath: script,
      modulesRoot: join(cwd, "dist"),
      compatibilityDate: "2026-04-01",
      kvNamespaces: ["OAUTH_KV"],
      bindings: { OWNER_SECRET: SECRET },
    });
    await mf.ready;
  }, 240_000);

  afterAll(async () => {
    await mf?.dispose();
  });

  /** The Worker reached at its public name, https://notes.example, as a host would reach it. */
  const workerFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const reply = await mf.dispatchFetch(request.url, {
      method: request.method,
      headers: [...request.headers],
      body: request.body === null ? null : await request.text(),
      redirect: "manual",
    });
    return new Response(reply.status === 204 || reply.status === 304 ? null : await reply.arrayBuffer(), { status: reply.status, headers: [...reply.headers] });
  };

  it("refuses a client without a token, then serves one that went through registration, consent and PKCE", async () => {
    const resource = new URL("https://notes.example/mcp");
    const anonymous = await workerFetch(resource, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toMatch(/resource_metadata="https:\/\/notes\.example\/\.well-known\/oauth-protected-resource\/mcp"/);
    const metadata = (await (await workerFetch("https://notes.example/.well-known/oauth-protected-resource/mcp")).json()) as { resource: string };
    expect(metadata.resource).toBe(resource.href);

    let visit: URL | undefined;
    const session: { client?: unknown; tokens?: unknown; verifier?: string; discovery?: unknown } = {};
    const owner: OAuthClientProvider = {
      redirectUrl: "http://127.0.0.1:33418/callback",
      clientMetadata: { client_name: "Notes host", redirect_uris: ["http://127.0.0.1:33418/callback"], grant_types: ["authorization_code"], response_types: ["code"], token_endpoint_auth_method: "none" },
      clientInformation: () => session.client as never,
      saveClientInformation: (client) => void (session.client = client),
      tokens: () => session.tokens as never,
      saveTokens: (tokens) => void (session.tokens = tokens),
      redirectToAuthorization: (url) => void (visit = url),
      saveCodeVerifier: (verifier) => void (session.verifier = verifier),
      codeVerifier: () => session.verifier ?? "",
      saveDiscoveryState: (state) => void (session.discovery = state),
      discoveryState: () => session.discovery as never,
    };
    let transport = new StreamableHTTPClientTransport(resource, { authProvider: owner, fetch: workerFetch });
    await expect(new Client({ name: "host", version: "1.0.0" }).connect(transport)).rejects.toThrow();
    expect(visit?.pathname).toBe("/authorize");

    const page = await workerFetch(visit!);
    expect(page.status).toBe(200);
    const cookie = (page.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const html = await page.text();
    expect(html).toContain("Notes host asks to read your notes; access goes to 127.0.0.1.");
    const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1] ?? "";
    const post = (secret: string) =>
      workerFetch(visit!, { method: "POST", headers: { cookie, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ handle, secret, decision: "allow" }).toString() });
    expect((await post("wrong")).status).toBe(403);
    const allowed = await post(SECRET);
    expect(allowed.status).toBe(302);
    const callback = new URL(allowed.headers.get("location") ?? "");
    expect(`${callback.origin}${callback.pathname}`).toBe("http://127.0.0.1:33418/callback");

    await transport.finishAuth(callback.searchParams);
    transport = new StreamableHTTPClientTransport(resource, { authProvider: owner, fetch: workerFetch });
    const reader = new Client({ name: "host", version: "1.0.0" });
    await reader.connect(transport);
    try {
      const lease = await reader.callTool({ name: "search", arguments: { query: "lease" } });
      expect(lease.structuredContent).toStrictEqual({ results: [{ id: "note:contract", title: "Flat lease, signed", url: "https://notes.example/contract" }] });
    } finally {
      await reader.close();
    }
    // A token the Worker did not issue is refused like none.
    const forged = await workerFetch(resource, { method: "POST", headers: { authorization: "Bearer owner:grant:forged", "content-type": "application/json" }, body: "{}" });
    expect(forged.status).toBe(401);
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
