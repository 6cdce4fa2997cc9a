/**
 * What the HTTP transport checks before a request reaches the MCP handler: the `Host` and
 * `Origin` headers (DNS-rebinding protection), the bearer token, and the size of the body and
 * of a JSON-RPC batch. Also the limits that keep a hostile client from holding connections or
 * memory. Everything here decides on the address the server actually bound, never on the spelling
 * of the `--http` flag.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { isIP } from "node:net";
import { checkMessage } from "./message-check.js";

/**
 * The origins browser-based connectors send, accepted behind a public name (`--allowed-host`).
 * ChatGPT's connectors send `Origin: https://chatgpt.com`; claude.ai sends `https://claude.ai`,
 * and `https://claude.com` too. Servers that refused them answered 403 before the MCP or OAuth
 * flow could start. Source: /work/shared/FACTS.md, "Which Origin header hosts send" (public
 * issues koala73/worldmonitor#4802, actionhero/keryx#499, chrisdoc/hevy-mcp#727).
 * Server-to-server clients (the Responses API, the SDKs, desktop apps) send no Origin at all.
 *
 * @example
 * CONNECTOR_ORIGINS.includes("https://chatgpt.com"); // => true
 */
const CONNECTOR_ORIGINS: readonly string[] = ["https://chatgpt.com", "https://claude.ai", "https://claude.com"];

/**
 * The limits of the HTTP server.
 *
 * @example
 * const limits: HttpLimits = { ...HTTP_LIMITS, maxConnections: 8 };
 */
export interface HttpLimits {
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly socketIdleTimeoutMs: number;
  readonly maxConnections: number;
  readonly maxBodyBytes: number;
  readonly maxBatch: number;
  readonly firstRequestTimeoutMs: number;
  readonly reservedConnections: number;
  readonly maxInFlight: number;
  readonly maxQueuedBytes: number;
  readonly maxStreams: number;
  readonly maxStreamsPerClient: number;
  readonly streamLifetimeMs: number;
}

/**
 * The HTTP server's limits, all shorter or smaller than Node's defaults.
 *
 * @example
 * HTTP_LIMITS.maxConnections; // => 32
 */
export const HTTP_LIMITS: HttpLimits = {
  /** Time to receive a request's headers (Node: 60 s). */
  headersTimeoutMs: 10_000,
  /** Time to receive a whole request, body included (Node: 300 s). */
  requestTimeoutMs: 30_000,
  /** How long an idle keep-alive connection stays open (Node: 5 s). */
  keepAliveTimeoutMs: 3_000,
  /**
   * A connection with no byte read or written for this long is closed, and so is one whose reply
   * bytes have waited unsent this long: a client that stopped reading (Node: never).
   */
  socketIdleTimeoutMs: 30_000,
  /** Connections open at once; more are refused (Node: unlimited). */
  maxConnections: 32,
  /** The largest request body read (the SDK: 4 MiB). A search or fetch call is a few hundred bytes. */
  maxBodyBytes: 256 * 1024,
  /** The most messages in one JSON-RPC batch (the SDK: 100). */
  maxBatch: 8,
  /** Time for a new connection to send a request that passes the checks (the token included). */
  firstRequestTimeoutMs: 3_000,
  /** Connection slots that only a connection whose request passed the checks can hold. */
  reservedConnections: 8,
  /** Requests being answered at once, server-wide; one per connection. */
  maxInFlight: 16,
  /** Reply bytes waiting unsent in every connection's buffer before new requests wait (503). */
  maxQueuedBytes: 16 * 1024 * 1024,
  /** `subscriptions/listen` event streams open at once. */
  maxStreams: 8,
  /** Event streams open at once from one client address. */
  maxStreamsPerClient: 4,
  /** How long an event stream stays open; the client then listens again. */
  streamLifetimeMs: 10 * 60_000,
};

/**
 * True for an address only this machine can reach: 127.0.0.0/8, ::1, and IPv4-mapped 127.x.
 *
 * @example
 * isLoopbackAddress("127.0.0.2");        // => true
 * isLoopbackAddress("::ffff:127.0.0.5"); // => true
 * isLoopbackAddress("0.0.0.0");          // => false (every interface, loopback among them)
 */
export function isLoopbackAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (bare === "::1" || bare === "0:0:0:0:0:0:0:1") return true;
  const v4 = bare.startsWith("::ffff:") ? bare.slice("::ffff:".length) : bare;
  return isIP(v4) === 4 && v4.startsWith("127.");
}

/**
 * Options of {@link createRequestGuard}.
 *
 * @example
 * const options: RequestGuardOptions = { address: "127.0.0.1", allowedHosts: [], allowedOrigins: [] };
 */
