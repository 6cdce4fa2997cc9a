import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createIndex } from "@sbissoli/mcp-search";
import { afterEach, describe, expect, it } from "vitest";
import { openSnapshotCache, type SnapshotFile } from "../../src/folder/snapshot.js";
import { AS_ROOT, BIN as BIN_PATH, NOBODY, StdioBin } from "../_cli-spawn.js";

const idOf = (relative: string) => `doc:${relative}`;
const FILES: ReadonlyMap<string, SnapshotFile> = new Map([
  ["a/café.md", { size: 12, modified: 1767225600000, changed: 1767225600001, title: "Café", format: "markdown" }],
  ["big.md", { size: 9_000_000, modified: 1767225600000, changed: 1767225600000 }],
]);
const INDEX = () => createIndex([{ id: "doc:a/café.md", title: "Café", url: "file:///srv/docs/a/caf%C3%A9.md", text: "O café coado" }], { ranking: "bm25" });
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A saved snapshot, and the path of its file. */
function saved(options: Record<string, unknown> = { ranking: "bm25" }, files = FILES): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), "mcp-search-snapshot-"));
  dirs.push(dir);
  openSnapshotCache(dir, "/srv/docs", options, idOf, () => undefined).save(INDEX(), files);
  const [name] = readdirSync(dir).filter((file) => file.endsWith(".snapshot"));
  return { dir, file: join(dir, name as string) };
}

function reopen(dir: string, options: Record<string, unknown> = { ranking: "bm25" }) {
  const lines: string[] = [];
  const loaded = openSnapshotCache(dir, "/srv/docs", options, idOf, (line) => lines.push(line)).load();
  return { lines, loaded };
}

describe("openSnapshotCache", () => {
  it("gives back the saved index and files, and leaves no temporary file", () => {
    const { dir } = saved();
    const { lines, loaded } = reopen(dir);
    expect(loaded?.files).toStrictEqual(FILES);
    expect(loaded?.index.search("cafe")).toStrictEqual(INDEX().search("cafe"));
    expect(lines).toStrictEqual([expect.stringMatching(/^snapshot: 1 documents in /)]);
    expect(readdirSync(dir).filter((file) => !file.endsWith(".snapshot"))).toStrictEqual([]);
  });

  it("gives nothing, and says nothing, when there is no snapshot yet", () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-search-snapshot-"));
    dirs.push(dir);
    expect(reopen(dir)).toStrictEqual({ lines: [], loaded: undefined });
  });

  const latin1 = (bytes: Buffer) => bytes.toString("latin1");
  it.each([
    ["foreign", (text: string) => `{"magic":"other"}\n${text.slice(text.indexOf("\n") + 1)}`, /not an mcp-search snapshot/],
    ["old-version", (text: string) => text.replace('"version":3', '"version":2'), /has version 2, not 3/],
    ["tampered", (text: string) => text.replace("markdown", "markdowN"), /content does not match its checksum/],
    ["truncated", (text: string) => text.slice(0, -3), /length does not match its header/],
    ["garbage", () => "\u0000\u0001 not json", /not an mcp-search snapshot/],
  ])("ignores a %s snapshot with one line on stderr, and trusts none of it", (_kind, spoil, why) => {
    const { dir, file } = saved();
    writeFileSync(file, Buffer.from(spoil(latin1(readFileSync(file))), "latin1"));
    const { lines, loaded } = reopen(dir);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^snapshot ignored: /);
    expect(lines[0]).toMatch(why);
    expect(loaded).toBeUndefined();
  });

  it("ignores a snapshot made with other options", () => {
    const { dir } = saved({ ranking: "bm25" });
    const { lines, loaded } = reopen(dir, { ranking: "rule" });
    expect(lines).toStrictEqual([expect.stringMatching(/^snapshot ignored: .*another folder or other options/)]);
    expect(loaded).toBeUndefined();
  });

  it("ignores a snapshot whose file table does not name its index's documents", () => {
    const { dir } = saved({ ranking: "bm25" }, new Map([["b.md", { size: 1, modified: 1, changed: 1, title: "B", format: "markdown" }]]));
    const { lines, loaded } = reopen(dir);
    expect(lines).toStrictEqual([expect.stringMatching(/^snapshot ignored: .*names a document its index lacks/)]);
    expect(loaded).toBeUndefined();
  });
});

