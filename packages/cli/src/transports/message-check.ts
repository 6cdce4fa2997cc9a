/**
 * The checks the SDK does not answer well, made before a message reaches it: where the SDK
 * would drop a message without a reply (a line that is not JSON, `params` that is not an
 * object) or answer with a multi-line validation dump (`arguments: null`), the server answers
 * one JSON-RPC error in one sentence instead.
 */

/**
 * A JSON-RPC error to send in place of the SDK's handling, or `undefined` when the message may
 * go on. `id` is the request's id, or `null` when it has none that can be echoed.
 *
 * @example
 * const refusal: MessageRefusal = { id: 1, code: -32602, message: "Invalid params: …" };
 */
export interface MessageRefusal {
  readonly id: string | number | null;
  readonly code: number;
  readonly message: string;
}

/** JSON-RPC error codes. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
const INVALID_PARAMS = -32602;

/**
 * Checks one parsed JSON-RPC message (not a batch). `params`, when present, must be an object;
 * a `tools/call` must name its tool and pass `arguments` as an object when it passes them.
 *
 * @example
 * checkMessage({ jsonrpc: "2.0", id: 1, method: "tools/list", params: "x" });
 * // => { id: 1, code: -32600, message: "Invalid Request: params must be an object." }
 */
export function checkMessage(message: unknown): MessageRefusal | undefined {
  if (!isObject(message)) return { id: null, code: INVALID_REQUEST, message: "Invalid Request: a JSON-RPC message must be an object." };
  // A notification gets no reply, whatever is wrong with it: the SDK drops it and logs.
  if (!("id" in message)) return undefined;
  const id = typeof message["id"] === "string" || typeof message["id"] === "number" ? message["id"] : null;
  if (!("params" in message) || message["params"] === undefined) return undefined;
  const params = message["params"];
  if (!isObject(params)) return { id, code: INVALID_REQUEST, message: "Invalid Request: params must be an object." };
  if (message["method"] === "tools/call" && "arguments" in params && !isObject(params["arguments"])) {
    return { id, code: INVALID_PARAMS, message: "Invalid params: arguments must be an object, such as {\"query\": \"…\"}." };
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
