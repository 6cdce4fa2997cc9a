import { spawn, spawnSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createVocabulary } from "@sbissoli/mcp-search";
import { openFolder, type Folder } from "../../src/folder/folder.js";
import { connectInMemory, type MemoryConnection } from "../_cli-memory.js";
import { AS_ROOT, call, connectHttp, NOBODY, startBin, type CallResult, type SpawnedServer } from "../_cli-spawn.js";

/**
 * The folder server under attack: a file swapped for a link to an outside secret while clients
 * search and fetch, paths that cannot be stat'ed, hidden files, and the messages of refused ids.
 * Permission cases run the BUILT bin, as "nobody" when the suite runs as root: a process of
 * another user is what they test. The others talk to the real folder server through a real
 * Client linked in memory.
 */

const SECRET = "SECRETMARK zebrafish hunter2";
let workspace: string;
let root: string;
let outside: string;
const servers: SpawnedServer[] = [];
const clients: Client[] = [];
const folders: Folder[] = [];

beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), "mcp-search-attack-"));
  await chmod(workspace, 0o755); // "nobody" must reach the folder
  root = join(workspace, "docs");
  outside = join(workspace, "outside");
  await mkdir(root);
  await mkdir(outside);
  await writeFile(join(outside, "secret.md"), `# Secret\n\n${SECRET}\n`);
  await writeFile(join(root, "good.md"), "# Good\n\nzebrafish brewing notes, inside the folder\n");
});

afterEach(async () => {
  await Promise.all([...servers.splice(0).map((server) => server.stop()), ...clients.splice(0).map((client) => client.close())]);
  for (const folder of folders.splice(0)) folder.close();
  // GNU chmod and rm walk down with relative paths, so they also clear the over-long chain.
  spawnSync("chmod", ["-R", "u+rwx", workspace]);
  spawnSync("rm", ["-rf", workspace]);
});

/**
 * Serves `root` with a base URL: a `file://` url would name the folder's absolute path, which is
 * the one documented exception to "no absolute path in any answer".
 */
async function serve(args: readonly string[] = [], asNobody = false): Promise<SpawnedServer> {
  const server = await startBin(
    ["serve", root, "--http", "127.0.0.1:0", "--locale", "en", "--base-url", "https://docs.example.org/", ...args],
    asNobody && AS_ROOT ? NOBODY : {},
  );
  servers.push(server);
  return server;
}

/** The same folder server in memory, on the same base URL: `count` clients, one server each. */
async function serveInMemory(count = 1): Promise<MemoryConnection[]> {
  const vocabulary = createVocabulary({ locale: "en", sourceName: "the folder", entries: [] });
  const folder = await openFolder({ root, vocabulary, baseUrl: "https://docs.example.org/" });
  folders.push(folder);
  await folder.ready;
  return Promise.all(Array.from({ length: count }, () => connectInMemory({ name: "mcp-search", version: "0.0.0", vocabulary, folder, locale: "en" }, clients)));
}

function answerText(result: CallResult): string {
  return JSON.stringify(result);
}

describe("containment under a symlink-swap race", () => {
  it("never returns the outside secret while files are swapped for links to it", async () => {
    const files = Array.from({ length: 16 }, (_, index) => `race${index}.md`);
    for (const file of files) await writeFile(join(root, file), "# Race\n\nzebrafish harmless words\n");
    await mkdir(join(root, ".racer")); // hidden: never indexed, the racer's temporary names live here
    const readers = await serveInMemory(3);
    // The racer: a separate process swapping each file for a link to the secret and back, and a
    // folder for a file, for 2 s, while three clients search and fetch.
    const racer = spawn(process.execPath, ["-e", `
      const fs = require("node:fs"); const path = require("node:path");
      const [root, secret, until] = [process.argv[1], process.argv[2], Date.now() + Number(process.argv[3])];
      const files = ${JSON.stringify(files)};
      for (let round = 0; Date.now() < until; round += 1) {
        for (const file of files) {
          const target = path.join(root, file), temp = path.join(root, ".racer", file);
          try { fs.symlinkSync(secret, temp); fs.renameSync(temp, target); } catch {}
          try { fs.writeFileSync(temp, "# Race\\n\\nzebrafish harmless words " + round + "\\n"); fs.renameSync(temp, target); } catch {}
        }
        if (round % 8 !== 0) continue;
        const flip = path.join(root, "flip");
        try { fs.rmSync(flip, { recursive: true, force: true }); fs.mkdirSync(flip); fs.writeFileSync(path.join(flip, "x.md"), "zebrafish flip"); } catch {}
        try { fs.rmSync(flip, { recursive: true, force: true }); fs.writeFileSync(flip, "now a file"); } catch {}
      }`, root, join(outside, "secret.md"), "2000"], { stdio: "ignore" });
    const racing = new Promise<void>((resolve) => racer.once("exit", () => resolve()));
    let done = false;
    void racing.then(() => (done = true));
    let answers = 0;
    let leaks = 0;
    let errors = 0;
    const paths: string[] = [];
    await Promise.all(
      readers.map(async (reader, which) => {
        for (let round = 0; !done && round < 3000; round += 1) {
          const results = [await reader.search("zebrafish hunter2"), await reader.fetch(`doc:${files[(round + which) % files.length] ?? ""}`)];
          for (const result of results) {
            answers += 1;
            const text = answerText(result);
            if (text.includes("SECRETMARK") || text.includes("hunter2 ")) leaks += 1;
            if (text.includes(workspace)) paths.push(text);
          }
          if (results[0]?.isError === true) errors += 1;
        }
      }),
    );
    await racing;
    expect(answers).toBeGreaterThan(20);
    expect(leaks).toBe(0);
    expect(errors).toBe(0);
    expect(paths).toStrictEqual([]);
  }, 30_000);
});

