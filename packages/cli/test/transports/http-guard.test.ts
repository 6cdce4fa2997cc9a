import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createRequestGuard, HTTP_LIMITS, isLoopbackAddress, readJsonBody, writeJsonRpcError, type RequestGuardOptions } from "../../src/transports/http-guard.js";

/**
 * The HTTP guard's decisions, in process on plain request and response objects: no socket, so
 * each case costs microseconds and every mutant of ../../src/transports/http-guard.ts that
 * changes a decision meets a case here (`npm run mutate`). ./cli-http-guard.test.ts shows the
 * same rules through a real server.
 */

/** What the guard wrote: status, headers (lower-case names) and body. */
interface Written {
  status: number | undefined;
  headers: Record<string, string>;
  body: string | undefined;
}

/** A response that records what it is told. */
function recorder(): { res: ServerResponse; written: Written } {
  const written: Written = { status: undefined, headers: {}, body: undefined };
  const res = {
    setHeader(name: string, value: string) {
      written.headers[name.toLowerCase()] = value;
      return res;
    },
    writeHead(status: number, headers: Record<string, string> = {}) {
      written.status = status;
      for (const [name, value] of Object.entries(headers)) written.headers[name.toLowerCase()] = value;
      return res;
    },
    end(body?: string) {
      written.body = body;
      return res;
    },
  };
  return { res: res as unknown as ServerResponse, written };
}

/** Runs the guard of `options` on one request; returns its verdict and what it wrote. */
function check(options: Partial<RequestGuardOptions> & { address: string }, headers: Record<string, string>, method = "POST"): { passed: boolean } & Written {
  const guard = createRequestGuard({ allowedHosts: [], allowedOrigins: [], ...options });
  const { res, written } = recorder();
  const passed = guard({ headers, method } as unknown as IncomingMessage, res);
  return { passed, ...written };
}

/** The JSON-RPC error body the guard answers with. */
function errorBody(message: string, code = -32000, id: string | number | null = null): string {
  return JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id });
}

describe("isLoopbackAddress", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.0.0.2", true],
    ["127.255.255.254", true],
    ["::1", true],
    ["[::1]", true],
    ["0:0:0:0:0:0:0:1", true],
    ["::ffff:127.0.0.5", true],
    ["[::FFFF:127.0.0.1]", true],
    ["0.0.0.0", false],
    ["::", false],
    ["::ffff:10.0.0.1", false],
    ["10.0.0.1", false],
    ["128.0.0.1", false],
    ["1.127.0.0", false],
    ["127.example.com", false],
    ["localhost", false],
    ["x::1", false],
    ["::1x", false],
    // brackets count only around the whole address
    ["1[27.0.0.1]", false],
    ["[127.0.0.]1", false],
  ])("isLoopbackAddress(%j) is %j", (address, expected) => {
    expect(isLoopbackAddress(address)).toBe(expected);
  });
});