describe("openSnapshotCache: a cache folder others could write", () => {
  /** A fresh folder under the system's temporary folder, removed after the test. */
  function folder(): string {
    const dir = mkdtempSync(join(tmpdir(), "mcp-search-cache-"));
    dirs.push(dir);
    return dir;
  }

  it.each([
    [0o777, /writable by others \(mode 777\)/],
    [0o775, /writable by its group \(mode 775\)/],
    [0o1777, /writable by others \(mode 1777\)/],
  ])("refuses a folder of mode %o, with one sentence", (mode, why) => {
    const dir = folder();
    chmodSync(dir, mode);
    expect(() => openSnapshotCache(dir, "/srv/docs", {}, idOf, () => undefined)).toThrow(why);
  });

  it.runIf(AS_ROOT)("refuses a folder owned by another user", () => {
    const dir = folder();
    chownSync(dir, NOBODY.uid, NOBODY.gid);
    expect(() => openSnapshotCache(dir, "/srv/docs", {}, idOf, () => undefined)).toThrow(/belongs to another user \(uid 65534\)/);
  });

  it("creates a missing folder only its user can enter", () => {
    const dir = join(folder(), "new", "cache");
    openSnapshotCache(dir, "/srv/docs", {}, idOf, () => undefined);
    expect(spawnSync("stat", ["-c", "%a", dir], { encoding: "utf8" }).stdout.trim()).toBe("700");
  });
});

describe("openSnapshotCache: nothing at a name is followed or waited on", () => {

  /** The snapshot path a cache in `dir` uses for /srv/docs. */
  function snapshotPath(dir: string): string {
    openSnapshotCache(dir, "/srv/docs", { ranking: "bm25" }, idOf, () => undefined).save(INDEX(), FILES);
    const [name] = readdirSync(dir).filter((file) => file.endsWith(".snapshot"));
    rmSync(join(dir, name as string));
    return join(dir, name as string);
  }

  it("never writes through a link planted at the old temporary name (pid-based)", () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-search-cache-"));
    dirs.push(dir);
    const path = snapshotPath(dir);
    const victim = join(dir, "victim.txt");
    writeFileSync(victim, "precious");
    symlinkSync(victim, `${path}.${process.pid}.tmp`);
    openSnapshotCache(dir, "/srv/docs", { ranking: "bm25" }, idOf, () => undefined).save(INDEX(), FILES);
    expect(readFileSync(victim, "utf8")).toBe("precious");
    expect(reopen(dir).loaded?.files).toStrictEqual(FILES);
  });

  it.each([
    ["a link to /dev/zero", (path: string) => symlinkSync("/dev/zero", path), /it is a symbolic link/],
    ["a FIFO", (path: string) => void spawnSync("mkfifo", [path]), /it is not a regular file/],
    ["a folder", (path: string) => mkdirSync(path), /it is not a regular file/],
  ])("ignores %s at the snapshot path at once, with one line", (_kind, plant, why) => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-search-cache-"));
    dirs.push(dir);
    plant(snapshotPath(dir));
    const { lines, loaded } = reopen(dir);
    expect(loaded).toBeUndefined();
    expect(lines).toStrictEqual([expect.stringMatching(why)]);
  });
});

describe("--cache in the built bin", () => {
  it("answers initialize and searches while a FIFO sits at the snapshot path", async () => {
    const cache = mkdtempSync(join(tmpdir(), "mcp-search-cache-"));
    const docs = mkdtempSync(join(tmpdir(), "mcp-search-docs-"));
    dirs.push(cache, docs);
    writeFileSync(join(docs, "a.md"), "# A\n\nzebrafish notes\n");
    // The snapshot's name is a hash of the folder's real path (./snapshot.ts).
    const name = `mcp-search-${createHash("sha256").update(realpathSync(docs)).digest("hex").slice(0, 16)}.snapshot`;
    expect(spawnSync("mkfifo", [join(cache, name)]).status).toBe(0);
    const server = new StdioBin(["serve", docs, "--locale", "en", "--cache", cache]);
    try {
      await server.open();
      await server.untilIndexed();
      expect((await server.search("zebrafish")).results.map((hit) => hit.id)).toStrictEqual(["doc:a.md"]);
      expect(server.stderr.join("\n")).toMatch(/snapshot ignored: .*it is not a regular file/);
    } finally {
      server.close();
    }
  });

  it("exits with one sentence for a cache folder others can write", () => {
    const cache = mkdtempSync(join(tmpdir(), "mcp-search-cache-"));
    const docs = mkdtempSync(join(tmpdir(), "mcp-search-docs-"));
    dirs.push(cache, docs);
    chmodSync(cache, 0o777);
    const run = spawnSync(process.execPath, [BIN_PATH, "serve", docs, "--cache", cache], { encoding: "utf8", input: "", timeout: 10_000 });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split("\n")).toStrictEqual([expect.stringMatching(/^mcp-search: --cache .* is writable by others \(mode 777\), who could forge its snapshot/)]);
  });
});
