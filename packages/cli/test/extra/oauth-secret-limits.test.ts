/**
 * The consent page's limits on wrong secrets, behind `--public-url` (which trusts the proxy's
 * `X-Forwarded-For`): five from one address per 15 minutes, twenty from everyone per hour. In the
 * extra tier: thirty scrypt checks of the owner's secret cost about 3 s of CPU.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveInProcess, type ServedInProcess } from "../_cli-serve.js";
import { openConsent, OWNER_SECRET, REDIRECT_URI } from "../oauth/_oauth-client.js";

const folder = mkdtempSync(join(tmpdir(), "mcp-search-oauth-limits-"));
writeFileSync(join(folder, "note.md"), "# A note\n\nPrivate.\n");

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

describe("--oauth behind --public-url", () => {
  let proxied: ServedInProcess;
  beforeAll(async () => {
    proxied = await serveInProcess([folder, "--http", "127.0.0.1:0", "--oauth", "--public-url", "http://localhost", "--locale", "en"], { MCP_SEARCH_OWNER_SECRET: OWNER_SECRET });
  });
  afterAll(async () => {
    await proxied.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  async function consentPage(): Promise<Awaited<ReturnType<typeof openConsent>>> {
    const local = proxied.url.origin;
    const registered = (await (await fetch(`${local}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none" }) })).json()) as { client_id: string };
    const url = new URL(`${local}/oauth/authorize?response_type=code&code_challenge_method=S256&redirect_uri=${encodeURIComponent(REDIRECT_URI)}`);
    url.searchParams.set("client_id", registered.client_id);
    url.searchParams.set("code_challenge", pkce().challenge);
    const page = await openConsent(url);
    // The page is posted back to its own origin: the public one.
    return { ...page, action: new URL(`http://localhost${url.pathname}`) };
  }

  async function post(page: Awaited<ReturnType<typeof openConsent>>, secret: string, address: string): Promise<{ status: number; location: URL | undefined; html: string }> {
    const response = await fetch(new URL("/oauth/authorize", proxied.url.origin), {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: page.cookie, origin: "http://localhost", "x-forwarded-for": `198.51.100.9, ${address}` },
      body: new URLSearchParams({ ...page.fields, secret, decision: "allow" }),
    });
    const location = response.headers.get("location");
    return { status: response.status, location: location === null ? undefined : new URL(location), html: await response.text() };
  }

  it("names the public URL as issuer and resource", async () => {
    const metadata = (await (await fetch(`${proxied.url.origin}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata["issuer"]).toBe("http://localhost");
    expect(metadata["authorization_endpoint"]).toBe("http://localhost/oauth/authorize");
    expect(metadata["code_challenge_methods_supported"]).toStrictEqual(["S256"]);
  });

  it("refuses a wrong secret, then every attempt from an address after five, then everyone after twenty", async () => {
    const page = await consentPage();
    const wrong = await post(page, "not the secret at all", "203.0.113.1");
    expect(wrong.status).toBe(401);
    expect(wrong.location).toBeUndefined();
    expect(wrong.html).toContain("Wrong secret. Try again.");
    expect(wrong.html).not.toContain("not the secret at all");
    for (let attempt = 2; attempt <= 5; attempt += 1) expect((await post(page, `wrong guess ${attempt}`, "203.0.113.1")).status).toBe(401);
    const locked = await post(page, OWNER_SECRET, "203.0.113.1");
    expect(locked.status).toBe(429);
    expect(locked.html).toContain("Too many wrong attempts. Try again in 15 min.");
    // Another address still gets in: the right secret from it is allowed.
    expect((await post(page, OWNER_SECRET, "203.0.113.2")).status).toBe(303);
    // Twenty wrong secrets from everyone lock the page for everyone, whatever the address.
    for (let address = 10; address < 25; address += 1) await post(await consentPage(), "wrong guess", `203.0.113.${address}`);
    const everyone = await post(await consentPage(), OWNER_SECRET, "203.0.113.99");
    expect(everyone.status).toBe(429);
    expect(proxied.stderr()).not.toContain(OWNER_SECRET);
  });
});