describe("createRequestGuard: Host", () => {
  it.each([
    // a loopback bind, 127/8 included: loopback names, its own address and any IP
    ["127.0.0.1", "localhost:3000", true],
    ["127.0.0.1", "LOCALHOST", true],
    ["127.0.0.1", "127.0.0.1:1", true],
    ["127.0.0.1", "[::1]:80", true],
    ["127.0.0.2", "localhost", true],
    ["::1", "localhost", true],
    ["127.0.0.1", "10.9.8.7", true],
    ["127.0.0.1", "evil.example", false],
    ["127.0.0.1", "localhost.evil.example", false],
    // a wildcard bind: every interface, loopback among them
    ["0.0.0.0", "localhost", true],
    ["::", "localhost", true],
    ["[::]", "localhost", true],
    ["::ffff:0.0.0.0", "localhost", true],
    ["0.0.0.0", "evil.example", false],
    // any other bind: its own address and IP literals, no loopback name
    ["192.168.1.5", "localhost", false],
    ["192.168.1.5", "192.168.1.5:8080", true],
    ["fe80::1", "[FE80::1]:8080", true],
    ["192.168.1.5", "rebound.example", false],
  ])("bound to %s, Host %j passes: %j", (address, host, expected) => {
    const result = check({ address }, { host });
    expect(result.passed).toBe(expected);
    if (!expected) {
      expect(result).toStrictEqual({
        passed: false,
        status: 403,
        headers: { "content-type": "application/json", connection: "close" },
        body: errorBody(`Invalid Host header: ${JSON.stringify(host)}`),
      });
    }
  });

  it("reads brackets only around the whole bound address", () => {
    expect(check({ address: "0[.0.0.0]" }, { host: "localhost" }).passed).toBe(false);
    expect(check({ address: "[0.0.0.]0" }, { host: "localhost" }).passed).toBe(false);
    expect(check({ address: "[::]" }, { host: "localhost" }).passed).toBe(true);
  });

  it("refuses a request with no Host, even when a host named \"undefined\" is allowed", () => {
    expect(check({ address: "0.0.0.0", allowedHosts: ["undefined"] }, {})).toMatchObject({ passed: false, status: 403 });
    expect(check({ address: "0.0.0.0", allowedHosts: ["undefined"] }, { host: "undefined" }).passed).toBe(true);
  });

  it("refuses a request with no Host, or an empty or unparsable one", () => {
    expect(check({ address: "127.0.0.1" }, {})).toMatchObject({ passed: false, status: 403, body: errorBody('Invalid Host header: ""') });
    expect(check({ address: "127.0.0.1" }, { host: "" })).toMatchObject({ passed: false, status: 403, body: errorBody('Invalid Host header: ""') });
    expect(check({ address: "127.0.0.1" }, { host: "a b" })).toMatchObject({ passed: false, status: 403 });
  });

  it("--allowed-host on a wildcard bind: accepts that name, in any case, and still refuses others", () => {
    const options = { address: "0.0.0.0", allowedHosts: ["Tunnel.Example"] };
    expect(check(options, { host: "tunnel.example" }).passed).toBe(true);
    expect(check(options, { host: "TUNNEL.example:443" }).passed).toBe(true);
    expect(check(options, { host: "localhost" }).passed).toBe(true);
    expect(check(options, { host: "evil.example" }).passed).toBe(false);
  });

  it("--allowed-host on a public bind: accepts that name, not localhost", () => {
    const options = { address: "203.0.113.7", allowedHosts: ["docs.example"] };
    expect(check(options, { host: "docs.example" }).passed).toBe(true);
    expect(check(options, { host: "localhost" }).passed).toBe(false);
  });
});

describe("createRequestGuard: Origin", () => {
  it.each(["https://chatgpt.com", "https://claude.ai", "https://claude.com"])("accepts the connector origin %s behind a public name, and not without one", (origin) => {
    expect(check({ address: "0.0.0.0", allowedHosts: ["tunnel.example"] }, { host: "tunnel.example", origin }).passed).toBe(true);
    expect(check({ address: "0.0.0.0" }, { host: "localhost", origin })).toMatchObject({ passed: false, status: 403, body: errorBody(`Invalid Origin header: ${JSON.stringify(origin)}`) });
  });

  it("accepts an --allowed-origin in its canonical form", () => {
    const options = { address: "127.0.0.1", allowedOrigins: ["HTTPS://My-App.Example:443/path"] };
    expect(check(options, { host: "localhost", origin: "https://my-app.example" }).passed).toBe(true);
    expect(check(options, { host: "localhost", origin: "https://MY-APP.example:443" }).passed).toBe(true);
    expect(check(options, { host: "localhost", origin: "https://other.example" }).passed).toBe(false);
  });

  it("keeps an --allowed-origin that is no URL as it was written", () => {
    expect(check({ address: "127.0.0.1", allowedOrigins: ["null"] }, { host: "localhost", origin: "null" }).passed).toBe(true);
    expect(check({ address: "127.0.0.1", allowedOrigins: ["null"] }, { host: "localhost", origin: "nul" }).passed).toBe(false);
    expect(check({ address: "127.0.0.1" }, { host: "localhost", origin: "null" }).passed).toBe(false);
  });

  it.each([
    ["127.0.0.1", "http://localhost:5173", true],
    ["127.0.0.1", "http://127.0.0.1:8080", true],
    ["127.0.0.1", "http://[::1]:8080", true],
    ["127.0.0.1", "http://10.0.0.9", false], // a page on a stranger's IP is a stranger
    ["0.0.0.0", "http://127.0.0.1:5173", true],
    ["0.0.0.0", "http://[::1]:5173", true],
    ["0.0.0.0", "http://127.0.0.2:5173", false],
    ["192.168.1.5", "http://192.168.1.5:8080", true],
    ["192.168.1.5", "http://localhost:8080", false],
    ["127.0.0.1", "https://evil.example", false],
    ["127.0.0.1", "not a url", false],
  ])("bound to %s, Origin %j passes: %j", (address, origin, expected) => {
    expect(check({ address }, { host: "127.0.0.1", origin }).passed).toBe(expected);
  });

  it("gives an allowed origin the CORS headers", () => {
    expect(check({ address: "127.0.0.1" }, { host: "localhost", origin: "http://localhost:5173" })).toStrictEqual({
      passed: true,
      status: undefined,
      headers: {
        "access-control-allow-origin": "http://localhost:5173",
        "access-control-expose-headers": "mcp-session-id, mcp-protocol-version, www-authenticate",
        vary: "Origin",
      },
      body: undefined,
    });
  });

  it("answers a preflight 204 before the token, and only an OPTIONS with Access-Control-Request-Method", () => {
    const options = { address: "127.0.0.1", token: "a-token-of-sixteen-chars" };
    const preflight = { host: "localhost", origin: "http://localhost:5173", "access-control-request-method": "POST" };
    expect(check(options, preflight, "OPTIONS")).toStrictEqual({
      passed: false,
      status: 204,
      headers: {
        "access-control-allow-origin": "http://localhost:5173",
        "access-control-expose-headers": "mcp-session-id, mcp-protocol-version, www-authenticate",
        vary: "Origin",
        "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
        "access-control-allow-headers": "authorization, content-type, accept, last-event-id, mcp-protocol-version, mcp-session-id, mcp-method, mcp-name",
        "access-control-max-age": "600",
      },
      body: undefined,
    });
    expect(check(options, { host: "localhost", origin: "http://localhost:5173" }, "OPTIONS")).toMatchObject({ passed: false, status: 401 });
    expect(check(options, preflight, "POST")).toMatchObject({ passed: false, status: 401 });
    expect(check({ address: "127.0.0.1" }, { host: "localhost", "access-control-request-method": "POST" }, "OPTIONS")).toStrictEqual({
      passed: true,
      status: undefined,
      headers: {},
      body: undefined,
    });
  });
});

