import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import { McpServer } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIndex, registerDeepResearchTools, type IndexEntry, type UsageKind } from "../../src/index.js";

// The same server a remote host (ChatGPT) reaches: Streamable HTTP, stateless, one McpServer and
// one transport per request, the tools searching a real index.
const ENTRIES: IndexEntry[] = [
  { id: "sidra:6579", title: "Tabela 6579 — População residente estimada", url: "https://sidra.ibge.gov.br/tabela/6579", keywords: ["estimativas de população"] },
  { id: "sidra:1612", title: "Tabela 1612 — Produção agrícola municipal", url: "https://sidra.ibge.gov.br/tabela/1612", keywords: ["lavouras temporárias", "soja"] },
  { id: "sidra:5938", title: "Tabela 5938 — Produto interno bruto dos municípios", url: "https://sidra.ibge.gov.br/tabela/5938", keywords: ["PIB municipal"] },
];
const index = createIndex(ENTRIES);
const records: Array<[UsageKind, string]> = [];

function createMcpServer(): McpServer {
  const server = new McpServer({ name: "http-fixture", version: "1.0.0" });
  registerDeepResearchTools(server, {
    search: (query) => index.search(query),
    fetch: (id) => {
      const entry = ENTRIES.find((candidate) => candidate.id === id);
      return entry ? { id, title: entry.title, url: entry.url, text: `# ${entry.title}\n` } : null;
    },
    corpus: "IBGE official statistics (SIDRA tables)",
    richTools: "the `ibge_*` tools",
    locale: "en",
    record: (kind, tool) => void records.push([kind, tool]),
  });
  return server;
}

let http: Server;
let url: URL;

beforeAll(async () => {
  http = createServer((req, res) => {
    const server = createMcpServer();
    const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
});

afterAll(async () => {
  await new Promise<void>((resolve, reject) => http.close((error) => (error ? reject(error) : resolve())));
});

describe("the factory over Streamable HTTP on 127.0.0.1", () => {
  it("lists the tools and answers search and fetch from a real index", async () => {
    const client = new Client({ name: "http-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(url));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => [tool.name, tool.title])).toStrictEqual([
        ["search", "Search documents"],
        ["fetch", "Read a document"],
      ]);
      expect(tools.map((tool) => tool.inputSchema.additionalProperties)).toStrictEqual([false, false]);

      const search = await client.callTool({ name: "search", arguments: { query: "populacao estimada" } });
      const first = { id: "sidra:6579", title: ENTRIES[0]!.title, url: ENTRIES[0]!.url };
      expect(search.structuredContent).toStrictEqual({ results: [first] });
      expect(search.content).toStrictEqual([{ type: "text", text: JSON.stringify({ results: [first] }) }]);

      const fetch = await client.callTool({ name: "fetch", arguments: { id: "sidra:6579" } });
      expect(fetch.structuredContent).toStrictEqual({ ...first, text: `# ${first.title}\n` });

      const none = await client.callTool({ name: "search", arguments: { query: "xyzzy" } });
      expect(none).toStrictEqual({ content: [{ type: "text", text: '{"results":[]}' }], structuredContent: { results: [] } });

      const unknown = await client.callTool({ name: "fetch", arguments: { id: "sidra:0" } });
      expect(unknown).toStrictEqual({
        content: [{ type: "text", text: 'No document has the id "sidra:0". Use an id returned by the search tool.' }],
        isError: true,
      });

      const refused = await client.callTool({ name: "fetch", arguments: { id: "sidra:0", format: "md" } });
      expect(refused.isError).toBe(true);
      expect((refused.content as unknown as [{ text: string }])[0].text).toContain('Unrecognized key in the arguments: "format"');

      expect(records).toStrictEqual([
        ["tool_call", "search"],
        ["tool_call", "fetch"],
        ["tool_call", "search"],
        ["tool_call", "fetch"],
        ["tool_error", "fetch"],
      ]);
    } finally {
      await client.close();
    }
  });
});
