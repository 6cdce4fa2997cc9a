/**
 * Streamable HTTP for `mcp-search serve --http` (ChatGPT and other remote clients). Its own module,
 * loaded only with `--http`, so that serving over stdio never loads the HTTP adapter.
 *
 * HTTP is stateless: every request is answered by a fresh McpServer from one factory, through
 * the SDK's `createMcpHandler`, so there is no session to lose, expire or leak, and a restart is
 * invisible to clients. The folder and its index are shared by every request; only the thin
 * McpServer is per request. A change to the folder's documents is published once per burst on the
 * handler's change bus, to the clients listening on a `subscriptions/listen` stream (protocol
 * 2026-07-28); a stateless 2025-era client has no stream to receive it on.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { toNodeHandler, type NodeIncomingMessageLike } from "@modelcontextprotocol/node";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { createRequestGuard, createTokenCheck, HTTP_LIMITS, isLoopbackAddress, pathOf, readJsonBody, type HttpLimits } from "./http-guard.js";
import type { AuthorizationServer } from "../oauth/authorization-server.js";
import { createTrafficControl } from "./http-traffic.js";
import { announceResourceListChanges } from "../mcp/resources.js";
import { createFolderServer, type FolderServerOptions } from "./serve.js";

/** The path the HTTP server answers MCP on. */
const MCP_PATH = "/mcp";

/**
 * A running HTTP server: the URL clients connect to, and how to stop it.
 *
 * @example
 * const { url, close }: HttpServing = await serveFolderHttp(options, { host: "127.0.0.1", port: 0 }, log);
 */
export interface HttpServing {
  readonly url: string;
  readonly server: Server;
  /** True when the bound address only this machine can reach (127.0.0.0/8, ::1). */
  readonly loopback: boolean;
  close(): Promise<void>;
}

/**
 * Where and how to listen over HTTP.
 *
 * @example
 * const listen: HttpListen = { host: "127.0.0.1", port: 8787, allowedHosts: ["mcp.example.com"], token: "s3cret" };
 */
interface HttpListen {
  readonly host: string;
  readonly port: number;
  /** Public host names accepted in `Host` (a tunnel's or proxy's). @default [] */
  readonly allowedHosts?: readonly string[] | undefined;
  /** Extra origins accepted in `Origin`. @default [] */
  readonly allowedOrigins?: readonly string[] | undefined;
  /** When set, every request needs `Authorization: Bearer <token>`. @default undefined */
  readonly token?: string | undefined;
  /** Timeouts and caps; tests shorten them. @default HTTP_LIMITS */
  readonly limits?: Partial<HttpLimits> | undefined;
  /**
   * `--oauth`: makes the authorization server once the issuer is known, `publicUrl` or the
   * bound `http://127.0.0.1:<port>`. Every MCP request then needs one of its access tokens, or
   * `token`. @default undefined (no OAuth)
   */
  readonly oauth?: ((issuer: string) => AuthorizationServer) | undefined;
  /** `--public-url`: the origin clients reach the server at, behind a tunnel or a proxy. @default undefined */
  readonly publicUrl?: string | undefined;
}

/**
 * Serves over Streamable HTTP at `http://host:port/mcp`. Whether the server is on loopback is
 * decided by the address it bound (`server.address()`), not by the spelling of `host`. On every
 * bind, wildcard ones included, the `Host` and `Origin` headers are checked (DNS-rebinding
 * protection; see ./http-guard.ts); with a token every request needs it. The timeouts and caps of
 * {@link HTTP_LIMITS} bound what one client can hold: connections, requests in flight (one per
 * connection), unread reply bytes and event streams (./http-traffic.ts), bodies and batches.
 *
 * @example
 * const serving = await serveFolderHttp(options, { host: "127.0.0.1", port: 8787 }, log);
 * serving.url; // => "http://127.0.0.1:8787/mcp"
 */
