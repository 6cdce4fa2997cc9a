import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createVocabulary } from "@sbissoli/mcp-search";
import { openFolder, type Folder } from "../../src/folder/folder.js";
import { HTTP_LIMITS, type HttpLimits } from "../../src/transports/http-guard.js";
import { serveFolderHttp, type HttpServing } from "../../src/transports/http.js";
import { prepareOAuth } from "../../src/oauth/setup.js";
import { OWNER_SECRET } from "../oauth/_oauth-client.js";
import { serveInProcess } from "../_cli-serve.js";
import { startBin, type SpawnedServer } from "../_cli-spawn.js";
import { postMcp as post, TOOLS_LIST } from "../transports/_http-post.js";

/**
 * `mcp-search serve --http` under the attacks of the third hostile review: pipelined requests,
 * held event streams, sockets that trickle headers ahead of a token holder, DNS rebinding on a
 * wildcard bind, CORS, and clients that stop reading. What the bin does with its own limits runs
 * against the BUILT bin; what needs a limit of seconds shortened runs in process
 * (`serveFolderHttp` with `limits`). Only 127.0.0.1 is ever contacted, and every socket is closed.
 */

const TOKEN = "Test-Token-0123456789abcdef";
let root: string;
const stops: Array<() => Promise<void>> = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "mcp-search-hostile-"));
  await writeFile(join(root, "guide.md"), "# Guide\n\nzebrafish care and feeding\n");
  // 1 MB of control characters: six times larger once escaped in JSON.
  await writeFile(join(root, "controls.md"), `# Controls\n\n${"\u0001".repeat(1024 * 1024 - 20)}\n`);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

