import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createVocabulary } from "@sbissoli/mcp-search";
import { openFolder, type Folder } from "../../src/folder/folder.js";
import { serveFolderHttp } from "../../src/transports/http.js";
import { startBin, type SpawnedServer } from "../_cli-spawn.js";
import { TOOLS_LIST } from "./_http-post.js";

/**
 * Issue 41, finding 6: past 16 requests in flight, every refused client gets its 503 with
 * `Retry-After`, never a TCP reset. With 20 concurrent clients, 12 % once got ECONNRESET: a burst
 * of new connections went over the connection cap, and the server cut the connections it evicted
 * (idle ones a client was about to reuse, and new ones whose request had not been read yet).
 * The clients here are `fetch` (undici, which keeps connections alive and opens new ones in a
 * burst, as the review's clients did) and raw sockets where a test must hold a request in flight.
 */

let root: string;
const stops: Array<() => Promise<void>> = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "mcp-search-refusals-"));
  await writeFile(join(root, "guide.md"), "# Guide\n\nzebrafish care and feeding\n");
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

const SEARCH = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search", arguments: { query: "zebrafish" } } });
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };

/** What one client got: its status and `Retry-After`, or the code of the error that stopped it. */
type Outcome = { readonly status: number; readonly retryAfter: string | null } | { readonly error: string };

/** One POST by `fetch`; an error (a reset) is an outcome, not a failure of the test. */
async function fetchOnce(url: URL): Promise<Outcome> {
  try {
    const reply = await fetch(url, { method: "POST", headers: HEADERS, body: SEARCH });
    await reply.text();
    return { status: reply.status, retryAfter: reply.headers.get("retry-after") };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return { error: cause?.code ?? String(error) };
  }
}

/** Whether an outcome is an answer (200) or a refusal a client can act on (503, retry in 1 s). */
function answeredOrRetry(outcome: Outcome): boolean {
  return "status" in outcome && (outcome.status === 200 || (outcome.status === 503 && outcome.retryAfter === "1"));
}

/** A raw connection that collects what comes back, and settles `closed` when it closes. */
function open(port: number): { socket: Socket; received: () => string; closed: Promise<void>; waitFor: (text: string) => Promise<void> } {
  const socket = connect(port, "127.0.0.1");
  let received = "";
  const waiters: Array<{ text: string; resolve: () => void }> = [];
  socket.setEncoding("latin1").on("data", (chunk: string) => {
    received += chunk;
    for (const waiter of waiters.filter((each) => received.includes(each.text))) waiter.resolve();
  });
  socket.on("error", () => undefined);
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  stops.push(async () => void socket.destroy());
  return {
    socket,
    received: () => received,
    closed,
    waitFor: (text) => new Promise<void>((resolve) => (received.includes(text) ? resolve() : waiters.push({ text, resolve }))),
  };
}

/** The head of a POST to /mcp whose body of `length` bytes follows later. */
function head(port: number, length: number, extra: Record<string, string> = {}): string {
  const lines = Object.entries({ host: `127.0.0.1:${port}`, ...HEADERS, ...extra, "content-length": String(length) }).map(([name, value]) => `${name}: ${value}`);
  return `POST /mcp HTTP/1.1\r\n${lines.join("\r\n")}\r\n\r\n`;
}

/** The end of a whole reply: the SDK answers as an event stream, in chunks. */
const REPLY_END = "\r\n0\r\n\r\n";

/** The status lines of every HTTP reply in a byte stream (100 Continue included). */
function statuses(received: string): number[] {
  return [...received.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => Number(match[1]));
}