export async function serveFolderHttp(
  options: FolderServerOptions,
  listen: HttpListen,
  log: (line: string) => void,
): Promise<HttpServing> {
  const onerror = (error: Error) => log(`http error: ${error.message}`);
  const limits: HttpLimits = { ...HTTP_LIMITS, ...listen.limits };
  const handler = createMcpHandler(() => createFolderServer(options), { onerror, maxRequestBodySize: limits.maxBodyBytes });
  const handle = toNodeHandler(handler, { onerror, maxRequestBodySize: limits.maxBodyBytes });
  const stopAnnouncing = options.resources === false ? () => undefined : announceResourceListChanges(options.folder, () => handler.notify.resourcesChanged());
  let guard: ReturnType<typeof createRequestGuard> | undefined;
  let oauth: AuthorizationServer | undefined;
  const staticToken = listen.token === undefined ? undefined : createTokenCheck(listen.token);
  // The header and request timeouts are checked at this interval (Node: every 30 s).
  const checking = Math.max(100, Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 2);
  const server = createServer({ connectionsCheckingInterval: checking }, (req, res) => {
    if (guard === undefined) {
      res.writeHead(503, { connection: "close" }).end(); // not listening yet: never served unchecked
      return;
    }
    if (!traffic.begin(req, res)) return;
    if (!guard(req, res)) return;
    const path = pathOf(req);
    if (oauth?.handles(path) === true) {
      void oauth.handle(req, res, path);
      return;
    }
    void (async () => {
      // With --oauth, the fixed token (--token) still opens the door, for the Responses API and scripts.
      if (oauth !== undefined && staticToken?.(req.headers.authorization) !== true && (await oauth.authenticate(req, res)) === false) return;
      traffic.trust(req);
      if (path !== MCP_PATH) {
        res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end(`Not found. The MCP endpoint is ${MCP_PATH}.\n`);
        return;
      }
      let parsed: { readonly body: unknown } | undefined;
      if (req.method === "POST") {
        parsed = await readJsonBody(req, res, limits);
        if (parsed === undefined) return;
        if (isListen(parsed.body) && !traffic.openStream(req, res)) return;
      }
      await handle(req as NodeIncomingMessageLike, res, parsed?.body);
    })().catch((error: unknown) => {
      onerror(error instanceof Error ? error : new Error(String(error)));
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  const traffic = createTrafficControl(server, limits);
  server.setTimeout(limits.socketIdleTimeoutMs, (socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(listen.port, listen.host.replace(/^\[(.*)\]$/, "$1"), () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port, address } = server.address() as AddressInfo;
  const hostInUrl = listen.host.includes(":") && !listen.host.startsWith("[") ? `[${listen.host}]` : listen.host;
  if (listen.oauth !== undefined) {
    // Without --public-url the identifiers are the server's own loopback URL, for local use and tests.
    const local = isLoopbackAddress(address) && address.includes(":") ? `http://[::1]:${port}` : `http://127.0.0.1:${port}`;
    oauth = listen.oauth(listen.publicUrl ?? local);
  }
  const publicHost = listen.publicUrl === undefined ? [] : [new URL(listen.publicUrl).hostname];
  guard = createRequestGuard({
    address,
    allowedHosts: [...(listen.allowedHosts ?? []), ...publicHost],
    allowedOrigins: listen.allowedOrigins ?? [],
    token: oauth === undefined ? listen.token : undefined,
    hostOnlyPaths: oauth === undefined ? undefined : (path) => oauth!.handles(path),
  });
  return {
    url: `http://${hostInUrl}:${port}${MCP_PATH}`,
    server,
    loopback: isLoopbackAddress(address),
    close: async () => {
      stopAnnouncing();
      traffic.close();
      await handler.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** True for a `subscriptions/listen` request: its reply is an event stream that stays open. */
function isListen(body: unknown): boolean {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.some((message) => (message as { method?: unknown } | null)?.method === "subscriptions/listen");
}
