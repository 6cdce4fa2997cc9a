import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createVocabulary } from "@sbissoli/mcp-search";
import { openFolder, type Folder } from "../../src/folder/folder.js";
import { HTTP_LIMITS } from "../../src/transports/http-guard.js";
import { serveFolderHttp, type HttpServing } from "../../src/transports/http.js";
import { serveInProcess } from "../_cli-serve.js";
import { call, connectHttp, startBin } from "../_cli-spawn.js";
import { postMcp as post } from "./_http-post.js";

/**
 * `mcp-search serve --http` fit to expose: loopback decided by the bound address, Host and Origin
 * behind a public name, the bearer token, and bounded resources. The README's command line and
 * the token from the environment go through the BUILT bin; the other cases start the same
 * command line in process (./_cli-serve.ts), and the timeouts are checked in process with
 * shortened limits, since Node's real ones are seconds long.
 */

let root: string;
const servers: Array<{ stop(): Promise<void> }> = [];
const TOKEN = "test-token-0123456789abcdef";

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "mcp-search-http-"));
  await writeFile(join(root, "guide.md"), "# Guide\n\nzebrafish care and feeding\n");
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

/** `serve <root> --locale en …args` in this process, with `env` as its environment. */
async function serve(args: readonly string[], env: Record<string, string> = {}): Promise<{ url: URL; stderr(): string }> {
  const server = await serveInProcess([root, "--locale", "en", ...args], env);
  servers.push(server);
  return server;
}

/** The same through the built bin, with `env` added to this process's environment. */
async function serveBin(args: readonly string[], env: Record<string, string> = {}): Promise<{ url: URL; stderr(): string }> {
  const server = await startBin(["serve", root, "--locale", "en", ...args], { env: { ...process.env, ...env } });
  servers.push(server);
  return server;
}


describe("loopback is decided by the bound address", () => {
  it.each([["127.1"], ["LOCALHOST"]])("--http %s:0 refuses evil Host and Origin, and does not warn", async (host) => {
    const server = await serve(["--http", `${host}:0`]);
    const port = server.url.port;
    expect((await post(port, { host: `127.0.0.1:${port}` })).status).toBe(200);
    expect((await post(port, { host: "evil.example" })).status).toBe(403);
    expect((await post(port, { host: `127.0.0.1:${port}`, origin: "http://evil.example" })).status).toBe(403);
    expect(server.stderr()).not.toMatch(/reachable from other machines/);
  });

  it("--http 127.0.0.2:0 accepts its own address in Host", async () => {
    const server = await serve(["--http", "127.0.0.2:0"]);
    const port = server.url.port;
    const reply = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: "127.0.0.2", port: Number(port), path: "/mcp", method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }));
    });
    expect(reply).toBe(200);
  });
});

describe("behind a public name", () => {
  it("accepts ChatGPT's and Claude's Origin with the README's command line, and still refuses evil hosts and origins", async () => {
    // README: mcp-search serve ./docs --http 8787 --base-url https://docs.example.com/ --allowed-host mcp.example.com
    const server = await serveBin(["--http", "0", "--base-url", "https://docs.example.com/", "--allowed-host", "mcp.example.com"]);
    const port = server.url.port;
    for (const origin of ["https://chatgpt.com", "https://claude.ai", "https://claude.com"]) {
      expect((await post(port, { host: "mcp.example.com", origin })).status, origin).toBe(200);
    }
    expect((await post(port, { host: "mcp.example.com" })).status).toBe(200);
    expect((await post(port, { host: "evil.example", origin: "https://chatgpt.com" })).status).toBe(403);
    expect((await post(port, { host: "mcp.example.com", origin: "https://evil.example" })).status).toBe(403);
    expect((await post(port, { host: "mcp.example.com", origin: "https://app.example" })).status).toBe(403);
  });

  it("accepts an --allowed-origin", async () => {
    const server = await serve(["--http", "0", "--allowed-origin", "https://app.example"]);
    const port = server.url.port;
    expect((await post(port, { host: `127.0.0.1:${port}`, origin: "https://app.example" })).status).toBe(200);
    expect((await post(port, { host: `127.0.0.1:${port}`, origin: "https://chatgpt.com" })).status).toBe(403);
  });
});

