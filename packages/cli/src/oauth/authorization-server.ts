/**
 * The folder server's own OAuth 2.1 authorization server (`--oauth`), so that ChatGPT and
 * claude.ai, whose connectors offer OAuth or nothing (/work/shared/FACTS.md, "How remote hosts
 * authenticate"), can reach a private folder with the owner's consent. It follows the MCP
 * authorization specification (2025-11-25):
 *
 * - protected resource metadata (RFC 9728) at `/.well-known/oauth-protected-resource[/mcp]`,
 *   named by the `WWW-Authenticate` header of every 401 of the MCP endpoint;
 * - authorization server metadata (RFC 8414) at `/.well-known/oauth-authorization-server`;
 * - dynamic client registration (RFC 7591) at `/oauth/register` (./registration.ts);
 * - the authorization code grant with PKCE, S256 only, at `/oauth/authorize`, where the owner
 *   sees a consent page (./consent-page.ts) and types their secret;
 * - resource indicators (RFC 8707): every token is bound to this server's MCP URL, and a
 *   `resource` that names anything else is refused;
 * - access tokens of one hour (JWTs, ./credentials.ts), refresh tokens of 30 days that rotate
 *   on every use (one used twice revokes its whole grant), and revocation (RFC 7009) at
 *   `/oauth/revoke`.
 *
 * `/authorize`, `/token` and `/register` on the root answer too: some clients guess those paths
 * instead of reading the metadata (claude.ai, anthropics/claude-ai-mcp#846).
 *
 * Nothing here writes a token, a code or a secret into a reply other than the one that issues
 * it, nor into a log line.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { OAuthError, OAuthErrorCode, bearerAuthChallengeResponse, buildOAuthProtectedResourceMetadata, getOAuthProtectedResourceMetadataUrl, verifyBearerToken, type AuthInfo } from "@modelcontextprotocol/server";
import type { Locale } from "@sbissoli/mcp-search";
import { consentTexts, renderConsentPage, renderErrorPage } from "./consent-page.js";
import { digestToken, isCodeChallenge, randomToken, sameDigest, secretMatches, signAccessToken, verifierMatches, verifyAccessToken, type SecretHash } from "./credentials.js";
import { createWindowCounter } from "./rate-limit.js";
import { answerPreflight, basicCredentials, cookieValue, MAX_BODY_BYTES, parseForm, readBody, redirect, repeatedParameter, sendJson, sendMetadata, sendPage, sendRefusal, sendTokens, type Refusal } from "./http-replies.js";
import { checkRegistration } from "./registration.js";
import type { Grant, OAuthState, RegisteredClient, StateStore } from "./state.js";

/**
 * The lifetimes and caps of the authorization server.
 *
 * @example
 * const limits: OAuthLimits = { ...OAUTH_LIMITS, accessTokenSeconds: 600 };
 */
interface OAuthLimits {
  readonly accessTokenSeconds: number;
  readonly refreshTokenSeconds: number;
  readonly codeSeconds: number;
  readonly consentSeconds: number;
  readonly maxClients: number;
  readonly maxGrants: number;
  readonly maxPending: number;
  readonly registrationsPerAddress: number;
  readonly registrationsTotal: number;
  readonly registrationWindowMs: number;
  readonly wrongSecretsPerAddress: number;
  readonly wrongSecretsPerAddressWindowMs: number;
  readonly wrongSecretsTotal: number;
  readonly wrongSecretsTotalWindowMs: number;
}

/** The defaults. */
const OAUTH_LIMITS: OAuthLimits = {
  /** Access tokens live one hour: short, since a JWT cannot be taken back before it ends but through its grant. */
  accessTokenSeconds: 3600,
  /** A refresh token lives 30 days, and each use gives a new one. */
  refreshTokenSeconds: 30 * 24 * 3600,
  /** An authorization code must be exchanged within one minute. */
  codeSeconds: 60,
  /** A consent page must be answered within ten minutes. */
  consentSeconds: 600,
  /** Registered clients kept; beyond, the oldest without a grant is forgotten. */
  maxClients: 100,
  /** Grants kept; beyond, the oldest ends. */
  maxGrants: 1000,
  /** Consent pages and codes waiting at once. */
  maxPending: 1000,
  /** Registrations from one address, and from all, per window. */
  registrationsPerAddress: 20,
  registrationsTotal: 120,
  registrationWindowMs: 3_600_000,
  /** Wrong owner's secrets from one address per 15 minutes; then that address waits. */
  wrongSecretsPerAddress: 5,
  wrongSecretsPerAddressWindowMs: 15 * 60_000,
  /** Wrong owner's secrets from everyone per hour; then the consent page waits for everyone. */
  wrongSecretsTotal: 20,
  wrongSecretsTotalWindowMs: 3_600_000,
};

