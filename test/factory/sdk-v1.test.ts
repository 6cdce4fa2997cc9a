/**
 * The factory on the first SDK generation: a real `McpServer` from `@modelcontextprotocol/sdk`
 * v1 and the v1 `Client`, linked in memory, as a v1 host would connect. This file also
 * type-checks the factory's `server` parameter against the v1 class (`npm run check:static`).
 * The 1.22.0 release is installed under the alias `mcp-sdk-1.22`, to show it is refused.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  McpSearchError,
  createIndex,
  registerDeepResearchTools,
  type DeepResearchTools,
  type DeepResearchToolsOptions,
  type McpServerLike,
} from "../../src/index.js";
import { baseOptions } from "../_register-helpers.js";

// Held in a variable so the typecheck does not compare the 1.22 types (zod 3) with ours.
const SDK_1_22 = "mcp-sdk-1.22/server/mcp.js";

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close()));
});

/** Connects the v1 Client to a v1 McpServer in memory. */
async function connect(server: McpServer): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: "v1-client", version: "1.0.0" });
  await client.connect(clientTransport);
  open.push(async () => {
    await client.close();
    await server.close();
  });
  return client;
}

async function connectWith(options: Partial<DeepResearchToolsOptions> = {}) {
  const server = new McpServer({ name: "v1-server", version: "1.0.0" });
  const tools = registerDeepResearchTools(server, { ...baseOptions, locale: "en", ...options });
  return { client: await connect(server), tools };
}

describe("registerDeepResearchTools on @modelcontextprotocol/sdk v1", () => {
  it("publishes both tools with the contract's closed schemas in tools/list", async () => {
    const { client } = await connectWith();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toStrictEqual(["search", "fetch"]);
    const [search, fetch] = tools;
    expect(search?.inputSchema).toMatchObject({ type: "object", properties: { query: { type: "string" } }, required: ["query"], additionalProperties: false });
    expect(fetch?.inputSchema).toMatchObject({ type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false });
    expect(Object.keys(search?.outputSchema?.properties ?? {})).toStrictEqual(["results"]);
    expect(Object.keys(fetch?.outputSchema?.properties ?? {}).sort()).toStrictEqual(["id", "metadata", "text", "title", "url"]);
    expect(search?.title).toBe("Search documents");
  });

  it("answers search with the contract object in structuredContent and the only text block", async () => {
    const { client } = await connectWith({ limit: 2 });
    const result = await client.callTool({ name: "search", arguments: { query: "Documento 1" } });
    const expected = {
      results: [
        { id: "doc:1", title: "Documento 1", url: "https://example.com/1" },
        { id: "doc:10", title: "Documento 10", url: "https://example.com/10" },
      ],
    };
    expect(result.structuredContent).toStrictEqual(expected);
    expect(result.content).toStrictEqual([{ type: "text", text: JSON.stringify(expected) }]);
    expect(result.isError).toBeUndefined();
  });

  it("answers fetch with the whole document", async () => {
    const { client } = await connectWith();
    const result = await client.callTool({ name: "fetch", arguments: { id: "doc:3" } });
    const document = { id: "doc:3", title: "Documento 3", text: "# Documento 3\nTexto 3.", url: "https://example.com/3" };
    expect(result.structuredContent).toStrictEqual(document);
    expect(result.content).toStrictEqual([{ type: "text", text: JSON.stringify(document) }]);
  });

  it("answers an unknown id with an isError result naming it", async () => {
    const { client } = await connectWith();
    const result = await client.callTool({ name: "fetch", arguments: { id: "doc:missing" } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect((result.content as Array<{ text: string }>)[0]?.text).toContain('"doc:missing"');
  });

  it("refuses a key outside the contract, naming it", async () => {
    const { client } = await connectWith();
    const result = await client.callTool({ name: "search", arguments: { query: "x", limit: 5 } });
    expect(result.isError).toBe(true);
    expect((result.content as Array<{ text: string }>)[0]?.text).toMatch(/Input validation error[\s\S]*limit/);
  });

  it("returns the v1 RegisteredTool, so disabling a tool hides it from tools/list", async () => {
    const { client, tools } = await connectWith();
    const typed: DeepResearchTools<ReturnType<McpServer["registerTool"]>> = tools;
    typed.fetch.disable();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toStrictEqual(["search"]);
  });

  it("accepts the v1 McpServer where an McpServerLike is expected", () => {
    const server: McpServerLike = new McpServer({ name: "typed", version: "1.0.0" });
    expect(typeof server.registerTool).toBe("function");
  });

  it("runs the README's quick start with v1 imports", async () => {
    // The README's quick start, with `McpServer` from "@modelcontextprotocol/sdk/server/mcp.js".
    const pages = [
      { id: "page:/soja", title: "Produção de soja no Paraná", url: "https://example.org/soja", text: "A safra de soja…" },
      { id: "page:/milho", title: "Produção de milho", url: "https://example.org/milho", text: "A safra de milho…" },
    ];
    const index = createIndex(pages);

    const server = new McpServer({ name: "example-docs", version: "1.0.0" });
    registerDeepResearchTools(server, {
      search: (query) => index.search(query),
      fetch: (id) => pages.find((page) => page.id === id) ?? null,
      resolveId: index.resolve, // also accepts the citation URL, the bare path, the id without "page:"
      corpus: "agricultural production pages of example.org",
    });

    const client = await connect(server);
    const found = await client.callTool({ name: "search", arguments: { query: "soja" } });
    expect(found.structuredContent).toStrictEqual({ results: [{ id: "page:/soja", title: "Produção de soja no Paraná", url: "https://example.org/soja" }] });
    const read = await client.callTool({ name: "fetch", arguments: { id: "https://example.org/soja" } });
    expect(read.structuredContent).toStrictEqual(pages[0]);
  });
});

describe("registerDeepResearchTools on @modelcontextprotocol/sdk 1.22", () => {
  it("would publish an input schema without type or properties if it took the contract's zod 4 schema", async () => {
    // Read as raw JSON-RPC: every v1 Client, 1.22's included, refuses such a list outright.
    const { McpServer: OldServer } = (await import(SDK_1_22)) as { McpServer: new (info: object) => McpServer };
    const server = new OldServer({ name: "old", version: "1.0.0" });
    (server.registerTool as (...args: unknown[]) => unknown)("probe", { inputSchema: z.strictObject({ query: z.string() }) }, () => ({ content: [] }));
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    open.push(() => server.close());
    const reply = new Promise<unknown>((resolve) => (clientTransport.onmessage = resolve));
    await clientTransport.send({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    const { result } = (await reply) as { result: { tools: Array<{ name: string; inputSchema: Record<string, unknown> }> } };
    expect(result.tools[0]?.name).toBe("probe");
    expect(result.tools[0]?.inputSchema["type"]).toBeUndefined();
    expect(result.tools[0]?.inputSchema["properties"]).toBeUndefined();
  });

  it("throws McpSearchError naming the versions needed, and registers nothing", async () => {
    const { McpServer: OldServer } = (await import(SDK_1_22)) as { McpServer: new (info: object) => McpServer };
    const server = new OldServer({ name: "old", version: "1.0.0" });
    const register = () => registerDeepResearchTools(server, baseOptions);
    expect(register).toThrow(McpSearchError);
    expect(register).toThrow("upgrade to @modelcontextprotocol/server ^2.4 or @modelcontextprotocol/sdk ^1.23.");
    expect(Object.keys((server as unknown as { _registeredTools: object })._registeredTools)).toStrictEqual([]);
  });
});
