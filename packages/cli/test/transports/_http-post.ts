import { request, type IncomingHttpHeaders } from "node:http";

/** What one request through {@link postMcp} got back. */
export interface RawReply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** The request most HTTP tests send. */
export const TOOLS_LIST = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };

/**
 * One request to http://127.0.0.1:`port`/mcp through Node's client, on a fresh connection, with
 * the MCP content headers and `headers`: `body` as JSON (a string as it is), none for OPTIONS.
 */
export function postMcp(port: string | number, headers: Record<string, string>, body: unknown = TOOLS_LIST, method = "POST"): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: Number(port),
        path: "/mcp",
        method,
        agent: false,
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on("error", reject);
    req.end(method === "OPTIONS" ? undefined : typeof body === "string" ? body : JSON.stringify(body));
  });
}