describe("createRequestGuard: the bearer token", () => {
  const token = "Secret-Token-0123456789";
  const withToken = { address: "127.0.0.1", token };

  it.each([
    [`Bearer ${token}`, true],
    [`bearer ${token}`, true],
    [`BEARER \t${token} \t`, true],
    [`Bearer ${token.toLowerCase()}`, false], // the token's case counts
    [`Bearer ${token.toUpperCase()}`, false],
    [`Bearer ${token}x`, false],
    [`Bearer ${token.slice(1)}`, false],
    [`Bearer${token}`, false],
    [`XBearer ${token}`, false],
    [`Bearer ${token} more`, false],
    [`Basic ${token}`, false],
    ["Bearer", false],
    ["", false],
  ])("Authorization %j passes: %j", (authorization, expected) => {
    const result = check(withToken, { host: "localhost", authorization });
    expect(result.passed).toBe(expected);
    if (!expected) {
      expect(result).toStrictEqual({
        passed: false,
        status: 401,
        headers: { "www-authenticate": 'Bearer realm="mcp-search", error="invalid_token"', "content-type": "application/json", connection: "close" },
        body: errorBody("Unauthorized: send Authorization: Bearer <token>"),
      });
    }
  });

  it("refuses a request without Authorization, and asks for nothing when no token is set", () => {
    expect(check(withToken, { host: "localhost" })).toMatchObject({ passed: false, status: 401 });
    expect(check({ address: "127.0.0.1" }, { host: "localhost" })).toStrictEqual({ passed: true, status: undefined, headers: {}, body: undefined });
  });

  it("needs the Bearer form even for an empty token", () => {
    expect(check({ address: "127.0.0.1", token: "" }, { host: "localhost", authorization: "Basic x" }).passed).toBe(false);
    expect(check({ address: "127.0.0.1", token: "" }, { host: "localhost" }).passed).toBe(false);
  });
});

/** A request whose body arrives in `chunks`, remembering whether it was destroyed. */
function body(chunks: readonly string[]): IncomingMessage & { destroyed: boolean } {
  return Readable.from(chunks.map((chunk) => Buffer.from(chunk))) as unknown as IncomingMessage & { destroyed: boolean };
}

