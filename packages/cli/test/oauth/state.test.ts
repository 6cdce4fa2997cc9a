/**
 * The OAuth state folder and the owner's secret: kept with the snapshot's care, surviving a
 * restart, and ending every grant when the secret changes.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { refuseRedirectUri } from "../../src/oauth/registration.js";
import { configuredSecret, settleOwnerSecret } from "../../src/oauth/owner-secret.js";
import { openStateStore, STATE_FILE_NAME, type Grant } from "../../src/oauth/state.js";
import { secretMatches } from "../../src/oauth/credentials.js";

const root = mkdtempSync(join(tmpdir(), "mcp-search-oauth-state-test-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let folders = 0;
const fresh = () => join(root, `state-${(folders += 1)}`);
const GRANT: Grant = { id: "g1", clientId: "c1", resource: "http://127.0.0.1:1/mcp", scope: "read", createdAt: 1, refreshHash: "h", refreshExpiresAt: 2, usedRefreshHashes: [] };

describe("openStateStore", () => {
  it("keeps the state in a file of mode 600 in a folder of mode 700, read again by the next store", () => {
    const dir = fresh();
    const store = openStateStore(dir, () => undefined);
    store.update((state) => ({ ...state, grants: [GRANT] }));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, STATE_FILE_NAME)).mode & 0o777).toBe(0o600);
    const again = openStateStore(dir, () => undefined);
    expect(again.read()).toStrictEqual(store.read());
  });

  it("notices a change another process wrote (mcp-search revoke) before the next read", () => {
    const dir = fresh();
    const server = openStateStore(dir, () => undefined);
    server.update((state) => ({ ...state, grants: [GRANT] }));
    openStateStore(dir, () => undefined).update((state) => ({ ...state, grants: [] }));
    expect(server.read().grants).toStrictEqual([]);
  });

  it.each([
    ["a symbolic link", (path: string) => symlinkSync("/etc/passwd", path), "cannot be used: it is a symbolic link"],
    ["a folder", (path: string) => mkdirSync(path), "cannot be used: it is not a regular file"],
    ["a FIFO, without waiting on it", (path: string) => execFileSync("mkfifo", [path]), "cannot be used: it is not a regular file"],
    ["forged JSON", (path: string) => writeFileSync(path, JSON.stringify({ version: 1, signingKey: "x", clients: [], grants: [] })), "is malformed"],
    ["not JSON", (path: string) => writeFileSync(path, "{"), "is malformed"],
  ])("refuses a state file that is %s, with one sentence, and replaces nothing", (_what, make, message) => {
    const dir = fresh();
    mkdirSync(dir, { mode: 0o700 });
    make(join(dir, STATE_FILE_NAME));
    expect(() => openStateStore(dir, () => undefined)).toThrow(message);
  });

  it("refuses a folder others can write", () => {
    const dir = fresh();
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    expect(() => openStateStore(dir, () => undefined)).toThrow(`--state ${dir} is writable by others (mode 777), who could forge a grant: run chmod 700 on it, or use a folder of your own.`);
  });
});

describe("the owner's secret", () => {
  it("is configured by the environment before the file, and refused under twelve characters", () => {
    const file = join(root, "secret.txt");
    writeFileSync(file, "from-the-file-secret\n");
    expect(configuredSecret({ environment: "from-the-environment", file })).toBe("from-the-environment");
    expect(configuredSecret({ environment: "", file })).toBe("from-the-file-secret");
    expect(configuredSecret({})).toBeUndefined();
    expect(() => configuredSecret({ environment: "short" })).toThrow("the owner's secret from MCP_SEARCH_OWNER_SECRET must be 12 to 1024 characters long (it is 5).");
    expect(() => configuredSecret({ file: join(root, "missing") })).toThrow(`--owner-secret-file ${join(root, "missing")} cannot be read: ENOENT.`);
  });

  it("is made once when none is given, printed once, and kept only as a hash", async () => {
    const dir = fresh();
    const printed: string[] = [];
    const first = await settleOwnerSecret(openStateStore(dir, () => undefined), undefined, () => undefined, (secret) => printed.push(secret));
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatch(/^[a-z2-9]{5}(-[a-z2-9]{5}){4}$/);
    expect(await secretMatches(printed[0]!, first)).toBe(true);
    expect(readFileSync(join(dir, STATE_FILE_NAME), "utf8")).not.toContain(printed[0]);
    const restarted = await settleOwnerSecret(openStateStore(dir, () => undefined), undefined, () => undefined, (secret) => printed.push(secret));
    expect(restarted).toStrictEqual(first);
    expect(printed).toHaveLength(1);
  });

  it("ends every grant when it changes, and keeps them when it is the same", async () => {
    const dir = fresh();
    const store = openStateStore(dir, () => undefined);
    const lines: string[] = [];
    await settleOwnerSecret(store, "the-first-secret", (line) => lines.push(line), () => undefined);
    store.update((state) => ({ ...state, grants: [GRANT] }));
    await settleOwnerSecret(openStateStore(dir, () => undefined), "the-first-secret", (line) => lines.push(line), () => undefined);
    expect(store.read().grants).toHaveLength(1);
    await settleOwnerSecret(openStateStore(dir, () => undefined), "the-second-secret", (line) => lines.push(line), () => undefined);
    expect(store.read().grants).toStrictEqual([]);
    expect(lines).toStrictEqual(["oauth: the owner's secret changed: 1 grant ended"]);
  });
});

describe("refuseRedirectUri", () => {
  it.each([
    ["https://chatgpt.com/connector_platform_oauth_redirect", undefined],
    ["https://claude.ai/api/mcp/auth_callback", undefined],
    ["http://localhost:33418/callback", undefined],
    ["http://127.0.0.1:1/cb", undefined],
    ["http://[::1]:65535/cb", undefined],
    ["http://localhost.evil.example/cb", "http is accepted on a loopback host only (127.0.0.1, [::1], localhost)"],
    ["http://127.0.0.2/cb", "http is accepted on a loopback host only (127.0.0.1, [::1], localhost)"],
    ["cursor://anysphere.cursor-mcp/oauth/callback", "the scheme cursor: is not accepted: use https, or http on a loopback host"],
    ["https://user:pass@x.example/cb", "it carries credentials"],
    ["https://x.example/cb#", "it has a fragment"],
    ["/relative", "it is not an absolute URI"],
    [42, "it is not a URI of at most 2000 characters"],
  ])("%j: %s", (uri, why) => {
    expect(refuseRedirectUri(uri)).toBe(why);
  });
});
