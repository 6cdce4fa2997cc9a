/**
 * What `--oauth` refuses, each on its own: a missing, expired or foreign token, a reused code, a
 * wrong PKCE verifier, a redirect URI that does not match, an unregistered client, a wrong secret
 * and too many of them, a missing CSRF token, a refresh token used twice, a revoked grant; and
 * none of these replies or log lines leaks a document, a token or the secret. The server runs in
 * this process (the bin's own parsing and start), over real HTTP.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signAccessToken } from "../../src/oauth/credentials.js";
import { serveInProcess, type ServedInProcess } from "../_cli-serve.js";
import { answerConsent, openConsent, OWNER_SECRET, postForm, REDIRECT_URI } from "./_oauth-client.js";

const DOCUMENT_TEXT = "steeped for sixteen hours";
const STATIC_TOKEN = "static-token-for-scripts-0123456789";
const folder = mkdtempSync(join(tmpdir(), "mcp-search-oauth-refusals-"));
const state = mkdtempSync(join(tmpdir(), "mcp-search-oauth-refusals-state-"));
writeFileSync(join(folder, "cold-brew.md"), `# Cold brew ratios\n\nOne part coffee to eight parts water, ${DOCUMENT_TEXT}.\n`);

let served: ServedInProcess;
let base: string;
/** Every reply body of a refusal, checked for leaks at the end. */
const refusals: string[] = [];
/** Every token issued, checked against the log and the state folder at the end. */
const issued: string[] = [];

beforeAll(async () => {
  served = await serveInProcess([folder, "--http", "127.0.0.1:0", "--oauth", "--state", state, "--locale", "en"], { MCP_SEARCH_OWNER_SECRET: OWNER_SECRET, MCP_SEARCH_TOKEN: STATIC_TOKEN });
  base = served.url.origin;
});

