/**
 * Shared by the factory's tests: callbacks over a small fixed collection, and a real McpServer
 * with a real Client linked in memory, as a host would connect. Not a test file itself.
 */
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import { afterEach } from "vitest";
import { z } from "zod";
import {
  registerDeepResearchTools,
  type DeepResearchToolsOptions,
  type FetchDocument,
  type SearchResult,
  type UsageKind,
  type UsageShape,
} from "../src/index.js";

// ---------------------------------------------------------------- fixtures

export const DOCS: FetchDocument[] = Array.from({ length: 15 }, (_, i) => ({
  id: `doc:${i}`,
  title: `Documento ${i}`,
  text: `# Documento ${i}\nTexto ${i}.`,
  url: `https://example.com/${i}`,
}));
export const HITS: SearchResult[] = DOCS.map(({ id, title, url }) => ({ id, title, url }));
export const PROVENANCE = { source: "IBGE", retrievedAt: "2026-09-02T12:00:00Z" };

export const baseOptions: DeepResearchToolsOptions = {
  search: (query) => HITS.filter((hit) => query === "*" || hit.title.includes(query)),
  fetch: (id) => DOCS.find((doc) => doc.id === id) ?? null,
  corpus: "IBGE official statistics (SIDRA tables)",
  richTools: "the `ibge_*` tools",
};

/** A closed provenance block declared on both output schemas. */
export const withProvenance = (schema: z.ZodObject) =>
  schema.extend({ provenance: z.object({ source: z.string(), retrievedAt: z.string() }).strict().optional() });

export const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close()));
});

/** A real McpServer and a real Client, linked in memory, as a host would connect. */
export async function connect(options: Partial<DeepResearchToolsOptions> = {}) {
  const server = new McpServer({ name: "test-server", version: "1.0.0" });
  const tools = registerDeepResearchTools(server, { ...baseOptions, ...options });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: "test-client", version: "1.0.0" });
  await client.connect(clientTransport);
  open.push(async () => {
    await client.close();
    await server.close();
  });
  return { client, server, tools };
}

export type Recorded = [UsageKind, string, UsageShape];

export function recorder() {
  const calls: Recorded[] = [];
  return { calls, record: (kind: UsageKind, tool: string, shape: UsageShape) => void calls.push([kind, tool, shape]) };
}

export function textOf(result: { content?: unknown }): string {
  const [block] = result.content as [{ type: string; text: string }];
  return block.text;
}

/** structuredContent minus the given extra keys. */
export function withoutKeys(value: unknown, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value as object).filter(([key]) => !keys.includes(key)));
}

