/**
 * A real Client linked in memory to a folder server (`createFolderServer`): what most CLI tests
 * talk to when the process is not what they test. Not a test file itself.
 */
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { createFolderServer, type FolderServerOptions } from "../src/transports/serve.js";
import type { CallResult } from "./_cli-spawn.js";

/** The connected client, and its two tool calls. */
export interface MemoryConnection {
  readonly client: Client;
  search(query: string): Promise<CallResult>;
  fetch(id: string): Promise<CallResult>;
}

/** Serves `options` and connects a client to it; the client is pushed on `clients`, for the test to close. */
export async function connectInMemory(options: FolderServerOptions, clients: Client[]): Promise<MemoryConnection> {
  const server = createFolderServer(options);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: "test-client", version: "0.0.0" });
  await client.connect(clientTransport);
  clients.push(client);
  return {
    client,
    search: async (query) => (await client.callTool({ name: "search", arguments: { query } })) as CallResult,
    fetch: async (id) => (await client.callTool({ name: "fetch", arguments: { id } })) as CallResult,
  };
}
