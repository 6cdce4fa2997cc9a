/**
 * Dynamic client registration (RFC 7591): what a client may register. ChatGPT registers this way
 * (/work/shared/FACTS.md, "How remote hosts authenticate").
 */
import type { RegisteredClient } from "./state.js";

/** The largest number of redirect URIs one client may register. */
const MAX_REDIRECT_URIS = 10;

/** The loopback hosts of RFC 8252 §7.3, on which any port is accepted. */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

/**
 * Why a redirect URI is refused, or `undefined` when it is accepted: an https URI on any host,
 * or an http URI on a loopback host with any port (RFC 8252 §7.3; Claude Code and Cursor register
 * `http://localhost:<port>/callback`). Other schemes (custom ones included), fragments and
 * credentials in the URI are refused.
 *
 * @example
 * refuseRedirectUri("https://chatgpt.com/connector_platform_oauth_redirect"); // => undefined
 * refuseRedirectUri("http://localhost:33418/callback");                        // => undefined
 * refuseRedirectUri("http://evil.example/cb"); // => "http is accepted on a loopback host only (127.0.0.1, [::1], localhost)"
 */
export function refuseRedirectUri(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length > 2000) return "it is not a URI of at most 2000 characters";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "it is not an absolute URI";
  }
  if (url.hash !== "" || value.includes("#")) return "it has a fragment";
  if (url.username !== "" || url.password !== "") return "it carries credentials";
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:") return LOOPBACK_HOSTS.has(url.hostname) ? undefined : "http is accepted on a loopback host only (127.0.0.1, [::1], localhost)";
  return `the scheme ${url.protocol} is not accepted: use https, or http on a loopback host`;
}

/** An RFC 7591 error: `error` and a description that names what is wrong. */
interface RegistrationError {
  readonly error: "invalid_redirect_uri" | "invalid_client_metadata";
  readonly error_description: string;
}

/** What a registration asked for, checked. */
type ClientRequest = Pick<RegisteredClient, "redirectUris" | "authMethod"> & { readonly clientName?: string | undefined };

/**
 * Checks a registration request's metadata; returns what to register or the error to answer.
 * Only the authorization code and refresh token grants, the `code` response type, and the
 * `none`, `client_secret_post` and `client_secret_basic` authentication methods are offered.
 *
 * @example
 * checkRegistration({ redirect_uris: ["myapp://cb"] });
 * // => { error: "invalid_redirect_uri", error_description: "redirect_uris[0] \"myapp://cb\" is refused: the scheme myapp: is not accepted: …" }
 */
export function checkRegistration(body: unknown): ClientRequest | RegistrationError {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return metadataError("the body must be a JSON object");
  const metadata = body as Record<string, unknown>;
  const uris = metadata["redirect_uris"];
  if (!Array.isArray(uris) || uris.length === 0) return { error: "invalid_redirect_uri", error_description: "redirect_uris must be a non-empty array of URIs" };
  if (uris.length > MAX_REDIRECT_URIS) return { error: "invalid_redirect_uri", error_description: `redirect_uris holds at most ${MAX_REDIRECT_URIS} URIs` };
  for (const [index, uri] of uris.entries()) {
    const why = refuseRedirectUri(uri);
    if (why !== undefined) return { error: "invalid_redirect_uri", error_description: `redirect_uris[${index}] ${JSON.stringify(uri).slice(0, 200)} is refused: ${why}` };
  }
  const method = metadata["token_endpoint_auth_method"] ?? "client_secret_basic";
  if (method !== "none" && method !== "client_secret_post" && method !== "client_secret_basic") {
    return metadataError(`token_endpoint_auth_method ${JSON.stringify(method).slice(0, 100)} is not offered: use none, client_secret_post or client_secret_basic`);
  }
  const grants = metadata["grant_types"] ?? ["authorization_code"];
  if (!Array.isArray(grants) || grants.some((grant) => grant !== "authorization_code" && grant !== "refresh_token")) {
    return metadataError("grant_types may hold authorization_code and refresh_token only");
  }
  const responses = metadata["response_types"] ?? ["code"];
  if (!Array.isArray(responses) || responses.some((type) => type !== "code")) return metadataError("response_types may hold code only");
  const name = metadata["client_name"];
  if (name !== undefined && (typeof name !== "string" || name.length > 200)) return metadataError("client_name must be a string of at most 200 characters");
  return { redirectUris: uris as string[], authMethod: method, clientName: name === undefined ? undefined : name.replace(/[\p{Cc}\p{Cf}]/gu, "").trim() || undefined };
}

function metadataError(description: string): RegistrationError {
  return { error: "invalid_client_metadata", error_description: description };
}