export interface RequestGuardOptions {
  /** The address the server bound, from `server.address()`. */
  readonly address: string;
  /** Public host names accepted in `Host` (a tunnel's or proxy's). @default [] */
  readonly allowedHosts: readonly string[];
  /** Extra origins accepted in `Origin`, such as `https://my-app.example`. @default [] */
  readonly allowedOrigins: readonly string[];
  /** When set, every request must carry `Authorization: Bearer <token>`. @default undefined */
  readonly token?: string | undefined;
  /**
   * Paths checked for `Host` only: the OAuth endpoints (../oauth/), which clients of any origin
   * call before they hold a token, and which check what they need themselves. @default none
   */
  readonly hostOnlyPaths?: ((path: string) => boolean) | undefined;
}

/** True for the address of every interface: `0.0.0.0`, `::` (what `--http 0:P` binds too). */
function isWildcardAddress(address: string): boolean {
  const bare = bareAddress(address);
  return bare === "0.0.0.0" || bare === "::" || bare === "::ffff:0.0.0.0";
}

/** The headers a browser may send on a cross-origin call, answered to a CORS preflight. */
const CORS_ALLOWED_HEADERS = "authorization, content-type, accept, last-event-id, mcp-protocol-version, mcp-session-id, mcp-method, mcp-name";
/** The response headers a cross-origin page may read. */
const CORS_EXPOSED_HEADERS = "mcp-session-id, mcp-protocol-version, www-authenticate";

/**
 * The checks a request passes before the MCP handler sees it, on every address the server can
 * bind (DNS-rebinding protection; the MCP transport specification asks servers to validate
 * Origin):
 *
 * - `Host` must be an IP address (a browser sends the name it resolved, so an IP literal cannot
 *   come from a rebound name), a loopback name (`localhost`) on a loopback or wildcard bind, the
 *   bound address, or an allowed host; any port.
 * - An `Origin`, when sent, must be one of `allowedOrigins`, a known connector origin behind a
 *   public name (`allowedHosts`), or on one of the hosts above that is a name or the bound
 *   address (not any IP: a page served from a stranger's IP is a stranger).
 * - An allowed `Origin` gets the CORS headers, and its preflight (`OPTIONS` with
 *   `Access-Control-Request-Method`) is answered 204 (and `false` returned) before the token is
 *   checked: browsers never send credentials on a preflight.
 * - With a token, a request without the right bearer token gets 401. The token is compared in
 *   constant time, case included.
 *
 * @example
 * const guard = createRequestGuard({ address: "0.0.0.0", allowedHosts: [], allowedOrigins: [] });
 * guard(req, res); // => false, after answering 403, for `Host: attacker.example`
 */
export function createRequestGuard(options: RequestGuardOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  const loopbackNames = isLoopbackAddress(options.address) || isWildcardAddress(options.address);
  const allowedHosts = options.allowedHosts.map((host) => host.toLowerCase());
  const hosts = new Set([...(loopbackNames ? ["localhost", "127.0.0.1", "::1"] : []), bareAddress(options.address), ...allowedHosts]);
  const origins = new Set([...options.allowedOrigins.map(originOf), ...(allowedHosts.length > 0 ? CONNECTOR_ORIGINS : [])]);
  const expected = options.token === undefined ? undefined : digest(options.token);
  return (req, res) => {
    const host = hostnameOf(req.headers.host);
    if (host === undefined || !(hosts.has(host) || isIP(host) !== 0)) return refuse(res, 403, `Invalid Host header: ${JSON.stringify(req.headers.host ?? "")}`);
    if (options.hostOnlyPaths?.(pathOf(req)) === true) return true;
    const origin = req.headers.origin;
    if (origin !== undefined) {
      if (!origins.has(originOf(origin))) {
        const originHost = hostnameOf(safeHost(origin));
        if (originHost === undefined || !hosts.has(originHost)) return refuse(res, 403, `Invalid Origin header: ${JSON.stringify(origin)}`);
      }
      res.setHeader("access-control-allow-origin", origin);
      res.setHeader("access-control-expose-headers", CORS_EXPOSED_HEADERS);
      res.setHeader("vary", "Origin");
      if (req.method === "OPTIONS" && req.headers["access-control-request-method"] !== undefined) {
        res.writeHead(204, {
          "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
          "access-control-allow-headers": CORS_ALLOWED_HEADERS,
          "access-control-max-age": "600",
        });
        res.end();
        return false;
      }
    }
    if (expected !== undefined && !tokenMatches(req.headers.authorization, expected)) {
      res.setHeader("www-authenticate", 'Bearer realm="mcp-search", error="invalid_token"');
      return refuse(res, 401, "Unauthorized: send Authorization: Bearer <token>");
    }
    return true;
  };
}