describe("paths that cannot be read", () => {
  it("skips hidden files like hidden folders", async () => {
    await writeFile(join(root, ".secret-notes.md"), "# Notes\n\nquokka private\n");
    await mkdir(join(root, "sub"));
    await writeFile(join(root, "sub", ".hidden.md"), "# Hidden\n\nquokka hidden\n");
    const [server] = await serveInMemory();
    const found = await server!.search("quokka");
    expect(found.structuredContent?.["results"]).toStrictEqual([]);
    expect((await server!.fetch("doc:.secret-notes.md")).isError).toBe(true);
    expect((await server!.fetch("doc:sub/.hidden.md")).isError).toBe(true);
  });

  it("skips and logs a path too long and a folder without search permission, at startup", async () => {
    // A chain of folders whose last file's path is over PATH_MAX (4096): made by a child that
    // walks down with relative paths, since no absolute path can name it.
    const made = spawnSync(process.execPath, ["-e", `
      const fs = require("node:fs");
      process.chdir(process.argv[1]);
      let length = process.argv[1].length;
      while (length < 3850) { const name = "d".repeat(200); fs.mkdirSync(name); process.chdir(name); length += 201; }
      fs.writeFileSync("f".repeat(250) + ".md", "zebrafish too deep");`, root]);
    expect(made.status).toBe(0);
    await mkdir(join(root, "locked"));
    await writeFile(join(root, "locked", "inside.md"), "# Locked\n\nzebrafish locked\n");
    await chmod(join(root, "locked"), 0o644); // listable, not searchable: every stat inside fails
    const server = await serve([], true);
    const client = await connectHttp(server.url);
    const found = await call(client, "search", { query: "zebrafish" });
    expect((found.structuredContent?.["results"] as { id: string }[]).map((hit) => hit.id)).toStrictEqual(["doc:good.md"]);
    expect(server.stderr()).toMatch(/skipped locked\/inside\.md: it cannot be stat'ed \(EACCES\)/);
    expect(server.stderr()).toMatch(/skipped .*\.md: it cannot be stat'ed \(ENAMETOOLONG\)/);
    await client.close();
  });

  it("keeps serving a current index when a bad path appears at run time, with no absolute path in any answer", async () => {
    const server = await serve([], true);
    const client = await connectHttp(server.url);
    expect((await call(client, "search", { query: "zebrafish" })).isError).toBeFalsy();
    await mkdir(join(root, "locked"));
    await writeFile(join(root, "locked", "inside.md"), "# Locked\n\nzebrafish locked\n");
    await chmod(join(root, "locked"), 0o644);
    await mkdir(join(root, "closed"));
    await chmod(join(root, "closed"), 0o000); // cannot even be listed
    const first = await call(client, "search", { query: "zebrafish" });
    expect(first.isError).toBeFalsy();
    expect(answerText(first)).not.toContain(workspace);
    // The run-time walk logs what it skips, as the startup walk does.
    expect(server.stderr()).toMatch(/skipped folder closed: it cannot be read \(EACCES\)/);
    // Later changes are still seen: the index is not frozen at the failure.
    await rm(join(root, "good.md"));
    await writeFile(join(root, "new.md"), "# New\n\nzebrafish fresh\n");
    const later = await call(client, "search", { query: "zebrafish" });
    expect((later.structuredContent?.["results"] as { id: string }[]).map((hit) => hit.id)).toStrictEqual(["doc:new.md"]);
    const gone = await call(client, "fetch", { id: "doc:good.md" });
    expect(gone.isError).toBe(true);
    expect(answerText(gone)).not.toContain(workspace);
    await client.close();
  });

  it("picks up a file that was unreadable and becomes readable, its mtime unchanged", async () => {
    await writeFile(join(root, "late.md"), "# Late\n\nplatypus appears\n");
    await chmod(join(root, "late.md"), 0o000);
    const before = (await stat(join(root, "late.md"))).mtimeMs;
    const server = await serve([], true);
    const client = await connectHttp(server.url);
    expect((await call(client, "search", { query: "platypus" })).structuredContent?.["results"]).toStrictEqual([]);
    expect(server.stderr()).toMatch(/skipped late\.md: it cannot be opened or read \(EACCES\)/);
    expect(server.stderr()).not.toMatch(/late\.md: not readable as UTF-8/);
    await chmod(join(root, "late.md"), 0o644);
    expect((await stat(join(root, "late.md"))).mtimeMs).toBe(before);
    const after = await call(client, "search", { query: "platypus" });
    expect((after.structuredContent?.["results"] as { id: string }[]).map((hit) => hit.id)).toStrictEqual(["doc:late.md"]);
    await client.close();
  });
});

describe("links inside the folder to hidden and vendor files", () => {
  it("serves nothing through a link to .env, .git/config, a hidden file, node_modules or an unsupported file", async () => {
    await writeFile(join(root, ".env"), "API_KEY=sk-live-quokka-0123456789\n");
    await mkdir(join(root, ".git"));
    await writeFile(join(root, ".git", "config"), '[remote "origin"]\n\turl = https://quokka:ghp_token0123@github.com/x/y.git\n');
    await writeFile(join(root, ".secret.md"), "# Secret\n\nquokka private notes\n");
    await mkdir(join(root, "node_modules", "pkg"), { recursive: true });
    await writeFile(join(root, "node_modules", "pkg", "README.md"), "# Pkg\n\nquokka vendored\n");
    await writeFile(join(root, "id_quokka"), "quokka private key\n");
    const links: [string, string][] = [
      ["env.txt", ".env"],
      ["git-config.md", ".git/config"],
      ["secret.md", ".secret.md"],
      ["vendored.md", "node_modules/pkg/README.md"],
      ["key.md", "id_quokka"],
    ];
    for (const [link, target] of links) await symlink(join(root, target), join(root, link));
    const server = await serve();
    const client = await connectHttp(server.url);
    try {
      const found = await call(client, "search", { query: "quokka" });
      expect(found.structuredContent?.["results"]).toStrictEqual([]);
      for (const [link] of links) {
        const fetched = await call(client, "fetch", { id: `doc:${link}` });
        expect(fetched.isError, link).toBe(true);
        expect(answerText(fetched), link).not.toMatch(/quokka|sk-live|ghp_token/);
        await expect(client.readResource({ uri: `mcp-search://doc/${link}` }), link).rejects.toThrow(/no document/i);
      }
      // A link to a served file is still served.
      await symlink(join(root, "good.md"), join(root, "alias.md"));
      const alias = await call(client, "search", { query: "zebrafish" });
      expect((alias.structuredContent?.["results"] as { id: string }[]).map((hit) => hit.id).sort()).toStrictEqual(["doc:alias.md", "doc:good.md"]);
    } finally {
      await client.close();
    }
  });
});

describe("messages of refused ids", () => {
  it("says an id is empty, invalid, holds a NUL or climbs out, each as what it is", async () => {
    const [server] = await serveInMemory();
    const rows: [string, RegExp][] = [
      ["doc:", /it is empty and names no document/],
      ["doc:.", /it is empty and names no document/],
      ["https://docs.example.org/%ZZ.md", /it is not a valid path/],
      ["https://docs.example.org/%00", /it contains a NUL byte/],
      ["doc:../outside/secret.md", /it points outside the served folder/],
    ];
    for (const [id, message] of rows) {
      const result = await server!.fetch(id);
      expect(result.isError, id).toBe(true);
      expect(result.content[0]?.text, id).toMatch(message);
    }
  });
});