describe("the built bin past 16 requests in flight", () => {
  let server: SpawnedServer;

  beforeAll(async () => {
    server = await startBin(["serve", root, "--locale", "en", "--http", "127.0.0.1:0"]);
  });

  afterAll(async () => {
    await server.stop();
  });

  it("with 16 requests held in flight, gives each of 20 more concurrent clients its 503, then answers the 16", async () => {
    const port = Number(server.url.port);
    const body = Buffer.byteLength(JSON.stringify(TOOLS_LIST));
    // Each held request has passed the checks and been admitted when its 100 Continue comes back:
    // Node writes it just before it hands the request to the server's handler, in the same turn.
    const held = Array.from({ length: 16 }, () => open(port));
    for (const client of held) client.socket.write(head(port, body, { expect: "100-continue" }));
    await Promise.all(held.map((client) => client.waitFor("100 Continue")));
    const refused = await Promise.all(Array.from({ length: 20 }, () => fetchOnce(server.url)));
    expect(refused).toStrictEqual(Array.from({ length: 20 }, () => ({ status: 503, retryAfter: "1" })));
    for (const client of held) client.socket.write(JSON.stringify(TOOLS_LIST));
    await Promise.all(held.map((client) => client.waitFor(REPLY_END)));
    expect(held.map((client) => statuses(client.received()))).toStrictEqual(Array.from({ length: 16 }, () => [100, 200]));
  });

  it("answers 20 concurrent clients, ten times over, each with its reply or a 503 with Retry-After: never a reset", async () => {
    const outcomes: Outcome[] = [];
    for (let round = 0; round < 10; round += 1) {
      outcomes.push(...(await Promise.all(Array.from({ length: 20 }, () => fetchOnce(server.url)))));
    }
    expect(outcomes.filter((outcome) => !answeredOrRetry(outcome))).toStrictEqual([]);
    expect(outcomes.some((outcome) => "status" in outcome && outcome.status === 200)).toBe(true);
  });
});

describe("connections over the cap, in process with a cap of 4", () => {
  let folder: Folder;

  beforeAll(async () => {
    const vocabulary = createVocabulary({ locale: "en", sourceName: "t", entries: [] });
    folder = await openFolder({ root, vocabulary, watch: false });
    await folder.refresh();
  });

  afterAll(() => {
    folder.close();
  });

  async function serve(): Promise<{ port: number; accepted: () => Promise<unknown> }> {
    const vocabulary = createVocabulary({ locale: "en", sourceName: "t", entries: [] });
    const limits = { maxConnections: 4, reservedConnections: 1, keepAliveTimeoutMs: 20_000, firstRequestTimeoutMs: 20_000 };
    const serving = await serveFolderHttp({ name: "t", version: "0", folder, vocabulary }, { host: "127.0.0.1", port: 0, limits }, () => undefined);
    stops.push(() => serving.close());
    return { port: Number(new URL(serving.url).port), accepted: () => new Promise((resolve) => serving.server.once("connection", resolve)) };
  }

  const request = (port: number) => head(port, Buffer.byteLength(JSON.stringify(TOOLS_LIST))) + JSON.stringify(TOOLS_LIST);

  it("answers 503 a request already sent on the idle connection a new one retires, rather than cutting it", async () => {
    const { port, accepted } = await serve();
    const clients = [];
    for (let index = 0; index < 4; index += 1) {
      const client = open(port);
      client.socket.write(request(port));
      await client.waitFor(REPLY_END); // answered, kept alive
      clients.push(client);
    }
    const arrived = accepted();
    const late = open(port);
    await arrived; // the fifth connection retired the oldest idle one, clients[0]
    clients[0]?.socket.write(request(port)); // a request the client had already sent
    await clients[0]?.closed;
    late.socket.write(request(port));
    await late.waitFor(REPLY_END);
    expect(statuses(clients[0]?.received() ?? "")).toStrictEqual([200, 503]);
    expect(clients[0]?.received()).toMatch(/retry-after: 1\r\n/i);
    expect(statuses(late.received())).toStrictEqual([200]);
  });

  it("answers 503 a new connection when every connection has a request in flight, rather than cutting it", async () => {
    const { port } = await serve();
    const body = Buffer.byteLength(JSON.stringify(TOOLS_LIST));
    const busy = Array.from({ length: 4 }, () => open(port));
    for (const client of busy) client.socket.write(head(port, body, { expect: "100-continue" }));
    await Promise.all(busy.map((client) => client.waitFor("100 Continue")));
    const late = open(port);
    late.socket.write(request(port));
    await late.closed;
    expect(statuses(late.received())).toStrictEqual([503]);
    for (const client of busy) client.socket.write(JSON.stringify(TOOLS_LIST));
    await Promise.all(busy.map((client) => client.waitFor(REPLY_END)));
    expect(busy.map((client) => statuses(client.received()))).toStrictEqual(Array.from({ length: 4 }, () => [100, 200]));
  });
});
