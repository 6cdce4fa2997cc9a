/**
 * The folder's MCP server, and its default transport: stdio, for Claude Desktop and any host that
 * spawns a subprocess. Streamable HTTP lives in ./http.ts, loaded only with `--http`.
 */
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { announceResourceListChangesTo, registerFolderResources } from "../mcp/resources.js";
import { createLineGuard, MAX_LINE_BYTES } from "./stdio-guard.js";
import { registerFolderTools, type FolderToolsOptions } from "../mcp/tools.js";

/**
 * Identity of the server in the MCP handshake, its tools' options, and whether it offers the
 * documents as resources.
 *
 * @example
 * const options: FolderServerOptions = { name: "mcp-search", version: "0.9.0", folder, vocabulary };
 */
export interface FolderServerOptions extends FolderToolsOptions {
  readonly name: string;
  readonly version: string;
  /** Offer the documents as MCP resources (../mcp/resources.ts); `--no-resources` sets it to false. @default true */
  readonly resources?: boolean | undefined;
  /** Documents per `resources/list` page. @default 500 (RESOURCE_PAGE_SIZE) */
  readonly resourcePageSize?: number | undefined;
}

/**
 * A new McpServer with the folder's `search` and `fetch`, and its documents as resources unless
 * `resources` is false.
 *
 * @example
 * const server = createFolderServer({ name: "mcp-search", version: "0.9.0", folder, vocabulary });
 * await server.connect(transport);
 */
export function createFolderServer(options: FolderServerOptions): McpServer {
  const server = new McpServer({ name: options.name, version: options.version }, { capabilities: { tools: {} } });
  registerFolderTools(server, options);
  if (options.resources !== false) {
    registerFolderResources(server, { folder: options.folder, locale: options.locale, pageSize: options.resourcePageSize, maxChars: options.maxChars });
  }
  return server;
}

/**
 * Serves over this process's stdin and stdout. Nothing else may write to stdout. stdin reaches
 * the SDK's transport through a line guard (./stdio-guard.ts): a line over
 * {@link MAX_LINE_BYTES}, a line that is not JSON, or a message the SDK would not answer is
 * answered with one JSON-RPC error, and the server keeps serving. A change to the folder's documents
 * is announced to the client with `notifications/resources/list_changed`, once per burst.
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
  const factory = () => {
    const server = createFolderServer(options);
    if (options.resources !== false) announceResourceListChangesTo(server, options.folder);
    return server;
  };
  return serveStdio(factory, { transport, onerror: (error) => log(`stdio error: ${error.message}`) });
}
