/**
 * The two transports of `mcp-search serve`: stdio (the default, for Claude Desktop and any host
 * that spawns a subprocess) and Streamable HTTP (for ChatGPT and other remote clients).
 *
 * HTTP is stateless: every request is answered by a fresh McpServer from one factory, through
 * the SDK's `createMcpHandler`, so there is no session to lose, expire or leak, and a restart is
 * invisible to clients. The folder and its index are shared by every request; only the thin
 * McpServer is per request.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { toNodeHandler, type NodeIncomingMessageLike } from "@modelcontextprotocol/node";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { serveStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { createRequestGuard, HTTP_LIMITS, isLoopbackAddress, readJsonBody, type HttpLimits } from "./http-guard.js";
import { createLineGuard, MAX_LINE_BYTES } from "./stdio-guard.js";
import { registerFolderTools, type FolderToolsOptions } from "./tools.js";

/** The path the HTTP server answers MCP on. */
export const MCP_PATH = "/mcp";

/**
 * Identity of the server in the MCP handshake, and its tools' options.
 *
 * @example
 * const options: FolderServerOptions = { name: "mcp-search", version: "0.9.0", folder, vocabulary };
 */
export interface FolderServerOptions extends FolderToolsOptions {
  readonly name: string;
  readonly version: string;
}

/**
 * A new McpServer with the folder's `search` and `fetch`.
 *
 * @example
 * const server = createFolderServer({ name: "mcp-search", version: "0.9.0", folder, vocabulary });
 * await server.connect(transport);
 */
export function createFolderServer(options: FolderServerOptions): McpServer {
  const server = new McpServer({ name: options.name, version: options.version }, { capabilities: { tools: {} } });
  registerFolderTools(server, options);
  return server;
}

/**
 * Serves over this process's stdin and stdout. Nothing else may write to stdout. stdin reaches
 * the SDK's transport through a line guard (./stdio-guard.ts): a line over
 * {@link MAX_LINE_BYTES}, a line that is not JSON, or a message the SDK would not answer is
 * answered with one JSON-RPC error, and the server keeps serving.
 *
 * @example
 * const handle = serveFolderStdio(options);
 * process.on("SIGTERM", () => void handle.close());
 */
export function serveFolderStdio(options: FolderServerOptions, log: (line: string) => void): { close(): Promise<void> } {
  let transport: StdioServerTransport | undefined;
  const guard = createLineGuard((refusal) => {
    const error = { jsonrpc: "2.0" as const, id: refusal.id, error: { code: refusal.code, message: refusal.message } };
    // A refusal's id may be null (the SDK's types allow it only on errors, as JSON-RPC does).
    transport?.send(error as Parameters<StdioServerTransport["send"]>[0]).catch((failure: unknown) => log(`stdio error: ${String(failure)}`));
  }, log);
  process.stdin.pipe(guard);
  transport = new StdioServerTransport(guard, process.stdout, { maxBufferSize: MAX_LINE_BYTES + 16 });
  return serveStdio(() => createFolderServer(options), { transport, onerror: (error) => log(`stdio error: ${error.message}`) });
}

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
export interface HttpListen {
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
}

/**
 * Serves over Streamable HTTP at `http://host:port/mcp`. Whether the server is on loopback is
 * decided by the address it bound (`server.address()`), not by the spelling of `host`. On
 * loopback, or whenever `allowedHosts` is given, the `Host` and `Origin` headers are checked
 * (DNS-rebinding protection; see ./http-guard.ts); with a token every request needs it. The
 * timeouts, the connection cap, the body cap and the batch cap of {@link HTTP_LIMITS} bound what
 * one client can hold.
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
  let guard: ReturnType<typeof createRequestGuard> | undefined;
  // The header and request timeouts are checked at this interval (Node: every 30 s).
  const checking = Math.max(100, Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 2);
  const server = createServer({ connectionsCheckingInterval: checking }, (req, res) => {
    if (guard === undefined) {
      res.writeHead(503, { connection: "close" }).end(); // not listening yet: never served unchecked
      return;
    }
    if (!guard(req, res)) return;
    const path = (req.url ?? "/").split("?", 1)[0];
    if (path !== MCP_PATH) {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end(`Not found. The MCP endpoint is ${MCP_PATH}.\n`);
      return;
    }
    void (async () => {
      let parsed: { readonly body: unknown } | undefined;
      if (req.method === "POST") {
        parsed = await readJsonBody(req, res, limits);
        if (parsed === undefined) return;
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
  server.maxConnections = limits.maxConnections;
  server.setTimeout(limits.socketIdleTimeoutMs, (socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(listen.port, listen.host.replace(/^\[(.*)\]$/, "$1"), () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port, address } = server.address() as AddressInfo;
  guard = createRequestGuard({ address, allowedHosts: listen.allowedHosts ?? [], allowedOrigins: listen.allowedOrigins ?? [], token: listen.token });
  const hostInUrl = listen.host.includes(":") && !listen.host.startsWith("[") ? `[${listen.host}]` : listen.host;
  return {
    url: `http://${hostInUrl}:${port}${MCP_PATH}`,
    server,
    loopback: isLoopbackAddress(address),
    close: async () => {
      await handler.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