/** A raw HTTP/1.1 POST of `body` to /mcp, as bytes, with `headers` added. */
function rawPost(port: number, body: unknown, headers: Record<string, string> = {}): string {
  const text = JSON.stringify(body);
  const lines = Object.entries({
    host: `127.0.0.1:${port}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    ...headers,
    "content-length": String(Buffer.byteLength(text)),
  }).map(([name, value]) => `${name}: ${value}`);
  return `POST /mcp HTTP/1.1\r\n${lines.join("\r\n")}\r\n\r\n${text}`;
}

const LISTEN = {
  jsonrpc: "2.0",
  id: 1,
  method: "subscriptions/listen",
  params: {
    notifications: { resourcesListChanged: true },
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "t", version: "0" },
      "io.modelcontextprotocol/clientCapabilities": {},
    },
  },
};
const LISTEN_HEADERS = { "mcp-protocol-version": "2026-07-28", "mcp-method": "subscriptions/listen" };

/** A raw client connection, its bytes received so far, and the events a test waits on. */
interface RawClient {
  readonly socket: Socket;
  received(): string;
  /** Settles when the socket closes. */
  readonly closed: Promise<void>;
  /** Settles at the first reply's status line, or when the socket closes without one. */
  readonly answered: Promise<void>;
}

/** A socket that sends `bytes` and collects what comes back. */
function open(port: number, bytes = ""): RawClient {
  const socket = connect(port, "127.0.0.1");
  let received = "";
  let answer: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  socket.setEncoding("latin1").on("data", (chunk: string) => {
    received += chunk;
    if (statuses(received).length > 0) answer();
  });
  socket.on("error", () => undefined);
  const closed = new Promise<void>((resolve) => socket.once("close", () => (answer(), resolve())));
  if (bytes !== "") socket.write(bytes);
  stops.push(async () => void socket.destroy());
  return { socket, received: () => received, closed, answered };
}

/** Settles once `count` of `clients` have closed. */
function closedCount(clients: readonly RawClient[], count: number): Promise<void> {
  let left = count;
  return new Promise((resolve) => {
    if (left <= 0) resolve();
    for (const client of clients) void client.closed.then(() => (left -= 1) === 0 && resolve());
  });
}

/** The status lines of every HTTP reply in a byte stream. */
function statuses(received: string): number[] {
  return [...received.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => Number(match[1]));
}


/**
 * Whether `promise` settled within `ms`: a bound on a wait for an event, so a test whose event
 * never comes fails on its assertion rather than on the test timeout.
 */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  return Promise.race([promise.then(() => true), late]).finally(() => clearTimeout(timer));
}

describe("the built bin under hostile clients", () => {
  // One bin per command line, shared by the tests that need it: each spawn costs about half a second.
  let plain: SpawnedServer;
  let guarded: SpawnedServer;
  let wildcard: SpawnedServer;

  beforeAll(async () => {
    const env = { ...process.env, MCP_SEARCH_TOKEN: TOKEN };
    [plain, guarded, wildcard] = await Promise.all([
      startBin(["serve", root, "--locale", "en", "--http", "127.0.0.1:0"]),
      startBin(["serve", root, "--locale", "en", "--http", "127.0.0.1:0", "--allowed-origin", "https://app.example"], { env }),
      startBin(["serve", root, "--locale", "en", "--http", "0.0.0.0:0", "--allowed-host", "mcp.example.com"]),
    ]);
  });

  afterAll(async () => {
    await Promise.all([plain, guarded, wildcard].map((server) => server?.stop()));
  });

  it("answers one request at a time per connection: a pipelined request gets 429 and the connection closes", async () => {
    const port = Number(plain.url.port);
    const read = rawPost(port, { jsonrpc: "2.0", id: 3, method: "resources/read", params: { uri: "mcp-search://doc/controls.md" } });
    const client = open(port, read.repeat(50));
    await client.closed;
    const answered = statuses(client.received());
    expect(answered[0]).toBe(200);
    expect(answered[1]).toBe(429);
    expect(answered.filter((status) => status === 200)).toHaveLength(1);
  });

  it("caps resources/read like fetch: a 1 MB file of control characters is one page of 20,000 characters", async () => {
    const port = Number(plain.url.port);
    const reply = await post(port, { host: `127.0.0.1:${port}` }, { jsonrpc: "2.0", id: 4, method: "resources/read", params: { uri: "mcp-search://doc/controls.md" } });
    const data = /^data: (.*)$/m.exec(reply.body)?.[1] ?? reply.body;
    const text = (JSON.parse(data) as { result: { contents: { text: string }[] } }).result.contents[0]?.text ?? "";
    expect(text.length).toBeLessThan(20_500);
    expect(text).toMatch(/To read the rest, call fetch with the id "doc:controls\.md#2"/);
  });

  it("caps event streams per client, so 32 held streams never lock other clients out", async () => {
    const port = Number(plain.url.port);
    const streams: RawClient[] = [];
    for (let index = 0; index < HTTP_LIMITS.maxConnections; index += 1) {
      const stream = open(port, rawPost(port, LISTEN, LISTEN_HEADERS));
      await stream.answered;
      streams.push(stream);
    }
    const answered = streams.map((stream) => statuses(stream.received())[0]);
    expect(answered.filter((status) => status === 200)).toHaveLength(HTTP_LIMITS.maxStreamsPerClient);
    expect(answered.filter((status) => status === 429)).toHaveLength(HTTP_LIMITS.maxConnections - HTTP_LIMITS.maxStreamsPerClient);
    for (let index = 0; index < 10; index += 1) expect((await post(port, { host: `127.0.0.1:${port}` })).status).toBe(200);
    for (const stream of streams) stream.socket.destroy();
  });

  it("serves every request of a token holder while 32 strangers trickle header bytes", async () => {
    const port = Number(guarded.url.port);
    const strangers = Array.from({ length: HTTP_LIMITS.maxConnections }, () => open(port, "POST /mcp HTTP/1.1\r\nX-Slow: "));
    const trickle = setInterval(() => {
      for (const stranger of strangers) if (!stranger.socket.destroyed) stranger.socket.write("a");
    }, 100);
    try {
      // Room for a client is made by closing the oldest strangers beyond their share of the
      // slots: once that many are closed, the bin (a child: no fake clock) holds all the others.
      expect(await within(closedCount(strangers, HTTP_LIMITS.reservedConnections), 5_000)).toBe(true);
      const replies: number[] = [];
      for (let index = 0; index < 20; index += 1) {
        replies.push(await post(port, { host: `127.0.0.1:${port}`, authorization: `Bearer ${TOKEN}` }).then((reply) => reply.status, () => 0));
      }
      expect(replies).toStrictEqual(Array.from({ length: 20 }, () => 200));
    } finally {
      clearInterval(trickle);
      for (const stranger of strangers) stranger.socket.destroy();
    }
  });

  it("checks Host and Origin on a wildcard bind, and honours --allowed-host there", async () => {
    const port = Number(wildcard.url.port);
    expect((await post(port, { host: "attacker.example", origin: "http://attacker.example" })).status).toBe(403);
    expect((await post(port, { host: "attacker.example" })).status).toBe(403);
    expect((await post(port, { host: "other.example.com" })).status).toBe(403);
    expect((await post(port, { host: `127.0.0.1:${port}`, origin: "http://attacker.example" })).status).toBe(403);
    expect((await post(port, { host: `localhost:${port}` })).status).toBe(200);
    expect((await post(port, { host: `192.0.2.7:${port}` })).status).toBe(200); // an IP cannot be a rebound name
    expect((await post(port, { host: "mcp.example.com" })).status).toBe(200);
    expect((await post(port, { host: "mcp.example.com", origin: "https://chatgpt.com" })).status).toBe(200);
  });

  it("compares the token with its case", async () => {
    const port = Number(guarded.url.port);
    const host = `127.0.0.1:${port}`;
    expect((await post(port, { host, authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    expect((await post(port, { host, authorization: `Bearer ${TOKEN.toLowerCase()}` })).status).toBe(401);
    expect((await post(port, { host, authorization: `Bearer ${TOKEN.toUpperCase()}` })).status).toBe(401);
  });

  it("answers a CORS preflight for an --allowed-origin, before the token, and refuses other origins", async () => {
    const port = Number(guarded.url.port);
    const host = `127.0.0.1:${port}`;
    const preflight = await post(port, { host, origin: "https://app.example", "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type, mcp-protocol-version" }, undefined, "OPTIONS");
    expect(preflight.status).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe("https://app.example");
    expect(String(preflight.headers["access-control-allow-headers"])).toMatch(/authorization/);
    expect(String(preflight.headers["access-control-allow-methods"])).toMatch(/POST/);
    const call = await post(port, { host, origin: "https://app.example", authorization: `Bearer ${TOKEN}` });
    expect([call.status, call.headers["access-control-allow-origin"]]).toStrictEqual([200, "https://app.example"]);
    const foreign = await post(port, { host, origin: "https://evil.example", "access-control-request-method": "POST" }, undefined, "OPTIONS");
    expect([foreign.status, foreign.headers["access-control-allow-origin"]]).toStrictEqual([403, undefined]);
  });
});

describe("the request guard's boundaries", () => {
  it.each([["[::]:0"], ["0:0"]])("checks Host and Origin on the wildcard bind %s too (the bin's command line, in process)", async (listen) => {
    const server = await serveInProcess([root, "--locale", "en", "--http", listen]);
    stops.push(() => server.stop());
    const port = Number(server.url.port);
    expect((await post(port, { host: "attacker.example", origin: "http://attacker.example" })).status).toBe(403);
    expect((await post(port, { host: `localhost:${port}` })).status).toBe(200);
  });

  // isLoopbackAddress itself, address by address: ./http-guard.test.ts.
});

describe("timed limits, in process with shortened limits", () => {
  let folder: Folder;

  beforeAll(async () => {
    const vocabulary = createVocabulary({ locale: "en", sourceName: "t", entries: [] });
    folder = await openFolder({ root, vocabulary, watch: false, maxFileBytes: 16 * 1024 * 1024 });
    await writeFile(join(root, "huge.md"), `# Huge\n\n${"zebrafish water ".repeat(512 * 1024)}\n`); // 8 MB
    await folder.refresh();
  });

  afterAll(() => {
    folder.close();
  });

  async function serve(limits: Partial<HttpLimits>, maxChars = 20_000, oauth?: Parameters<typeof serveFolderHttp>[1]["oauth"]): Promise<{ serving: HttpServing; port: number }> {
    const vocabulary = createVocabulary({ locale: "en", sourceName: "t", entries: [] });
    const serving = await serveFolderHttp({ name: "t", version: "0", folder, vocabulary, maxChars }, { host: "127.0.0.1", port: 0, limits, oauth }, () => undefined);
    stops.push(() => serving.close());
    return { serving, port: Number(new URL(serving.url).port) };
  }

  it("closes a connection that sends no request that passes the checks within firstRequestTimeoutMs", async () => {
    const { port } = await serve({ firstRequestTimeoutMs: 300, headersTimeoutMs: 20_000 });
    const silent = open(port);
    const trickling = open(port, "POST /mcp HTTP/1.1\r\nX-Slow: ");
    const trickle = setInterval(() => trickling.socket.write("a"), 50);
    const started = performance.now();
    await Promise.all([silent.closed, trickling.closed]);
    clearInterval(trickle);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("leaves a connection whose requests passed no token to the keep-alive timeout, so its next request meets no reset", async () => {
    // An OAuth client's requests to the authorization server carry no token, on a kept-alive connection.
    const oauth = await prepareOAuth({ environment: { MCP_SEARCH_OWNER_SECRET: OWNER_SECRET }, locale: "en", folders: ["t"], trustForwardedFor: false, log: () => undefined });
    const { port } = await serve({ firstRequestTimeoutMs: 300, keepAliveTimeoutMs: 20_000 }, 20_000, oauth);
    const metadata = `GET /.well-known/oauth-authorization-server HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n\r\n`;
    const client = open(port, metadata);
    await client.answered;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(client.socket.destroyed).toBe(false);
    const second = new Promise<void>((resolve) => client.socket.on("data", () => statuses(client.received()).length === 2 && resolve()));
    client.socket.write(metadata);
    await within(second, 2_000);
    expect(statuses(client.received())).toStrictEqual([200, 200]);
  });

  it("keeps idle strangers to maxConnections - reservedConnections slots, closing the oldest first", async () => {
    const { serving, port } = await serve({ maxConnections: 6, reservedConnections: 2, firstRequestTimeoutMs: 20_000 });
    const strangers: RawClient[] = [];
    for (let index = 0; index < 6; index += 1) {
      // Each one accepted before the next connects, so the server sees them in this order.
      const accepted = new Promise((resolve) => serving.server.once("connection", resolve));
      strangers.push(open(port));
      await accepted;
    }
    await within(Promise.all([strangers[0]?.closed, strangers[1]?.closed]), 2_000);
    expect(strangers.map((stranger) => stranger.socket.destroyed)).toStrictEqual([true, true, false, false, false, false]);
  });

  it("beyond maxConnections, closes the oldest idle client connection for a new one", async () => {
    const { port } = await serve({ maxConnections: 4, reservedConnections: 1, keepAliveTimeoutMs: 20_000 });
    const clients: RawClient[] = [];
    for (let index = 0; index < 4; index += 1) {
      const client = open(port, rawPost(port, TOOLS_LIST));
      await client.answered; // answered, kept alive
      clients.push(client);
    }
    const late = open(port, rawPost(port, TOOLS_LIST));
    await late.answered;
    await within(clients[0]?.closed ?? Promise.resolve(), 2_000);
    expect(statuses(late.received())).toStrictEqual([200]);
    expect(clients.map((client) => client.socket.destroyed)).toStrictEqual([true, false, false, false]);
  });

  it("closes an event stream after streamLifetimeMs", async () => {
    const { port } = await serve({ streamLifetimeMs: 300 });
    const stream = open(port, rawPost(port, LISTEN, LISTEN_HEADERS));
    const started = performance.now();
    await stream.closed;
    expect(statuses(stream.received())).toStrictEqual([200]);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("refuses new requests with 503 while a reader that stopped reading holds the last slot, and closes it after socketIdleTimeoutMs", async () => {
    const { serving, port } = await serve({ maxInFlight: 1, socketIdleTimeoutMs: 600 }, 64 * 1024 * 1024);
    // A paused client socket sees no reset: the server's side of the connection tells when it closes.
    const serverSide = new Promise<Socket>((resolve) => serving.server.once("connection", resolve));
    const stalled = open(port);
    stalled.socket.pause(); // never reads the 8 MB reply
    stalled.socket.write(rawPost(port, { jsonrpc: "2.0", id: 5, method: "resources/read", params: { uri: "mcp-search://doc/huge.md" } }));
    const closed = new Promise<void>((resolve) => void serverSide.then((socket) => socket.once("close", () => resolve())));
    // Its request is admitted (the slot taken) by the server's own listener, which runs before this one.
    await new Promise((resolve) => serving.server.once("request", resolve));
    const busy = await post(port, { host: `127.0.0.1:${port}` });
    expect([busy.status, busy.headers["retry-after"]]).toStrictEqual([503, "1"]);
    const started = performance.now();
    await closed;
    // The sweep's period is a quarter of the limit: closed between 600 and 900 ms after it stalled.
    expect(performance.now() - started).toBeLessThan(1_200);
    expect((await post(port, { host: `127.0.0.1:${port}` })).status).toBe(200);
  });
});
