/**
 * Shared by the load test (test/load.test.ts) and the load benchmark (bench/load.bench.ts):
 * N concurrent `tools/call` on one server, mixed search and fetch, some failing on purpose, each
 * carrying a unique query or id that its answer must echo (no cross-talk). Not a test file.
 */
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import { fileURLToPath } from "node:url";
import { createIndex, registerDeepResearchTools } from "../src/index.js";
import { ECHO_URL, echoCallbacks } from "./fixtures/echo-callbacks.mjs";

interface CallResult {
  isError?: boolean;
  content?: unknown;
  structuredContent?: Record<string, unknown>;
}

/** One planned call and the one answer that is correct for it. */
interface PlannedCall {
  readonly name: "search" | "fetch";
  readonly arguments: Record<string, string>;
  readonly check: (result: CallResult) => boolean;
}

const textOf = (result: CallResult) => (result.content as [{ text: string }] | undefined)?.[0]?.text ?? "";

/** The i-th call of a run: five kinds in turn, two of them failing. Unique by `run` and `i`. */
export function planCall(run: string, i: number): PlannedCall {
  const key = `${run}-${i}`;
  switch (i % 5) {
    case 0:
      return {
        name: "search",
        arguments: { query: `q ${key}` },
        check: (r) => r.isError === undefined && JSON.stringify((r.structuredContent?.["results"] as unknown[])[0]) === JSON.stringify({ id: `echo:q ${key}`, title: `q ${key}`, url: ECHO_URL }),
      };
    case 1:
      return { name: "fetch", arguments: { id: `doc:${key}` }, check: (r) => r.isError === undefined && r.structuredContent?.["id"] === `doc:${key}` && r.structuredContent["text"] === `Texto de doc:${key}` };
    case 2:
      return { name: "search", arguments: { query: `fail:${key}` }, check: (r) => r.isError === true && textOf(r) === `A ferramenta search falhou: search failed for fail:${key}` };
    case 3:
      return { name: "fetch", arguments: { id: `fail:${key}` }, check: (r) => r.isError === true && textOf(r) === `A ferramenta fetch falhou: fetch failed for fail:${key}` };
    default:
      return { name: "fetch", arguments: { id: `missing:${key}` }, check: (r) => r.isError === true && textOf(r).includes(`"missing:${key}"`) };
  }
}

/** Fires `count` calls at once and counts the answers that are exactly right for their own request. */
export async function fireConcurrently(client: Client, run: string, count: number): Promise<{ correct: number; wrong: string[] }> {
  const plans = Array.from({ length: count }, (_, i) => planCall(run, i));
  const results = await Promise.all(
    plans.map((plan) =>
      client.callTool({ name: plan.name, arguments: plan.arguments }, { timeout: 120_000 }).then(
        (result) => (plan.check(result as CallResult) ? null : `${plan.name} ${JSON.stringify(plan.arguments)} => ${JSON.stringify(result).slice(0, 200)}`),
        (error: unknown) => `${plan.name} ${JSON.stringify(plan.arguments)} threw ${String(error)}`,
      ),
    ),
  );
  const wrong = results.filter((outcome): outcome is string => outcome !== null);
  return { correct: count - wrong.length, wrong };
}

/** One McpServer with the echo callbacks and a Client, linked in memory. */
export async function connectInMemory(): Promise<{ client: Client; close: () => Promise<void> }> {
  const server = new McpServer({ name: "load", version: "1.0.0" });
  registerDeepResearchTools(server, { ...echoCallbacks(createIndex), corpus: "an echo of each request" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "load", version: "1.0.0" });
  await client.connect(clientSide);
  return { client, close: async () => (await client.close(), await server.close()) };
}

/** A Client of the echo server spawned over stdio from the built package. */
export async function connectStdio(): Promise<{ client: Client; close: () => Promise<void> }> {
  const server = fileURLToPath(new URL("./fixtures/echo-server.mjs", import.meta.url));
  const root = fileURLToPath(new URL("..", import.meta.url));
  const transport = new StdioClientTransport({ command: process.execPath, args: [server], cwd: root, stderr: "pipe" });
  const client = new Client({ name: "load", version: "1.0.0" });
  await client.connect(transport);
  return { client, close: () => client.close() };
}
