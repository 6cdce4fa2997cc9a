/**
 * What the OAuth tests share: the SDK's OAuth client provider kept in memory, as a host keeps it
 * on disk, and a person at the consent page, played as a browser would play it (the page fetched,
 * its hidden fields and cookie kept, the form posted). Not a test file itself.
 */
import type { OAuthClientMetadata, OAuthClientProvider, OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from "@modelcontextprotocol/client";

/** The redirect URI the tests register: a loopback one, as Claude Code and Cursor use. */
export const REDIRECT_URI = "http://127.0.0.1:53682/callback";

/** The owner's secret the tests configure through `MCP_SEARCH_OWNER_SECRET`. */
export const OWNER_SECRET = "correct-horse-battery-staple";

/** An SDK OAuth client provider that keeps everything in memory; `authorizationUrl` is where it was sent. */
export class MemoryOAuthProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  information: StoredOAuthClientInformation | undefined;
  saved: StoredOAuthTokens | undefined;
  private verifier = "";
  private discovery: OAuthDiscoveryState | undefined;

  constructor(private readonly metadata: Partial<OAuthClientMetadata> = {}) {}

  get redirectUrl(): string {
    return REDIRECT_URI;
  }

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: "Test host", redirect_uris: [REDIRECT_URI], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none", ...this.metadata };
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    return this.information;
  }

  saveClientInformation(information: StoredOAuthClientInformation): void {
    this.information = information;
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.saved;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }
}

/** The consent page as a browser received it: its HTML, hidden fields and cookie. */
export interface ConsentPage {
  readonly status: number;
  readonly html: string;
  readonly fields: Record<string, string>;
  readonly cookie: string;
  readonly action: URL;
}

/** GETs the authorization URL as a browser would, and reads the form. */
export async function openConsent(authorizationUrl: URL | string): Promise<ConsentPage> {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  const html = await response.text();
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)) fields[match[1]!] = match[2]!;
  const cookie = (response.headers.get("set-cookie") ?? "").split(";")[0]!;
  return { status: response.status, html, fields, cookie, action: new URL(authorizationUrl) };
}

/** The answer to a posted consent form: a redirect's location, or the page shown again. */
export interface ConsentAnswer {
  readonly status: number;
  readonly location: URL | undefined;
  readonly html: string;
}

/**
 * Posts the consent form as a browser would: the page's fields, `secret` and `decision`, with
 * the page's cookie and its own origin. `change` edits the fields first (a missing CSRF token…).
 */
export async function answerConsent(
  page: ConsentPage,
  secret: string,
  { decision = "allow", change = (fields) => fields, headers = {} }: { decision?: string; change?: (fields: Record<string, string>) => Record<string, string>; headers?: Record<string, string> } = {},
): Promise<ConsentAnswer> {
  const body = new URLSearchParams(change({ ...page.fields, secret, decision }));
  const response = await fetch(page.action, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: page.cookie, origin: page.action.origin, ...headers },
    body,
  });
  const location = response.headers.get("location");
  return { status: response.status, location: location === null ? undefined : new URL(location), html: await response.text() };
}

/** Posts a form to a token-like endpoint and returns its status and JSON. */
export async function postForm(url: URL | string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(fields) });
  const text = await response.text();
  return { status: response.status, body: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>) };
}
