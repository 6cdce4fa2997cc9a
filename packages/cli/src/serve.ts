/**
 * The folder's MCP server, and its default transport: stdio, for Claude Desktop and any host that
 * spawns a subprocess. Streamable HTTP lives in ./http.ts, loaded only with `--http`.
 */
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { createLineGuard, MAX_LINE_BYTES } from "./stdio-guard.js";
import { registerFolderTools, type FolderToolsOptions } from "./tools.js";

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
