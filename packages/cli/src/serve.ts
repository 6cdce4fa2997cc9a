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
import {
  hostHeaderValidation,
  originValidation,
  toNodeHandler,
  type NodeIncomingMessageLike,
} from "@modelcontextprotocol/node";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
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
 * Serves over this process's stdin and stdout. Nothing else may write to stdout.
 *
 * @example
 * const handle = serveFolderStdio(options);
 * process.on("SIGTERM", () => void handle.close());
 */
export function serveFolderStdio(options: FolderServerOptions, log: (line: string) => void): { close(): Promise<void> } {
  return serveStdio(() => createFolderServer(options), { onerror: (error) => log(`stdio error: ${error.message}`) });
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
  close(): Promise<void>;
}

/** True for the host names that only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Serves over Streamable HTTP at `http://host:port/mcp`. On a loopback host, or whenever
 * `allowedHosts` is given, the `Host` and `Origin` headers must name a loopback host or one of
 * `allowedHosts` (DNS-rebinding protection); a tunnel's public name goes in `allowedHosts`. A
 * non-loopback host without `allowedHosts` leaves those checks to the reverse proxy in front.
 *
 * @example
 * const serving = await serveFolderHttp(options, { host: "127.0.0.1", port: 8787 }, log);
 * serving.url; // => "http://127.0.0.1:8787/mcp"
 */
export async function serveFolderHttp(
  options: FolderServerOptions,
  listen: { readonly host: string; readonly port: number; readonly allowedHosts?: readonly string[] },
  log: (line: string) => void,
): Promise<HttpServing> {
  const onerror = (error: Error) => log(`http error: ${error.message}`);
  const handler = createMcpHandler(() => createFolderServer(options), { onerror });
  const handle = toNodeHandler(handler, { onerror });
  const allowed = listen.allowedHosts ?? [];
  const guarded = isLoopback(listen.host) || allowed.length > 0;
  const names = ["localhost", "127.0.0.1", "[::1]", ...allowed];
  const validateHost = hostHeaderValidation(names);
  const validateOrigin = originValidation(names);
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?", 1)[0];
    if (path !== MCP_PATH) {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end(`Not found. The MCP endpoint is ${MCP_PATH}.\n`);
      return;
    }
    if (guarded && (!validateHost(req, res) || !validateOrigin(req, res))) return;
    handle(req as NodeIncomingMessageLike, res).catch((error: unknown) => {
      onerror(error instanceof Error ? error : new Error(String(error)));
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(listen.port, listen.host.replace(/^\[(.*)\]$/, "$1"), () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const hostInUrl = listen.host.includes(":") && !listen.host.startsWith("[") ? `[${listen.host}]` : listen.host;
  return {
    url: `http://${hostInUrl}:${port}${MCP_PATH}`,
    server,
    close: async () => {
      await handler.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
