import { spawn } from "node:child_process";
import { mkdirSync, renameSync, rmSync, watch, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, rename, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createVocabulary } from "@sbissoli/mcp-search";
import { openFolder, type Folder, type FolderOptions } from "../../src/folder/folder.js";
import { createFolderServer } from "../../src/transports/serve.js";

const BIN = fileURLToPath(new URL("../../dist/mcp-search.js", import.meta.url));
const ROUNDS = 15;

let root: string;
const open: { folder: Folder; client: Client }[] = [];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "mcp-search-watch-"));
});

afterEach(async () => {
  for (const { folder, client } of open.splice(0)) {
    await client.close();
    folder.close();
  }
  await rm(root, { recursive: true, force: true });
});

async function connect(options: Partial<FolderOptions> = {}) {
  const vocabulary = createVocabulary({ locale: "en", sourceName: "the folder", entries: [] });
  const folder = await openFolder({ root, vocabulary, ...options });
  await folder.ready;
  const server = createFolderServer({ name: "test", version: "0.0.0", folder, vocabulary, locale: "en" });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: "test-client", version: "0.0.0" });
  await client.connect(clientTransport);
  open.push({ folder, client });
  const search = async (query: string) => {
    const result = (await client.callTool({ name: "search", arguments: { query } })) as { structuredContent?: { results?: { id: string }[] } };
    return (result.structuredContent?.results ?? []).map((hit) => hit.id).sort();
  };
  return { folder, search };
}

/** A body whose size differs every round, so a change is seen even within one mtime tick. */
const body = (round: number) => `# Note\n\n${"x".repeat(round + 1)} token${round}`;

describe("openFolder: changes seen by the watch", () => {
  // Each change is followed at once by a call: the refresh must see the kernel's event even when
  // the change was made synchronously inside an I/O callback (the await on stat below). Each
  // change returns the query to ask and the ids it must find.
  const changes: [string, (round: number) => Promise<[string, string[]]>][] = [
    ["an edit written asynchronously", async (round) => {
      await writeFile(join(root, "a.md"), body(round));
      return [`token${round}`, ["doc:a.md"]];
    }],
    ["an edit written synchronously in an I/O callback", async (round) => {
      await stat(root);
      writeFileSync(join(root, "a.md"), body(round));
      return [`token${round}`, ["doc:a.md"]];
    }],
    ["a new file in a new folder", async (round) => {
      await stat(root);
      mkdirSync(join(root, `new-${round}`));
      writeFileSync(join(root, `new-${round}`, "b.md"), body(round));
      return [`token${round}`, [`doc:new-${round}/b.md`]];
    }],
    ["a rename", async (round) => {
      await stat(root);
      const [from, to] = round % 2 === 0 ? ["a.md", "c.md"] : ["c.md", "a.md"];
      renameSync(join(root, from), join(root, to));
      return ["alpha", [`doc:${to}`]];
    }],
    ["a deletion", async (round) => {
      await stat(root);
      writeFileSync(join(root, `e-${round}.md`), "# E\n\nomega");
      if (round > 0) rmSync(join(root, `e-${round - 1}.md`));
      return ["omega", [`doc:e-${round}.md`]];
    }],
    ["a folder deleted and made again, then edited inside", async (round) => {
      await stat(root);
      // Even rounds replace the folder; odd rounds only edit inside it (the new folder's watch).
      if (round % 2 === 0) {
        rmSync(join(root, "sub"), { recursive: true, force: true });
        mkdirSync(join(root, "sub"));
      }
      writeFileSync(join(root, "sub", "d.md"), body(round));
      return [`token${round}`, ["doc:sub/d.md"]];
    }],
    ["a folder moved away and another made with the same nested path", async (round) => {
      await stat(root);
      // The moved folder's watches follow it; the new nested folder needs watches of its own.
      if (round % 2 === 0) {
        mkdirSync(join(root, ".attic"), { recursive: true });
        renameSync(join(root, "sub"), join(root, ".attic", `sub-${round}`));
        mkdirSync(join(root, "sub", "deep"), { recursive: true });
      }
      writeFileSync(join(root, "sub", "deep", "d.md"), body(round));
      return [`token${round}`, ["doc:sub/deep/d.md"]];
    }],
  ];

  it.each(changes)("picks up %s on the very next call, every time", async (_name, change) => {
    mkdirSync(join(root, "sub", "deep"), { recursive: true });
    writeFileSync(join(root, "a.md"), "# A\n\nalpha");
    writeFileSync(join(root, "sub", "d.md"), "# D");
    const { folder, search } = await connect();
    expect(folder.watching).toBe(true);
    for (let round = 0; round < ROUNDS; round += 1) {
      const [query, expected] = await change(round);
      expect(await search(query)).toStrictEqual(expected);
    }
  });

  it("re-reads a file reached through a symbolic link whose target sits in another folder (the event comes from there)", async () => {
    await mkdir(join(root, "notes"));
    await writeFile(join(root, "notes", "target.md"), body(0));
    await symlink(join(root, "notes", "target.md"), join(root, "link.md"));
    const { search } = await connect();
    expect((await search("token0")).sort()).toStrictEqual(["doc:link.md", "doc:notes/target.md"]);
    await writeFile(join(root, "notes", "target.md"), body(1));
    expect((await search("token1")).sort()).toStrictEqual(["doc:link.md", "doc:notes/target.md"]);
  });

  it("skips the walk while no event arrived: a deaf watch hides an edit, a full check finds it", async () => {
    await writeFile(join(root, "a.md"), body(0));
    const deaf = (path: string) => watch(path, { persistent: false }, () => undefined);
    const watched = await connect({ watchFolder: deaf });
    const checked = await connect({ watch: false });
    expect([watched.folder.watching, checked.folder.watching]).toStrictEqual([true, false]);
    await writeFile(join(root, "a.md"), body(1));
    expect(await watched.search("token1")).toStrictEqual([]);
    expect(await checked.search("token1")).toStrictEqual(["doc:a.md"]);
    const before = watched.folder.current;
    expect(await watched.search("token0")).toStrictEqual(["doc:a.md"]);
    expect(watched.folder.current).toBe(before);
  });

  it("a refresh asked for during another one checks again after it", async () => {
    await writeFile(join(root, "a.md"), body(0));
    let during: (() => void) | undefined;
    // The watch of a new folder is set up by the walk: the moment to change a folder already listed.
    const spying = (path: string, listener: (event: string, name: string | null) => void) => {
      if (path.endsWith("late")) during?.();
      return watch(path, { persistent: false }, (event, name) => listener(event, name === null ? null : String(name)));
    };
    const { folder } = await connect({ watchFolder: spying });
    await mkdir(join(root, "late"));
    during = () => writeFileSync(join(root, "new.md"), body(1));
    const first = folder.refresh();
    const second = folder.refresh();
    expect((await first).documents.has("new.md")).toBe(false);
    expect((await second).documents.has("new.md")).toBe(true);
  });
});