/** The one scope this server grants: reading the folder. */
const SCOPE = "read";

/**
 * Options of {@link createAuthorizationServer}.
 *
 * @example
 * const options: AuthorizationServerOptions = { issuer: "https://mcp.example.com", mcpPath: "/mcp", store, ownerSecret, locale: "en", folders: ["notes"], log, trustForwardedFor: true };
 */
interface AuthorizationServerOptions {
  /** The issuer: `--public-url`, or the server's own `http://127.0.0.1:<port>`. No trailing slash. */
  readonly issuer: string;
  /** The MCP endpoint's path; issuer + path is the resource every token is bound to. */
  readonly mcpPath: string;
  readonly store: StateStore;
  /** The scrypt hash of the owner's secret (./owner-secret.ts). */
  readonly ownerSecret: SecretHash;
  /** The consent page's language. */
  readonly locale: Locale;
  /** The folders the consent page names. */
  readonly folders: readonly string[];
  readonly log: (line: string) => void;
  /** Read the client's address from `X-Forwarded-For` (its last entry, the proxy's own): only behind `--public-url`. */
  readonly trustForwardedFor: boolean;
  /** The clock. @default Date.now */
  readonly now?: (() => number) | undefined;
  /** @default OAUTH_LIMITS */
  readonly limits?: Partial<OAuthLimits> | undefined;
}

/**
 * The authorization server, and the check of the MCP endpoint's bearer tokens.
 *
 * @example
 * const oauth = createAuthorizationServer(options);
 * if (oauth.handles(path)) return void oauth.handle(req, res, path);
 */
export interface AuthorizationServer {
  /** The resource every token is bound to: issuer + MCP path. */
  readonly resource: string;
  /** Where the protected resource metadata is, as the 401's `WWW-Authenticate` names it. */
  readonly resourceMetadataUrl: string;
  /** True for a path this server answers (metadata, authorize, token, register, revoke). */
  handles(path: string): boolean;
  /** Answers a request for one of its paths. Never throws. */
  handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
  /**
   * Checks the request's bearer token for the MCP endpoint: its `AuthInfo`, or `false` after
   * answering 401 with the challenge that leads to the metadata.
   */
  authenticate(req: IncomingMessage, res: ServerResponse): Promise<AuthInfo | false>;
}

/** A consent page shown and not yet answered. */
interface PendingConsent {
  readonly clientId: string;
  readonly redirectUri: string;
  /** The request named its redirect URI (then the token request must name it too; OAuth 2.1 §4.1.3). */
  readonly redirectNamed: boolean;
  readonly challenge: string;
  readonly state: string | undefined;
  readonly csrf: string;
  readonly expiresAt: number;
}

/** An authorization code issued and not yet expired; `grantId` once exchanged. */
interface IssuedCode {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly redirectNamed: boolean;
  readonly challenge: string;
  readonly expiresAt: number;
  grantId?: string;
}


const PATHS = {
  authorize: ["/oauth/authorize", "/authorize"],
  token: ["/oauth/token", "/token"],
  register: ["/oauth/register", "/register"],
  revoke: ["/oauth/revoke", "/revoke"],
} as const;
const AUTHORIZATION_SERVER_METADATA_PATH = "/.well-known/oauth-authorization-server";
const RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource";
/** The cookie that binds a consent form to the browser that fetched it. */
const CSRF_COOKIE = "mcp_search_consent";

/**
 * Creates the authorization server; see the module comment.
 *
 * @example
 * const oauth = createAuthorizationServer({ issuer: "http://127.0.0.1:8787", mcpPath: "/mcp", store, ownerSecret, locale: "en", folders: ["docs"], log, trustForwardedFor: false });
 * oauth.resourceMetadataUrl; // => "http://127.0.0.1:8787/.well-known/oauth-protected-resource/mcp"
 */