describe("the bearer token", () => {
  it("needs Authorization: Bearer on every request when MCP_SEARCH_TOKEN is set, and serves a client that sends it", async () => {
    const server = await serveBin(["--http", "0"], { MCP_SEARCH_TOKEN: TOKEN });
    const port = server.url.port;
    const host = `127.0.0.1:${port}`;
    const missing = await post(port, { host });
    expect(missing.status).toBe(401);
    expect(missing.headers["www-authenticate"]).toMatch(/^Bearer realm="mcp-search"/);
    expect((await post(port, { host, authorization: "Bearer wrong-token-0123456789" })).status).toBe(401);
    expect((await post(port, { host, authorization: `Basic ${TOKEN}` })).status).toBe(401);
    expect((await post(port, { host, authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    const client = await connectHttp(server.url, { authorization: `Bearer ${TOKEN}` });
    const found = await call(client, "search", { query: "zebrafish" });
    expect((found.structuredContent?.["results"] as { id: string }[]).map((hit) => hit.id)).toStrictEqual(["doc:guide.md"]);
    await client.close();
  });

  it("takes --token too, and refuses a short one", async () => {
    const server = await serve(["--http", "0", "--token", TOKEN]);
    expect((await post(server.url.port, { host: `127.0.0.1:${server.url.port}` })).status).toBe(401);
    expect((await post(server.url.port, { host: `127.0.0.1:${server.url.port}`, authorization: `bearer ${TOKEN}` })).status).toBe(200);
    await expect(serve(["--http", "0", "--token", "short"])).rejects.toThrow(/--token must be at least 16/);
  });

  it("warns when bound beyond loopback without a token, and not with one", async () => {
    const open = await serve(["--http", "0.0.0.0:0"]);
    expect(open.stderr()).toMatch(/reachable from other machines, with no token/);
    expect(open.stderr()).toMatch(/to reach it by a name, pass --allowed-host NAME/);
    const guarded = await serve(["--http", "0.0.0.0:0"], { MCP_SEARCH_TOKEN: TOKEN });
    expect(guarded.stderr()).toMatch(/reachable from other machines/);
    expect(guarded.stderr()).not.toMatch(/with no token/);
  });
});

describe("bounded resources", () => {
  it("refuses a batch over the cap, a body over the cap, and a connection over the cap", async () => {
    const server = await serve(["--http", "0"]);
    const port = server.url.port;
    const host = `127.0.0.1:${port}`;
    const batch = Array.from({ length: HTTP_LIMITS.maxBatch + 1 }, (_, id) => ({ jsonrpc: "2.0", id, method: "ping" }));
    const tooMany = await post(port, { host }, batch);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatch(/at most 8 messages/);
    expect((await post(port, { host }, "x".repeat(HTTP_LIMITS.maxBodyBytes + 1))).status).toBe(413);
    expect((await post(port, { host }, "{not json")).status).toBe(400);
    const badParams = await post(port, { host }, { jsonrpc: "2.0", id: 7, method: "tools/list", params: "x" });
    expect([badParams.status, JSON.parse(badParams.body)]).toStrictEqual([
      400,
      { jsonrpc: "2.0", id: 7, error: { code: -32600, message: "Invalid Request: params must be an object." } },
    ]);
    const nullArguments = await post(port, { host }, { jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "search", arguments: null } });
    expect([nullArguments.status, (JSON.parse(nullArguments.body) as { error: { code: number } }).error.code]).toStrictEqual([400, -32602]);

    // Connections that never send a request hold at most maxConnections - reservedConnections
    // slots: past that, the oldest is closed (../extra/cli-http-hostile.test.ts has the details).
    const sockets: Socket[] = [];
    try {
      const idle = HTTP_LIMITS.maxConnections - HTTP_LIMITS.reservedConnections;
      for (let index = 0; index <= idle; index += 1) {
        const socket = connect(Number(port), "127.0.0.1");
        socket.on("error", () => undefined);
        await new Promise((resolve) => socket.once("connect", resolve));
        sockets.push(socket);
      }
      const closed = await new Promise<boolean>((resolve) => {
        sockets[0]?.once("close", () => resolve(true));
        setTimeout(() => resolve(false), 3000);
      });
      expect(closed).toBe(true);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });

  describe("timeouts, in process with shortened limits", () => {
    let folder: Folder;
    let serving: HttpServing;

    beforeAll(async () => {
      const vocabulary = createVocabulary({ locale: "en", sourceName: "t", entries: [] });
      folder = await openFolder({ root, vocabulary, watch: false });
      serving = await serveFolderHttp(
        { name: "t", version: "0", folder, vocabulary },
        { host: "127.0.0.1", port: 0, limits: { headersTimeoutMs: 400, requestTimeoutMs: 800 } },
        () => undefined,
      );
    });

    afterAll(async () => {
      await serving.close();
      folder.close();
    });

    it("sets every timeout below Node's defaults", async () => {
      const vocabulary = createVocabulary({ locale: "en", sourceName: "t", entries: [] });
      const real = await serveFolderHttp({ name: "t", version: "0", folder, vocabulary }, { host: "127.0.0.1", port: 0 }, () => undefined);
      try {
        expect(real.server.headersTimeout).toBeLessThan(60_000);
        expect(real.server.requestTimeout).toBeLessThan(300_000);
        expect(real.server.keepAliveTimeout).toBeLessThan(5_000);
        expect(real.server.timeout).toBeGreaterThan(0);
        // A backstop at twice the cap, plus one: the cap itself is kept by ./http-traffic.ts, which
        // answers the connections over it 503 rather than cutting them.
        expect(real.server.maxConnections).toBe(2 * HTTP_LIMITS.maxConnections + 1);
      } finally {
        await real.close();
      }
    });

    it("closes a connection whose body trickles in one byte at a time", async () => {
      const port = new URL(serving.url).port;
      const socket = connect(Number(port), "127.0.0.1");
      await new Promise((resolve) => socket.once("connect", resolve));
      socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`);
      const trickle = setInterval(() => socket.write(" "), 100);
      const started = Date.now();
      const closed = await new Promise<boolean>((resolve) => {
        socket.once("close", () => resolve(true));
        socket.on("error", () => undefined);
        setTimeout(() => resolve(false), 5000);
      });
      clearInterval(trickle);
      socket.destroy();
      expect(closed).toBe(true);
      expect(Date.now() - started).toBeLessThan(5000);
    });
  });
});