describe("openFolder: when watching fails", () => {
  it.each(["ENOSPC", "EMFILE", "ENOSYS"])("falls back to a full check on every call after %s, with one line of log", async (code) => {
    await mkdir(join(root, "sub"));
    await writeFile(join(root, "a.md"), body(0));
    const lines: string[] = [];
    const failing = () => {
      throw Object.assign(new Error(`${code}: watch failed`), { code });
    };
    const { folder, search } = await connect({ watchFolder: failing, log: (line) => lines.push(line) });
    expect(folder.watching).toBe(false);
    await writeFile(join(root, "sub", "b.md"), body(1));
    expect(await search("token1")).toStrictEqual(["doc:sub/b.md"]);
    await rename(join(root, "a.md"), join(root, "sub", "a.md"));
    expect(await search("token0")).toStrictEqual(["doc:sub/a.md"]);
    expect(lines.filter((line) => line.includes("watch"))).toStrictEqual([
      `watching ${folder.root} failed (${code}): checking every file on each call instead`,
    ]);
  });

  it("keeps watching past a folder that vanished between the listing and its watch", async () => {
    await writeFile(join(root, "a.md"), body(0));
    const gone = (path: string, listener: (event: string, name: string | null) => void) => {
      if (path.endsWith("gone")) throw Object.assign(new Error("ENOENT: no such folder"), { code: "ENOENT" });
      return watch(path, { persistent: false }, (event, name) => listener(event, name === null ? null : String(name)));
    };
    await mkdir(join(root, "gone"));
    const { folder, search } = await connect({ watchFolder: gone });
    expect(folder.watching).toBe(true);
    await writeFile(join(root, "a.md"), body(1));
    expect(await search("token1")).toStrictEqual(["doc:a.md"]);
  });

  it("checks every file once closed", async () => {
    await writeFile(join(root, "a.md"), body(0));
    const { folder, search } = await connect();
    folder.close();
    expect(folder.watching).toBe(false);
    await writeFile(join(root, "a.md"), body(1));
    expect(await search("token1")).toStrictEqual(["doc:a.md"]);
  });
});

describe("mcp-search serve: the watch keeps nothing alive", () => {
  it("exits 0 when stdin closes, with a watched folder of nested folders", async () => {
    await mkdir(join(root, "a", "b"), { recursive: true });
    await writeFile(join(root, "a", "b", "c.md"), "# C");
    const child = spawn(process.execPath, [BIN, "serve", root], { stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes("serving")) child.stdin.end();
    });
    const status = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill();
        resolve(null);
      }, 10_000);
      child.on("exit", (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
    expect(status).toBe(0);
  });
});