afterAll(async () => {
  await served.stop();
  rmSync(folder, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
});

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

async function register(metadata: Record<string, unknown> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${base}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: "Refusals", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none", ...metadata }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function authorizeUrl(clientId: string, challenge: string, extra: Record<string, string> = {}): URL {
  const url = new URL(`${base}/oauth/authorize`);
  const query = { response_type: "code", client_id: clientId, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: "S256", state: "xyz", resource: `${base}/mcp`, ...extra };
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return url;
}

/** Registers a client, consents with the right secret, and returns the code. */
async function codeFor(): Promise<{ clientId: string; code: string; verifier: string }> {
  const clientId = (await register()).body["client_id"] as string;
  const { verifier, challenge } = pkce();
  const answer = await answerConsent(await openConsent(authorizeUrl(clientId, challenge)), OWNER_SECRET);
  return { clientId, code: answer.location!.searchParams.get("code")!, verifier };
}

async function exchange(clientId: string, code: string, verifier: string, redirectUri = REDIRECT_URI): Promise<{ status: number; body: Record<string, unknown> }> {
  const reply = await postForm(`${base}/oauth/token`, { grant_type: "authorization_code", client_id: clientId, code, code_verifier: verifier, redirect_uri: redirectUri, resource: `${base}/mcp` });
  if (typeof reply.body["access_token"] === "string") issued.push(reply.body["access_token"] as string, reply.body["refresh_token"] as string);
  else refusals.push(JSON.stringify(reply.body));
  return reply;
}

async function refresh(clientId: string, refreshToken: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const reply = await postForm(`${base}/oauth/token`, { grant_type: "refresh_token", client_id: clientId, refresh_token: refreshToken });
  if (typeof reply.body["access_token"] === "string") issued.push(reply.body["access_token"] as string, reply.body["refresh_token"] as string);
  else refusals.push(JSON.stringify(reply.body));
  return reply;
}

/** A tools/call of fetch with `authorization`; the status, the challenge and the body. */
async function callMcp(authorization?: string): Promise<{ status: number; challenge: string | null; body: string }> {
  const response = await fetch(`${base}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(authorization !== undefined && { authorization }) },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "fetch", arguments: { id: "doc:cold-brew.md" } } }),
  });
  const body = await response.text();
  if (response.status !== 200) refusals.push(body);
  return { status: response.status, challenge: response.headers.get("www-authenticate"), body };
}

function signingKey(): Uint8Array {
  const saved = JSON.parse(readFileSync(join(state, "mcp-search-oauth.json"), "utf8")) as { signingKey: string };
  return Buffer.from(saved.signingKey, "base64url");
}

describe("--oauth refuses", () => {
  it("a request without a token, with a 401 that leads to the protected resource metadata", async () => {
    const refused = await callMcp();
    expect(refused.status).toBe(401);
    expect(refused.challenge).toBe(`Bearer error="invalid_token", error_description="Missing Authorization header", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`);
    const metadata = (await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>;
    expect(metadata).toStrictEqual({ resource: `${base}/mcp`, authorization_servers: [base], scopes_supported: ["read"], resource_name: "mcp-search" });
  });

  it("an expired token, and one signed by anyone else", async () => {
    const { clientId, code, verifier } = await codeFor();
    const granted = await exchange(clientId, code, verifier);
    const claims = JSON.parse(Buffer.from((granted.body["access_token"] as string).split(".")[1]!, "base64url").toString()) as { gid: string };
    const past = Date.now() - 2 * 3600_000;
    const expired = await signAccessToken(signingKey(), base, { grantId: claims.gid, clientId, scope: "read", resource: `${base}/mcp`, expiresAt: Math.floor(past / 1000) + 3600 }, past);
    expect((await callMcp(`Bearer ${expired}`)).status).toBe(401);
    const forged = await signAccessToken(randomBytes(32), base, { grantId: claims.gid, clientId, scope: "read", resource: `${base}/mcp`, expiresAt: Math.floor(Date.now() / 1000) + 3600 }, Date.now());
    expect((await callMcp(`Bearer ${forged}`)).status).toBe(401);
    expect((await callMcp(`Bearer ${granted.body["access_token"] as string}`)).status).toBe(200);
  });

  it("a token whose audience is another resource, at the token endpoint and at the MCP endpoint", async () => {
    const { clientId, code, verifier } = await codeFor();
    const other = await postForm(`${base}/oauth/token`, { grant_type: "authorization_code", client_id: clientId, code, code_verifier: verifier, redirect_uri: REDIRECT_URI, resource: "https://other.example/mcp" });
    expect(other).toStrictEqual({ status: 400, body: { error: "invalid_target", error_description: `this server issues tokens for ${base}/mcp only` } });
    const granted = await exchange(clientId, code, verifier);
    const claims = JSON.parse(Buffer.from((granted.body["access_token"] as string).split(".")[1]!, "base64url").toString()) as { gid: string };
    const foreign = await signAccessToken(signingKey(), base, { grantId: claims.gid, clientId, scope: "read", resource: "https://other.example/mcp", expiresAt: Math.floor(Date.now() / 1000) + 3600 }, Date.now());
    const refused = await callMcp(`Bearer ${foreign}`);
    expect(refused.status).toBe(401);
    expect(refused.body).toContain("Token was not issued for this resource");
    const page = await fetch(authorizeUrl(clientId, pkce().challenge, { resource: "https://other.example/mcp" }), { redirect: "manual" });
    expect(new URL(page.headers.get("location")!).searchParams.get("error")).toBe("invalid_target");
  });

  it("a reused code, which also ends the grant the code gave", async () => {
    const { clientId, code, verifier } = await codeFor();
    const granted = await exchange(clientId, code, verifier);
    expect(granted.status).toBe(200);
    const reused = await exchange(clientId, code, verifier);
    expect(reused).toStrictEqual({ status: 400, body: { error: "invalid_grant", error_description: "the code was already used: the grant it gave has been revoked" } });
    expect((await callMcp(`Bearer ${granted.body["access_token"] as string}`)).status).toBe(401);
  });

  it("a wrong PKCE verifier", async () => {
    const { clientId, code } = await codeFor();
    const wrong = await exchange(clientId, code, pkce().verifier);
    expect(wrong).toStrictEqual({ status: 400, body: { error: "invalid_grant", error_description: "code_verifier does not match the code_challenge" } });
  });

  it("a redirect URI that does not match, at the consent page and at the token endpoint", async () => {
    const clientId = (await register()).body["client_id"] as string;
    const { challenge } = pkce();
    for (const redirect of ["http://127.0.0.1:53683/callback", "https://evil.example/callback", `${REDIRECT_URI}/`]) {
      const page = await fetch(authorizeUrl(clientId, challenge, { redirect_uri: redirect }), { redirect: "manual" });
      expect(page.status).toBe(400);
      expect(page.headers.get("location")).toBeNull();
      expect(await page.text()).toContain("The return address is not one the client registered");
    }
    const { clientId: other, code, verifier } = await codeFor();
    const mismatched = await exchange(other, code, verifier, "http://127.0.0.1:53683/callback");
    expect(mismatched.body["error"]).toBe("invalid_grant");
  });

  it("a token request without the redirect URI its authorization request named, and not one that named none", async () => {
    const { clientId, code, verifier } = await codeFor();
    const missing = await postForm(`${base}/oauth/token`, { grant_type: "authorization_code", client_id: clientId, code, code_verifier: verifier });
    expect(missing.body["error_description"]).toBe("redirect_uri does not match the authorization request's");
    // A client with one redirect URI may leave it out of both requests (OAuth 2.1 §4.1.3).
    const only = (await register()).body["client_id"] as string;
    const pair = pkce();
    const url = authorizeUrl(only, pair.challenge);
    url.searchParams.delete("redirect_uri");
    const answer = await answerConsent(await openConsent(url), OWNER_SECRET);
    expect(`${answer.location!.origin}${answer.location!.pathname}`).toBe(REDIRECT_URI);
    const token = await postForm(`${base}/oauth/token`, { grant_type: "authorization_code", client_id: only, code: answer.location!.searchParams.get("code")!, code_verifier: pair.verifier });
    expect(token.status).toBe(200);
    issued.push(token.body["access_token"] as string, token.body["refresh_token"] as string);
  });

  it("an unregistered client, at the consent page and at the token endpoint", async () => {
    const page = await fetch(authorizeUrl("not-a-client", pkce().challenge), { redirect: "manual" });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("This client is not registered with this server");
    const token = await postForm(`${base}/oauth/token`, { grant_type: "authorization_code", client_id: "not-a-client", code: "x", code_verifier: pkce().verifier, redirect_uri: REDIRECT_URI });
    expect(token.status).toBe(401);
    expect(token.body["error"]).toBe("invalid_client");
  });

  it("registrations with a redirect URI of another scheme or host, naming it", async () => {
    for (const uri of ["myapp://callback", "http://evil.example/callback", "javascript:alert(1)", "https://x.example/cb#frag"]) {
      const refused = await register({ redirect_uris: [uri] });
      expect(refused.status).toBe(400);
      expect(refused.body["error"]).toBe("invalid_redirect_uri");
      expect(refused.body["error_description"]).toContain(JSON.stringify(uri));
    }
    for (const uri of ["https://chatgpt.com/connector_platform_oauth_redirect", "http://localhost:33418/callback", "http://127.0.0.1:9/cb", "http://[::1]:8080/cb"]) {
      expect((await register({ redirect_uris: [uri] })).status).toBe(201);
    }
  });

  it("a missing CSRF token, a missing cookie, and a form posted from another origin", async () => {
    const clientId = (await register()).body["client_id"] as string;
    const page = await openConsent(authorizeUrl(clientId, pkce().challenge));
    const withoutToken = await answerConsent(page, OWNER_SECRET, { change: ({ csrf: _csrf, ...rest }) => rest });
    const withoutCookie = await answerConsent({ ...page, cookie: "" }, OWNER_SECRET);
    const crossSite = await answerConsent(page, OWNER_SECRET, { headers: { origin: "https://evil.example" } });
    for (const refused of [withoutToken, withoutCookie, crossSite]) {
      expect(refused.status).toBe(403);
      expect(refused.location).toBeUndefined();
      expect(refused.html).toContain("This request expired or did not come from this page");
    }
  });

  it("a refresh token used twice, which ends the whole grant", async () => {
    const { clientId, code, verifier } = await codeFor();
    const granted = await exchange(clientId, code, verifier);
    const first = granted.body["refresh_token"] as string;
    const rotated = await refresh(clientId, first);
    expect(rotated.status).toBe(200);
    expect(rotated.body["refresh_token"]).not.toBe(first);
    const replayed = await refresh(clientId, first);
    expect(replayed).toStrictEqual({ status: 400, body: { error: "invalid_grant", error_description: "the refresh token was already used: its grant has been revoked" } });
    expect((await refresh(clientId, rotated.body["refresh_token"] as string)).status).toBe(400);
    expect((await callMcp(`Bearer ${rotated.body["access_token"] as string}`)).status).toBe(401);
  });

  it("a grant revoked by its client (RFC 7009), for its access and refresh tokens", async () => {
    const { clientId, code, verifier } = await codeFor();
    const granted = await exchange(clientId, code, verifier);
    const access = granted.body["access_token"] as string;
    expect((await callMcp(`Bearer ${access}`)).status).toBe(200);
    const revoked = await postForm(`${base}/oauth/revoke`, { client_id: clientId, token: access });
    expect(revoked.status).toBe(200);
    expect((await callMcp(`Bearer ${access}`)).status).toBe(401);
    expect((await refresh(clientId, granted.body["refresh_token"] as string)).status).toBe(400);
  });

  it("nothing of --token's: the fixed token still opens the MCP endpoint beside OAuth", async () => {
    expect((await callMcp(`Bearer ${STATIC_TOKEN}`)).status).toBe(200);
    expect((await callMcp("Bearer not-the-static-token-at-all")).status).toBe(401);
  });

  it("answers at /authorize, /token and /register on the root too", async () => {
    const registered = await fetch(`${base}/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none" }) });
    expect(registered.status).toBe(201);
    const clientId = ((await registered.json()) as { client_id: string }).client_id;
    const { verifier, challenge } = pkce();
    const url = authorizeUrl(clientId, challenge);
    url.pathname = "/authorize";
    const answer = await answerConsent(await openConsent(url), OWNER_SECRET);
    const token = await postForm(`${base}/token`, { grant_type: "authorization_code", client_id: clientId, code: answer.location!.searchParams.get("code")!, code_verifier: verifier, redirect_uri: REDIRECT_URI });
    expect(token.status).toBe(200);
    issued.push(token.body["access_token"] as string, token.body["refresh_token"] as string);
  });

  it("a wrong secret: the page again, with no code and without the secret typed", async () => {
    const clientId = (await register()).body["client_id"] as string;
    const wrong = await answerConsent(await openConsent(authorizeUrl(clientId, pkce().challenge)), "not the secret at all");
    expect(wrong.status).toBe(401);
    expect(wrong.location).toBeUndefined();
    expect(wrong.html).toContain("Wrong secret. Try again.");
    expect(wrong.html).not.toContain("not the secret at all");
    refusals.push(wrong.html);
  });

  it("leaks no document, token or secret into a refusal, a log line or the state folder", () => {
    expect(refusals.length).toBeGreaterThan(10);
    const log = served.stderr();
    const stored = readdirSync(state).map((name) => readFileSync(join(state, name), "utf8")).join("\n");
    for (const body of refusals) {
      expect(body).not.toContain(DOCUMENT_TEXT);
      expect(body).not.toContain(OWNER_SECRET);
    }
    expect(issued.length).toBeGreaterThan(10);
    for (const secret of [OWNER_SECRET, STATIC_TOKEN, ...issued]) {
      expect(log).not.toContain(secret);
      expect(stored).not.toContain(secret);
    }
    expect(log).not.toContain(DOCUMENT_TEXT);
  });
});