/**
 * The path of a request's target, without its query.
 *
 * @example
 * pathOf({ url: "/mcp?x=1" }); // => "/mcp"
 */
export function pathOf(req: Pick<IncomingMessage, "url">): string {
  return (req.url ?? "/").split("?", 1)[0]!;
}

/**
 * A check of `Authorization: Bearer <token>` against one fixed token, in constant time.
 *
 * @example
 * createTokenCheck("0123456789abcdef")("Bearer 0123456789abcdef"); // => true
 */
export function createTokenCheck(token: string): (header: string | undefined) => boolean {
  const expected = digest(token);
  return (header) => tokenMatches(header, expected);
}

/** The bound address as a Host header names it, without IPv6 brackets, lower case. */
function bareAddress(address: string): string {
  return address.replace(/^\[(.*)\]$/, "$1").toLowerCase();
}

/** The host name of a `Host` header value (`name:port`, `[v6]:port`), lower case, or `undefined`. */
function hostnameOf(value: string | undefined): string | undefined {
  if (value === undefined || value === "") return undefined;
  try {
    return bareAddress(new URL(`http://${value}`).hostname);
  } catch {
    return undefined;
  }
}

/** The `host[:port]` of an origin, for the host comparison. */
function safeHost(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

/** An origin in canonical form (scheme, lower-case host, port only when not the default). */
function originOf(value: string): string {
  try {
    return new URL(value).origin;
  } catch {
    return value;
  }
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}

/** Constant-time: both sides are hashed to 32 bytes first, so not even the length leaks. */
function tokenMatches(header: string | undefined, expected: Buffer): boolean {
  // Stryker disable next-line StringLiteral: any text without the Bearer prefix fails the match alike
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? "");
  // Stryker disable next-line StringLiteral: a match always holds its token; without one, match !== null decides
  return timingSafeEqual(digest(match?.[1] ?? ""), expected) && match !== null;
}

/**
 * A JSON-RPC error as the HTTP transport's reply: the one writer of every refusal the transport
 * makes itself (the guard's, the body's and the traffic control's, ./http-traffic.ts), before a
 * request reaches the MCP handler. `id` is the refused message's id when it has one, else `null`;
 * `close` asks the client to close the connection after it. Returns false, so that a check can
 * `return writeJsonRpcError(…)`.
 *
 * @example
 * writeJsonRpcError(res, 403, { code: -32000, message: "Invalid Host header" }, { close: true });
 * // HTTP 403, connection: close, {"jsonrpc":"2.0","error":{"code":-32000,"message":"Invalid Host header"},"id":null}
 */
export function writeJsonRpcError(
  res: ServerResponse,
  status: number,
  error: { readonly code: number; readonly message: string; readonly id?: string | number | null | undefined },
  options: { readonly close?: boolean } = {},
): false {
  res.writeHead(status, { "content-type": "application/json", ...(options.close === true && { connection: "close" }) });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: error.code, message: error.message }, id: error.id ?? null }));
  return false;
}

/** A refusal of the guard (a generic server error, -32000), and the end of its connection. */
function refuse(res: ServerResponse, status: number, message: string): false {
  return writeJsonRpcError(res, status, { code: -32000, message }, { close: true });
}

/**
 * Reads a POST body of at most `limits.maxBodyBytes` and parses it as JSON. A body
 * too large gets 413, invalid JSON a parse error, a batch of more than `maxBatch` messages 400,
 * and so does a message the SDK answers badly (see ./message-check.ts); each answered here, and
 * `undefined` returned.
 *
 * @example
 * const body = await readJsonBody(req, res); // => { jsonrpc: "2.0", id: 1, method: "tools/list" }
 */
export async function readJsonBody(
  req: IncomingMessage,
  res: ServerResponse,
  limits: Pick<HttpLimits, "maxBodyBytes" | "maxBatch"> = HTTP_LIMITS,
): Promise<{ readonly body: unknown } | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limits.maxBodyBytes) {
      refuse(res, 413, `Request body over ${limits.maxBodyBytes} bytes`);
      req.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    writeJsonRpcError(res, 400, { code: -32700, message: "Parse error: the body is not JSON" });
    return undefined;
  }
  if (Array.isArray(body) && body.length > limits.maxBatch) {
    writeJsonRpcError(res, 400, { code: -32600, message: `Invalid Request: a batch holds at most ${limits.maxBatch} messages` });
    return undefined;
  }
  for (const message of Array.isArray(body) ? body : [body]) {
    const refusal = checkMessage(message);
    if (refusal === undefined) continue;
    writeJsonRpcError(res, 400, refusal);
    return undefined;
  }
  return { body };
}
