/**
 * The whole OAuth flow against the BUILT bin over HTTP, driven by the SDK's own OAuth client as a
 * host drives it: discovery from a 401, registration, the consent page fetched, filled and posted
 * as a browser would, the code exchanged with PKCE, search, fetch and resources/read answered, a
 * refresh, a restart that keeps the grant, and `mcp-search revoke` that ends it.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import { afterAll, describe, expect, it } from "vitest";
import { BIN, startBin, type SpawnedServer } from "../_cli-spawn.js";
import { answerConsent, MemoryOAuthProvider, openConsent, OWNER_SECRET, REDIRECT_URI } from "./_oauth-client.js";

const folder = mkdtempSync(join(tmpdir(), "mcp-search-oauth-docs-"));
const state = mkdtempSync(join(tmpdir(), "mcp-search-oauth-state-"));
writeFileSync(join(folder, "cold-brew.md"), "# Cold brew ratios\n\nOne part coffee to eight parts water, steeped for sixteen hours.\n");
const environment = { ...process.env, MCP_SEARCH_OWNER_SECRET: OWNER_SECRET };
let server: SpawnedServer | undefined;

afterAll(async () => {
  await server?.stop();
  rmSync(folder, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
});

function serve(listen: string): Promise<SpawnedServer> {
  return startBin(["serve", folder, "--http", listen, "--oauth", "--state", state, "--locale", "en"], { env: environment });
}

async function connect(url: URL, provider: MemoryOAuthProvider): Promise<Client> {
  const client = new Client({ name: "oauth-host", version: "0.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  return client;
}

describe("mcp-search serve --oauth", () => {
  it("lets the SDK's OAuth client in with the owner's consent, refreshes, and keeps the grant across a restart", async () => {
    server = await serve("127.0.0.1:0");
    const url = server.url;
    const provider = new MemoryOAuthProvider();

    // Discovery from the 401, then registration, then the redirect to the consent page.
    const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
    await expect(new Client({ name: "oauth-host", version: "0.0.0" }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.information?.client_id).toMatch(/^[\w-]{22}$/);
    const authorizationUrl = provider.authorizationUrl!;
    expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(`${url.origin}/oauth/authorize`);
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizationUrl.searchParams.get("resource")).toBe(url.href);

    // The consent page, filled and posted as a browser would.
    const page = await openConsent(authorizationUrl);
    expect(page.status).toBe(200);
    expect(page.html).toContain("Test host");
    expect(page.html).toContain("127.0.0.1:53682");
    expect(page.html).toContain(folder.split("/").at(-1));
    const answer = await answerConsent(page, OWNER_SECRET);
    expect(answer.status).toBe(303);
    expect(`${answer.location!.origin}${answer.location!.pathname}`).toBe(REDIRECT_URI);
    expect(answer.location!.searchParams.get("iss")).toBe(url.origin);

    // The code, exchanged with PKCE by the SDK.
    await first.finishAuth(answer.location!.searchParams);
    expect(provider.saved?.token_type).toBe("Bearer");
    const client = await connect(url, provider);
    const found = (await client.callTool({ name: "search", arguments: { query: "cold brew" } })) as { structuredContent: { results: { id: string }[] } };
    expect(found.structuredContent.results.map((hit) => hit.id)).toStrictEqual(["doc:cold-brew.md"]);
    const fetched = (await client.callTool({ name: "fetch", arguments: { id: "doc:cold-brew.md" } })) as { structuredContent: { text: string } };
    expect(fetched.structuredContent.text).toContain("eight parts water");
    const read = await client.readResource({ uri: "mcp-search://doc/cold-brew.md" });
    expect((read.contents[0] as { text: string }).text).toContain("sixteen hours");

    // A refresh: the access token spoiled, the SDK refreshes on the 401 and gets a new refresh token.
    const firstRefresh = provider.saved!.refresh_token;
    provider.saved = { ...provider.saved!, access_token: "spoiled" };
    const again = (await client.callTool({ name: "search", arguments: { query: "water" } })) as { structuredContent: { results: unknown[] } };
    expect(again.structuredContent.results).toHaveLength(1);
    expect(provider.saved.access_token).not.toBe("spoiled");
    expect(provider.saved.refresh_token).toBeDefined();
    expect(provider.saved.refresh_token).not.toBe(firstRefresh);
    await client.close();

    // A restart on the same address keeps the grant: the access token, then a refresh.
    await server.stop();
    server = await serve(`127.0.0.1:${url.port}`);
    expect(server.stderr()).toContain("1 grant alive");
    const afterRestart = await connect(server.url, provider);
    expect(((await afterRestart.callTool({ name: "search", arguments: { query: "cold brew" } })) as { isError?: boolean }).isError).toBeUndefined();
    const beforeRefresh = provider.saved.refresh_token;
    provider.saved = { ...provider.saved, access_token: "spoiled" };
    await afterRestart.callTool({ name: "search", arguments: { query: "coffee" } });
    expect(provider.saved.refresh_token).not.toBe(beforeRefresh);
    await afterRestart.close();

    // `mcp-search revoke` ends every grant, and the running server notices before the next request.
    const revoked = spawnSync(process.execPath, [BIN, "revoke", "--state", state], { encoding: "utf8" });
    expect(revoked.status).toBe(0);
    expect(revoked.stderr).toContain("1 grant ended");
    const locked = await fetch(server.url, {
      method: "POST",
      headers: { authorization: `Bearer ${provider.saved.access_token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(locked.status).toBe(401);

    // Nothing secret in the state folder or the log.
    const stored = readdirSync(state).map((name) => readFileSync(join(state, name), "utf8")).join("\n");
    const log = server.stderr();
    for (const secret of [OWNER_SECRET, provider.saved.access_token, provider.saved.refresh_token!, firstRefresh!]) {
      expect(stored).not.toContain(secret);
      expect(log).not.toContain(secret);
    }
  });
});