describe("readJsonBody", () => {
  const limits = { maxBodyBytes: 20, maxBatch: 2 };

  it("parses a body of exactly the cap, in chunks", async () => {
    const json = '{"a":"0123456789ab"}';
    expect(json.length).toBe(20);
    const { res, written } = recorder();
    expect(await readJsonBody(body([json.slice(0, 7), json.slice(7)]), res, limits)).toStrictEqual({ body: { a: "0123456789ab" } });
    expect(written).toStrictEqual({ status: undefined, headers: {}, body: undefined });
  });

  it("answers 413 and destroys the request one byte over the cap", async () => {
    const json = '{"a":"0123456789abc"}';
    const req = body([json.slice(0, 10), json.slice(10)]);
    const { res, written } = recorder();
    expect(await readJsonBody(req, res, limits)).toBeUndefined();
    expect(req.destroyed).toBe(true);
    expect(written).toStrictEqual({
      status: 413,
      headers: { "content-type": "application/json", connection: "close" },
      body: errorBody("Request body over 20 bytes"),
    });
  });

  it("caps at HTTP_LIMITS by default", async () => {
    const filler = "x".repeat(HTTP_LIMITS.maxBodyBytes - '{"a":""}'.length);
    const atCap = recorder();
    const read = await readJsonBody(body([`{"a":"${filler}"}`]), atCap.res);
    expect(read !== undefined && (read.body as { a: string }).a === filler).toBe(true);
    const over = recorder();
    expect(await readJsonBody(body([`{"a":"${filler}"} `]), over.res)).toBeUndefined();
    expect(over.written.status).toBe(413);
    const batch = Array.from({ length: HTTP_LIMITS.maxBatch + 1 }, (_, id) => ({ jsonrpc: "2.0", id, method: "ping" }));
    const refused = recorder();
    expect(await readJsonBody(body([JSON.stringify(batch)]), refused.res)).toBeUndefined();
    expect(refused.written.status).toBe(400);
  });

  it("answers a parse error for a body that is not JSON", async () => {
    const { res, written } = recorder();
    expect(await readJsonBody(body(["{nope"]), res, limits)).toBeUndefined();
    expect(written).toStrictEqual({
      status: 400,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error: the body is not JSON" }, id: null }),
    });
  });

  it("accepts a batch of maxBatch messages and refuses one more", async () => {
    const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });
    expect(await readJsonBody(body([JSON.stringify([ping(1), ping(2)])]), recorder().res, { maxBodyBytes: 1000, maxBatch: 2 })).toStrictEqual({ body: [ping(1), ping(2)] });
    const { res, written } = recorder();
    expect(await readJsonBody(body([JSON.stringify([ping(1), ping(2), ping(3)])]), res, { maxBodyBytes: 1000, maxBatch: 2 })).toBeUndefined();
    expect(written).toStrictEqual({
      status: 400,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", error: { code: -32600, message: "Invalid Request: a batch holds at most 2 messages" }, id: null }),
    });
  });

  it("answers a message the SDK would answer badly, in a batch too, with its id", async () => {
    const bad = { jsonrpc: "2.0", id: 7, method: "tools/list", params: "x" };
    for (const sent of [bad, [{ jsonrpc: "2.0", id: 1, method: "ping" }, bad]]) {
      const { res, written } = recorder();
      expect(await readJsonBody(body([JSON.stringify(sent)]), res, { maxBodyBytes: 1000, maxBatch: 2 })).toBeUndefined();
      expect(written).toStrictEqual({
        status: 400,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", error: { code: -32600, message: "Invalid Request: params must be an object." }, id: 7 }),
      });
    }
  });
});

describe("writeJsonRpcError", () => {
  it.each([
    [{ code: -32000, message: "busy" }, {}, 503, { "content-type": "application/json" }, '{"jsonrpc":"2.0","error":{"code":-32000,"message":"busy"},"id":null}'],
    [{ code: -32600, message: "bad", id: 7 }, { close: true }, 400, { "content-type": "application/json", connection: "close" }, '{"jsonrpc":"2.0","error":{"code":-32600,"message":"bad"},"id":7}'],
  ])("writes %j (%j) as one JSON-RPC error reply", (error, options, status, headers, body) => {
    const { res, written } = recorder();
    expect(writeJsonRpcError(res, status, error, options)).toBe(false);
    expect(written).toStrictEqual({ status, headers, body });
  });
});

describe("HTTP_LIMITS", () => {
  it("holds the documented limits", () => {
    expect(HTTP_LIMITS).toStrictEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 3_000,
      socketIdleTimeoutMs: 30_000,
      maxConnections: 32,
      maxBodyBytes: 262_144,
      maxBatch: 8,
      firstRequestTimeoutMs: 3_000,
      reservedConnections: 8,
      maxInFlight: 16,
      maxQueuedBytes: 16_777_216,
      maxStreams: 8,
      maxStreamsPerClient: 4,
      streamLifetimeMs: 600_000,
    });
  });
});