export function createAuthorizationServer(options: AuthorizationServerOptions): AuthorizationServer {
  const { issuer, store, log, locale } = options;
  const now = options.now ?? Date.now;
  const limits: OAuthLimits = { ...OAUTH_LIMITS, ...options.limits };
  const resource = `${issuer}${options.mcpPath}`;
  const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(new URL(resource));
  const secureCookie = issuer.startsWith("https:");
  const endpoint = (name: keyof typeof PATHS) => `${issuer}${PATHS[name][0]}`;
  const authorizationServerMetadata = {
    issuer,
    authorization_endpoint: endpoint("authorize"),
    token_endpoint: endpoint("token"),
    registration_endpoint: endpoint("register"),
    revocation_endpoint: endpoint("revoke"),
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none", "client_secret_post", "client_secret_basic"],
    revocation_endpoint_auth_methods_supported: ["none", "client_secret_post", "client_secret_basic"],
    scopes_supported: [SCOPE],
    authorization_response_iss_parameter_supported: true,
  };
  // The SDK checks the issuer (https, or a loopback host) when it builds the document; a
  // loopback issuer is what the server uses without --public-url, which accepts http only there.
  const resourceMetadata = buildOAuthProtectedResourceMetadata({
    oauthMetadata: authorizationServerMetadata,
    resourceServerUrl: new URL(resource),
    scopesSupported: [SCOPE],
    resourceName: "mcp-search",
    dangerouslyAllowInsecureIssuerUrl: issuer.startsWith("http:"),
  });
  const texts = consentTexts(locale);
  const pending = new Map<string, PendingConsent>();
  const codes = new Map<string, IssuedCode>();
  const wrongByAddress = createWindowCounter({ limit: limits.wrongSecretsPerAddress, windowMs: limits.wrongSecretsPerAddressWindowMs, now });
  const wrongTotal = createWindowCounter({ limit: limits.wrongSecretsTotal, windowMs: limits.wrongSecretsTotalWindowMs, now, maxKeys: 1 });
  const registrationsByAddress = createWindowCounter({ limit: limits.registrationsPerAddress, windowMs: limits.registrationWindowMs, now });
  const registrationsTotal = createWindowCounter({ limit: limits.registrationsTotal, windowMs: limits.registrationWindowMs, now, maxKeys: 1 });
  const signingKey = (state: OAuthState) => Buffer.from(state.signingKey, "base64url");

  /** The client's address: the socket's, or behind --public-url the proxy's last X-Forwarded-For entry. */
  const addressOf = (req: IncomingMessage): string => {
    const forwarded = options.trustForwardedFor ? req.headers["x-forwarded-for"] : undefined;
    const last = (Array.isArray(forwarded) ? forwarded.join(",") : forwarded)?.split(",").at(-1)?.trim();
    return last !== undefined && last !== "" ? last.slice(0, 64) : (req.socket.remoteAddress ?? "unknown");
  };

  /** Drops expired consents and codes; beyond the cap, the oldest. */
  const sweep = (): void => {
    const time = now();
    for (const map of [pending, codes] as const) {
      for (const [key, entry] of map) if (entry.expiresAt <= time) map.delete(key);
      while (map.size >= limits.maxPending) map.delete(map.keys().next().value!);
    }
  };

  /** Ends a grant, and says so. */
  const endGrant = (grantId: string, why: string): void => {
    let ended: Grant | undefined;
    store.update((state) => {
      ended = state.grants.find((grant) => grant.id === grantId);
      return ended === undefined ? state : { ...state, grants: state.grants.filter((grant) => grant.id !== grantId) };
    });
    if (ended !== undefined) log(`oauth: grant of ${clientLabel(store.read(), ended.clientId)} ended: ${why}`);
  };

  // ---- the MCP endpoint's bearer tokens ----------------------------------------------------

  const verifier = {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      const state = store.read();
      const claims = await verifyAccessToken(signingKey(state), issuer, token, now());
      if (claims === undefined) throw new OAuthError(OAuthErrorCode.InvalidToken, "The access token is invalid or expired");
      if (!state.grants.some((grant) => grant.id === claims.grantId)) throw new OAuthError(OAuthErrorCode.InvalidToken, "The access token's grant was revoked");
      return { token, clientId: claims.clientId, scopes: [claims.scope], expiresAt: claims.expiresAt, resource: new URL(claims.resource) };
    },
  };

  async function authenticate(req: IncomingMessage, res: ServerResponse): Promise<AuthInfo | false> {
    try {
      return await verifyBearerToken(req.headers.authorization, { verifier, expectedResource: new URL(resource), resourceMetadataUrl });
    } catch (error) {
      const answer = bearerAuthChallengeResponse(error, { resourceMetadataUrl });
      const headers: Record<string, string> = { "content-type": "application/json", "cache-control": "no-store" };
      const challenge = answer.headers.get("www-authenticate");
      if (challenge !== null) headers["www-authenticate"] = challenge;
      res.writeHead(answer.status, headers).end(await answer.text());
      return false;
    }
  }

  // ---- the endpoints -----------------------------------------------------------------------

  async function handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    try {
      if (path === AUTHORIZATION_SERVER_METADATA_PATH) return sendMetadata(req, res, authorizationServerMetadata);
      if (path === RESOURCE_METADATA_PATH || path === `${RESOURCE_METADATA_PATH}${options.mcpPath}`) return sendMetadata(req, res, resourceMetadata);
      if (isOneOf(path, PATHS.authorize)) return req.method === "POST" ? await decide(req, res) : showConsent(req, res);
      if (req.method === "OPTIONS") return answerPreflight(res);
      if (req.method !== "POST") return sendRefusal(res, { status: 405, error: "invalid_request", description: `${req.method ?? "?"} is not allowed here: use POST` }, { allow: "POST, OPTIONS" });
      const body = await readBody(req);
      if (body === undefined) return sendRefusal(res, { status: 413, error: "invalid_request", description: `the body is over ${MAX_BODY_BYTES} bytes` });
      if (isOneOf(path, PATHS.register)) return register(req, res, body);
      const form = parseForm(req, body);
      if ("status" in form) return sendRefusal(res, form);
      if (isOneOf(path, PATHS.token)) return await exchange(req, res, form);
      return await revoke(req, res, form);
    } catch (error) {
      log(`oauth error: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) sendRefusal(res, { status: 500, error: "server_error", description: "the authorization server failed; try again" });
    }
  }

  function register(req: IncomingMessage, res: ServerResponse, body: string): void {
    const address = addressOf(req);
    if (registrationsByAddress.full(address) || registrationsTotal.full("all")) {
      const wait = Math.max(registrationsByAddress.retryAfter(address), registrationsTotal.retryAfter("all"));
      return sendRefusal(res, { status: 429, error: "invalid_client_metadata", description: `too many registrations: try again in ${wait} s` }, { "retry-after": String(wait) });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return sendRefusal(res, { status: 400, error: "invalid_client_metadata", description: "the body is not JSON" });
    }
    const request = checkRegistration(parsed);
    if ("error" in request) return sendRefusal(res, { status: 400, error: request.error, description: request.error_description });
    registrationsByAddress.add(address);
    registrationsTotal.add("all");
    const secret = request.authMethod === "none" ? undefined : randomToken();
    const client: RegisteredClient = {
      clientId: randomToken(16),
      ...(request.clientName !== undefined && { clientName: request.clientName }),
      redirectUris: request.redirectUris,
      authMethod: request.authMethod,
      ...(secret !== undefined && { secretHash: digestToken(secret) }),
      issuedAt: Math.floor(now() / 1000),
    };
    let refused = false;
    store.update((state) => {
      let clients = state.clients;
      if (clients.length >= limits.maxClients) {
        const granted = new Set(state.grants.map((grant) => grant.clientId));
        const idle = clients.find((known) => !granted.has(known.clientId));
        if (idle === undefined) {
          refused = true;
          return state;
        }
        clients = clients.filter((known) => known !== idle);
      }
      return { ...state, clients: [...clients, client] };
    });
    if (refused) {
      return sendRefusal(res, { status: 400, error: "invalid_client_metadata", description: `this server holds ${limits.maxClients} clients, each with a live grant: end them with mcp-search revoke` });
    }
    log(`oauth: client registered: ${clientLabel(store.read(), client.clientId)}, returning to ${request.redirectUris.map((uri) => new URL(uri).host).join(", ")}`);
    sendJson(res, 201, {
      client_id: client.clientId,
      ...(secret !== undefined && { client_secret: secret, client_secret_expires_at: 0 }),
      client_id_issued_at: client.issuedAt,
      ...(client.clientName !== undefined && { client_name: client.clientName }),
      redirect_uris: client.redirectUris,
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: client.authMethod,
      scope: SCOPE,
    });
  }

  /** GET /oauth/authorize: checks the request, then shows the consent page. */
  function showConsent(req: IncomingMessage, res: ServerResponse): void {
    const query = new URL(req.url ?? "/", "http://x").searchParams;
    const client = store.read().clients.find((known) => known.clientId === query.get("client_id"));
    if (client === undefined) return sendPage(res, 400, (nonce) => renderErrorPage(locale, texts.unknownClient, nonce));
    const asked = query.get("redirect_uri");
    const redirectUri = asked ?? (client.redirectUris.length === 1 ? client.redirectUris[0]! : undefined);
    // An exact match, or no redirect at all: an attacker's URI never receives an error or a code.
    if (redirectUri === undefined || !client.redirectUris.includes(redirectUri)) return sendPage(res, 400, (nonce) => renderErrorPage(locale, texts.badRedirect, nonce));
    const state = query.get("state") ?? undefined;
    const back = (error: string, description: string) => redirect(res, redirectUri, { error, error_description: description, ...(state !== undefined && { state }), iss: issuer });
    if (repeatedParameter(query) !== undefined) return back("invalid_request", `the parameter ${repeatedParameter(query)} is repeated`);
    if (query.get("response_type") !== "code") return back("unsupported_response_type", "response_type must be code");
    const challenge = query.get("code_challenge") ?? "";
    if (query.get("code_challenge_method") !== "S256" || !isCodeChallenge(challenge)) return back("invalid_request", "PKCE is required: code_challenge_method=S256 with a code_challenge");
    const asked_resource = query.get("resource");
    if (asked_resource !== null && !sameResource(asked_resource, resource)) return back("invalid_target", `this server grants access to ${resource} only`);
    sweep();
    const requestId = randomToken();
    const csrf = randomToken();
    pending.set(requestId, { clientId: client.clientId, redirectUri, redirectNamed: asked !== null, challenge, state, csrf, expiresAt: now() + limits.consentSeconds * 1000 });
    res.setHeader("set-cookie", `${CSRF_COOKIE}=${csrf}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${limits.consentSeconds}${secureCookie ? "; Secure" : ""}`);
    sendPage(res, 200, (nonce) => renderConsentPage({ locale, clientName: client.clientName, returnHost: new URL(redirectUri).host, folders: options.folders, requestId, csrf, nonce }));
  }

  /** POST /oauth/authorize: the owner's answer. */
  async function decide(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // The body is read before any answer: a reply sent while the client still writes its body
    // resets the connection, and the client sees ECONNRESET instead of the page.
    const body = await readBody(req);
    // The form posts to its own origin; a browser names the page that sent it (CSRF, with the token below).
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== new URL(issuer).origin) return sendPage(res, 403, (nonce) => renderErrorPage(locale, texts.expired, nonce));
    const form = new URLSearchParams(body ?? "");
    const consent = pending.get(form.get("request") ?? "");
    const csrf = form.get("csrf") ?? "";
    const cookie = cookieValue(req.headers.cookie, CSRF_COOKIE) ?? "";
    if (body === undefined || consent === undefined || consent.expiresAt <= now() || csrf === "" || !sameDigest(csrf, consent.csrf) || !sameDigest(cookie, consent.csrf)) {
      return sendPage(res, 403, (nonce) => renderErrorPage(locale, texts.expired, nonce));
    }
    const requestId = form.get("request")!;
    const client = store.read().clients.find((known) => known.clientId === consent.clientId);
    if (client === undefined) return sendPage(res, 400, (nonce) => renderErrorPage(locale, texts.unknownClient, nonce));
    const state = consent.state === undefined ? {} : { state: consent.state };
    if (form.get("decision") !== "allow") {
      pending.delete(requestId);
      log(`oauth: access denied to ${clientLabel(store.read(), client.clientId)}`);
      return redirect(res, consent.redirectUri, { error: "access_denied", error_description: "the owner denied access", ...state, iss: issuer });
    }
    const again = (status: number, notice: string) =>
      sendPage(res, status, (nonce) => renderConsentPage({ locale, clientName: client.clientName, returnHost: new URL(consent.redirectUri).host, folders: options.folders, requestId, csrf: consent.csrf, nonce, notice }));
    const address = addressOf(req);
    // Counted before the slow check, so that many guesses sent at once cannot all pass the limit.
    if (wrongByAddress.full(address) || wrongTotal.full("all")) {
      const wait = Math.max(wrongByAddress.retryAfter(address), wrongTotal.retryAfter("all"));
      res.setHeader("retry-after", String(wait));
      return again(429, texts.tooMany(Math.ceil(wait / 60)));
    }
    wrongByAddress.add(address);
    wrongTotal.add("all");
    const secret = form.get("secret") ?? "";
    if (secret === "" || secret.length > 1024 || !(await secretMatches(secret, options.ownerSecret))) {
      log(`oauth: wrong owner's secret on the consent page for ${clientLabel(store.read(), client.clientId)} (${wrongByAddress.count(address)} from this address in a row)`);
      return again(401, texts.wrongSecret);
    }
    wrongByAddress.forgetLatest(address);
    wrongTotal.forgetLatest("all");
    pending.delete(requestId);
    sweep();
    const code = randomToken();
    codes.set(digestToken(code), { clientId: client.clientId, redirectUri: consent.redirectUri, redirectNamed: consent.redirectNamed, challenge: consent.challenge, expiresAt: now() + limits.codeSeconds * 1000 });
    log(`oauth: access allowed to ${clientLabel(store.read(), client.clientId)}`);
    redirect(res, consent.redirectUri, { code, ...state, iss: issuer });
  }

  /** POST /oauth/token. */
  async function exchange(req: IncomingMessage, res: ServerResponse, form: URLSearchParams): Promise<void> {
    const client = authenticateClient(req, form, store.read());
    if ("status" in client) return sendRefusal(res, client);
    const askedResource = form.get("resource");
    if (askedResource !== null && !sameResource(askedResource, resource)) return sendRefusal(res, { status: 400, error: "invalid_target", description: `this server issues tokens for ${resource} only` });
    const grantType = form.get("grant_type");
    if (grantType === "authorization_code") return sendTokens(res, await redeemCode(client, form));
    if (grantType === "refresh_token") return sendTokens(res, await refresh(client, form));
    sendRefusal(res, { status: 400, error: "unsupported_grant_type", description: "grant_type must be authorization_code or refresh_token" });
  }

  async function redeemCode(client: RegisteredClient, form: URLSearchParams): Promise<Refusal | Record<string, unknown>> {
    const key = digestToken(form.get("code") ?? "");
    const issued = codes.get(key);
    if (issued === undefined || issued.expiresAt <= now() || issued.clientId !== client.clientId) return invalidGrant("the code is unknown, expired or not this client's");
    if (issued.grantId !== undefined) {
      // A code used twice: whoever used it first may be a thief; the grant it gave ends (RFC 6749 §4.1.2).
      endGrant(issued.grantId, "its authorization code was used twice");
      codes.delete(key);
      return invalidGrant("the code was already used: the grant it gave has been revoked");
    }
    const redirectUri = form.get("redirect_uri");
    if (redirectUri !== issued.redirectUri && (issued.redirectNamed || redirectUri !== null)) return invalidGrant("redirect_uri does not match the authorization request's");
    if (!verifierMatches(form.get("code_verifier") ?? "", issued.challenge)) return invalidGrant("code_verifier does not match the code_challenge");
    const refreshToken = randomToken();
    const grant: Grant = {
      id: randomToken(16),
      clientId: client.clientId,
      resource,
      scope: SCOPE,
      createdAt: Math.floor(now() / 1000),
      refreshHash: digestToken(refreshToken),
      refreshExpiresAt: Math.floor(now() / 1000) + limits.refreshTokenSeconds,
      usedRefreshHashes: [],
    };
    issued.grantId = grant.id;
    const state = store.update((current) => ({ ...current, grants: [...current.grants, grant].slice(-limits.maxGrants) }));
    return tokenReply(state, grant, refreshToken);
  }

  async function refresh(client: RegisteredClient, form: URLSearchParams): Promise<Refusal | Record<string, unknown>> {
    const presented = digestToken(form.get("refresh_token") ?? "");
    const state = store.read();
    const reused = state.grants.find((grant) => grant.usedRefreshHashes.some((used) => sameDigest(used, presented)));
    if (reused !== undefined) {
      // A rotated token seen again: one of its two holders is a thief, and nobody can tell which.
      endGrant(reused.id, "a refresh token was used twice");
      return invalidGrant("the refresh token was already used: its grant has been revoked");
    }
    const grant = state.grants.find((known) => sameDigest(known.refreshHash, presented));
    if (grant === undefined || grant.clientId !== client.clientId || grant.refreshExpiresAt <= now() / 1000) return invalidGrant("the refresh token is unknown, expired, revoked or not this client's");
    const refreshToken = randomToken();
    const rotated: Grant = {
      ...grant,
      refreshHash: digestToken(refreshToken),
      refreshExpiresAt: Math.floor(now() / 1000) + limits.refreshTokenSeconds,
      usedRefreshHashes: [...grant.usedRefreshHashes, grant.refreshHash].slice(-64),
    };
    const next = store.update((current) => ({ ...current, grants: current.grants.map((known) => (known.id === grant.id ? rotated : known)) }));
    return tokenReply(next, rotated, refreshToken);
  }

  async function tokenReply(state: OAuthState, grant: Grant, refreshToken: string): Promise<Record<string, unknown>> {
    const expiresAt = Math.floor(now() / 1000) + limits.accessTokenSeconds;
    const accessToken = await signAccessToken(signingKey(state), issuer, { grantId: grant.id, clientId: grant.clientId, scope: grant.scope, resource: grant.resource, expiresAt }, now());
    return { access_token: accessToken, token_type: "Bearer", expires_in: limits.accessTokenSeconds, refresh_token: refreshToken, scope: grant.scope };
  }

  /** POST /oauth/revoke (RFC 7009): ends the grant of a refresh or access token; 200 whatever the token. */
  async function revoke(req: IncomingMessage, res: ServerResponse, form: URLSearchParams): Promise<void> {
    const state = store.read();
    const client = authenticateClient(req, form, state);
    if ("status" in client) return sendRefusal(res, client);
    const token = form.get("token") ?? "";
    const presented = digestToken(token);
    let grant = state.grants.find((known) => sameDigest(known.refreshHash, presented));
    if (grant === undefined) {
      const claims = await verifyAccessToken(signingKey(state), issuer, token, now());
      grant = state.grants.find((known) => known.id === claims?.grantId);
    }
    if (grant !== undefined && grant.clientId === client.clientId) endGrant(grant.id, "revoked by its client");
    res.writeHead(200, { "cache-control": "no-store", "content-length": "0" }).end();
  }

  function authenticateClient(req: IncomingMessage, form: URLSearchParams, state: OAuthState): RegisteredClient | Refusal {
    const basic = basicCredentials(req.headers.authorization);
    const clientId = basic?.id ?? form.get("client_id") ?? "";
    const secret = basic?.secret ?? form.get("client_secret") ?? undefined;
    const client = state.clients.find((known) => known.clientId === clientId);
    const refusal: Refusal = { status: 401, error: "invalid_client", description: "the client is unknown, or its credentials are wrong: register again" };
    if (client === undefined) return refusal;
    if (client.secretHash === undefined) return client;
    if (secret === undefined || !sameDigest(digestToken(secret), client.secretHash)) return refusal;
    return client;
  }

  return {
    resource,
    resourceMetadataUrl,
    handles: (path) =>
      path === AUTHORIZATION_SERVER_METADATA_PATH || path === RESOURCE_METADATA_PATH || path === `${RESOURCE_METADATA_PATH}${options.mcpPath}` || Object.values(PATHS).some((paths) => isOneOf(path, paths)),
    handle,
    authenticate,
  };
}

// ---- small pieces ------------------------------------------------------------------------------

function isOneOf(path: string, paths: readonly string[]): boolean {
  return paths.includes(path);
}

function invalidGrant(description: string): Refusal {
  return { status: 400, error: "invalid_grant", description };
}

/** The client's name for log lines and pages, with its id's start: names are chosen by the client. */
function clientLabel(state: OAuthState, clientId: string): string {
  const name = state.clients.find((client) => client.clientId === clientId)?.clientName;
  return `${name === undefined ? "an unnamed client" : JSON.stringify(name)} (${clientId.slice(0, 6)}…)`;
}

/** True when two resource URIs name the same resource: compared without a fragment and one trailing slash. */
function sameResource(asked: string, resource: string): boolean {
  const bare = (text: string) => {
    const unfragmented = text.split("#", 1)[0]!;
    return unfragmented.endsWith("/") ? unfragmented.slice(0, -1) : unfragmented;
  };
  return bare(asked) === bare(resource);
}

