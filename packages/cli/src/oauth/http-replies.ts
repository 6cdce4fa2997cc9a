/**
 * The HTTP side of the authorization server: reading a small body or form, and writing its
 * replies (JSON with OAuth errors, HTML pages with a strict Content-Security-Policy, redirects
 * to a client), each in one place.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

/** A refusal of the token, registration or revocation endpoint (RFC 6749 §5.2). */
export interface Refusal {
  readonly status: number;
  readonly error: string;
  readonly description: string;
}

/** The largest form or JSON body read: a registration or a token request is under 2 KiB. */
export const MAX_BODY_BYTES = 16 * 1024;

/**
 * The first parameter given twice, which RFC 6749 §3.1 forbids.
 *
 * @example
 * repeatedParameter(new URLSearchParams("a=1&b=2&a=3")); // => "a"
 */
export function repeatedParameter(query: URLSearchParams): string | undefined {
  const seen = new Set<string>();
  for (const key of query.keys()) {
    if (seen.has(key)) return key;
    seen.add(key);
  }
  return undefined;
}

/**
 * The client id and secret of `Authorization: Basic …` (RFC 6749 §2.3.1).
 *
 * @example
 * basicCredentials("Basic YTpi"); // => { id: "a", secret: "b" }
 */
export function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const match = /^Basic[ \t]+([A-Za-z0-9+/=]+)[ \t]*$/i.exec(header ?? "");
  if (match === null) return undefined;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon === -1) return undefined;
  try {
    // RFC 6749 §2.3.1: both parts are form-encoded before they are joined.
    return { id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, " ")), secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, " ")) };
  } catch {
    return undefined;
  }
}

export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=");
  }
  return undefined;
}

/** The body as text, or `undefined` when it is over {@link MAX_BODY_BYTES}. */
export async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      req.resume();
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A form body (`application/x-www-form-urlencoded`) with no parameter repeated. */
export function parseForm(req: IncomingMessage, body: string): URLSearchParams | Refusal {
  const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") return { status: 400, error: "invalid_request", description: "the body must be application/x-www-form-urlencoded" };
  const form = new URLSearchParams(body);
  const repeated = repeatedParameter(form);
  return repeated === undefined ? form : { status: 400, error: "invalid_request", description: `the parameter ${repeated} is repeated` };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", "access-control-allow-origin": "*", ...headers }).end(JSON.stringify(body));
}

export function sendRefusal(res: ServerResponse, refusal: Refusal, headers: Record<string, string> = {}): void {
  sendJson(res, refusal.status, { error: refusal.error, error_description: refusal.description }, headers);
}

export function sendTokens(res: ServerResponse, reply: Refusal | Record<string, unknown>): void {
  if ("status" in reply && "error" in reply) return sendRefusal(res, reply as Refusal);
  sendJson(res, 200, reply, { pragma: "no-cache" });
}

export function sendMetadata(req: IncomingMessage, res: ServerResponse, document: unknown): void {
  if (req.method === "OPTIONS") return answerPreflight(res);
  if (req.method !== "GET" && req.method !== "HEAD") return sendRefusal(res, { status: 405, error: "invalid_request", description: "use GET" }, { allow: "GET, HEAD, OPTIONS" });
  res.writeHead(200, { "content-type": "application/json", "access-control-allow-origin": "*", "cache-control": "public, max-age=300" }).end(req.method === "HEAD" ? undefined : JSON.stringify(document));
}

/** The OAuth endpoints other than the consent page are for any origin's client code (CORS). */
export function answerPreflight(res: ServerResponse): void {
  res.writeHead(204, { "access-control-allow-origin": "*", "access-control-allow-methods": "GET, POST, OPTIONS", "access-control-allow-headers": "authorization, content-type, mcp-protocol-version", "access-control-max-age": "600" }).end();
}

export function sendPage(res: ServerResponse, status: number, render: (nonce: string) => string): void {
  const nonce = randomBytes(16).toString("base64");
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "content-security-policy": `default-src 'none'; style-src 'nonce-${nonce}'; frame-ancestors 'none'; base-uri 'none'`,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    // same-origin, not no-referrer: under no-referrer a browser posts the form with `Origin: null`.
    "referrer-policy": "same-origin",
  });
  res.end(render(nonce));
}

/** 303 to the client's redirect URI with `parameters` added to its query (RFC 6749 §4.1.2). */
export function redirect(res: ServerResponse, redirectUri: string, parameters: Record<string, string>): void {
  const target = new URL(redirectUri);
  for (const [key, value] of Object.entries(parameters)) target.searchParams.set(key, value);
  res.writeHead(303, { location: target.href, "cache-control": "no-store", "referrer-policy": "no-referrer" }).end();
}
