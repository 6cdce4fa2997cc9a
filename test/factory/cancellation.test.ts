/**
 * The signal every callback receives as `{ signal }`: it aborts on the library's time limit and
 * on the client's `notifications/cancelled`, through a real Client and a real McpServer of both
 * SDK generations, linked in memory. One-argument callbacks keep working.
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import { McpServer } from "@modelcontextprotocol/server";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as InMemoryV1 } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer as McpServerV1 } from "@modelcontextprotocol/sdk/server/mcp.js";
import { describe, expect, it } from "vitest";
import { registerDeepResearchTools, type CallbackContext } from "../../src/index.js";
import { DOCS, HITS, baseOptions, connect, open, textOf } from "../_register-helpers.js";

/** A callback that never answers until its signal aborts; `aborted` resolves with the signal's reason. */
function waitForAbort() {
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  let seen!: (reason: unknown) => void;
  const aborted = new Promise<unknown>((resolve) => (seen = resolve));
  const callback = (_input: string, { signal }: CallbackContext): Promise<never> =>
    new Promise((_resolve, reject) => {
      started();
      signal.addEventListener("abort", () => {
        seen(signal.reason);
        reject(signal.reason as Error);
      });
    });
  return { callback, running, aborted };
}

describe("registerDeepResearchTools: the callbacks' signal", () => {
  it("aborts search's signal with a TimeoutError when timeoutMs passes, and still answers the timeout", async () => {
    const { callback, aborted } = waitForAbort();
    const { client } = await connect({ search: callback, timeoutMs: 50 });
    const result = await client.callTool({ name: "search", arguments: { query: "x" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("50 ms");
    const reason = (await aborted) as DOMException;
    expect(reason.name).toBe("TimeoutError");
    expect(reason.message).toBe("The call took longer than 50 ms.");
  });

  it("gives resolveId and fetch the same signal, and aborts it on the time limit of both together", async () => {
    const signals: AbortSignal[] = [];
    const { callback, aborted } = waitForAbort();
    const { client } = await connect({
      resolveId: (raw, { signal }) => {
        signals.push(signal);
        return raw;
      },
      fetch: (id, call) => {
        signals.push(call.signal);
        return callback(id, call);
      },
      timeoutMs: 50,
    });
    const result = await client.callTool({ name: "fetch", arguments: { id: "doc:1" } });
    expect(result.isError).toBe(true);
    await aborted;
    expect(signals).toHaveLength(2);
    expect(signals[0]).toBe(signals[1]);
    expect(signals[0]?.aborted).toBe(true);
  });

  it("aborts the running callback's signal when the client cancels the request (v2 SDK)", async () => {
    const { callback, running, aborted } = waitForAbort();
    const { client } = await connect({ search: callback });
    const controller = new AbortController();
    const call = client.callTool({ name: "search", arguments: { query: "x" } }, { signal: controller.signal });
    await running;
    controller.abort(new Error("the user closed the chat"));
    await expect(call).rejects.toThrow();
    // The reason the SDK gives its own signal comes through: the client's cancellation.
    expect(await aborted).toBeDefined();
  });

  it("aborts the running callback's signal when the client cancels the request (v1 SDK)", async () => {
    const { callback, running, aborted } = waitForAbort();
    const server = new McpServerV1({ name: "v1", version: "1.0.0" });
    registerDeepResearchTools(server, { ...baseOptions, fetch: callback });
    const [clientTransport, serverTransport] = InMemoryV1.createLinkedPair();
    await server.connect(serverTransport);
    const client = new ClientV1({ name: "v1-client", version: "1.0.0" });
    await client.connect(clientTransport);
    open.push(async () => {
      await client.close();
      await server.close();
    });
    const controller = new AbortController();
    const call = client.callTool({ name: "fetch", arguments: { id: "doc:1" } }, undefined, { signal: controller.signal });
    await running;
    controller.abort();
    await expect(call).rejects.toThrow();
    expect(await aborted).toBeDefined();
  });

  it("aborts it when a client cancels over Streamable HTTP with a session", async () => {
    // A session keeps one server for the client, so its notifications/cancelled reaches the
    // server running the call. (Stateless, each message meets a fresh server: there only the
    // time limit aborts, as docs/factory.md says.)
    const { callback, running, aborted } = waitForAbort();
    const server = new McpServer({ name: "sessions", version: "1.0.0" });
    registerDeepResearchTools(server, { ...baseOptions, search: callback });
    const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
    await server.connect(transport);
    const http = createServer((req, res) => void transport.handleRequest(req, res));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const client = new Client({ name: "host", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`)));
    open.push(async () => {
      await client.close();
      await server.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    });
    const controller = new AbortController();
    const call = client.callTool({ name: "search", arguments: { query: "x" } }, { signal: controller.signal });
    await running;
    controller.abort();
    await expect(call).rejects.toThrow();
    expect(await aborted).toBeDefined();
  });

  it("leaves the signal unaborted after a call that answered in time", async () => {
    const signals: AbortSignal[] = [];
    const { client } = await connect({
      search: (_query, { signal }) => {
        signals.push(signal);
        return HITS.slice(0, 1);
      },
    });
    const result = await client.callTool({ name: "search", arguments: { query: "x" } });
    expect(result.isError).toBeUndefined();
    expect(signals.map((signal) => signal.aborted)).toStrictEqual([false]);
  });

  it("keeps one-argument callbacks working", async () => {
    const search = (query: string) => HITS.filter((hit) => hit.title.endsWith(query));
    const fetch = (id: string) => DOCS.find((doc) => doc.id === id) ?? null;
    expect([search.length, fetch.length]).toStrictEqual([1, 1]);
    const { client } = await connect({ search, fetch });
    const found = await client.callTool({ name: "search", arguments: { query: "Documento 3" } });
    expect((found.structuredContent as { results: unknown[] }).results).toStrictEqual([HITS[3]]);
    const read = await client.callTool({ name: "fetch", arguments: { id: "doc:3" } });
    expect(read.structuredContent).toStrictEqual(DOCS[3]);
  });
});
