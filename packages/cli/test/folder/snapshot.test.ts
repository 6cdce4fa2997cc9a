import { createHash } from "node:crypto";
import { chmodSync, chownSync, closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createIndex, loadIndex, type SearchIndex } from "@sbissoli/mcp-search";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_SNAPSHOT_BYTES, openSnapshotCache, type SnapshotFile } from "../../src/folder/snapshot.js";

/**
 * Each check of the folder snapshot (../../src/folder/snapshot.ts) on its own, in process: a
 * snapshot forged with a valid checksum, so that the check after the checksum is the one that
 * refuses it, and the exact line each refusal logs. ./cli-snapshot.test.ts covers the same file
 * through the built bin too.
 */

const ROOT = "/srv/docs";
const OPTIONS = { ranking: "rule" };
const idOf = (relative: string) => `doc:${relative}`;
const INDEX = (): SearchIndex =>
  createIndex([
    { id: "doc:a.md", title: "Alpha", url: "https://example.com/a", text: "alpha text" },
    { id: "doc:b.md", title: "Beta", url: "https://example.com/b", text: "beta text" },
  ]);
const FILES: ReadonlyMap<string, SnapshotFile> = new Map<string, SnapshotFile>([
  ["a.md", { size: 10, modified: 1767225600000, changed: 1767225600001, title: "Alpha", format: "markdown" }],
  ["b.md", { size: 9, modified: 1767225600002, changed: 1767225600003, title: "Beta", format: "markdown" }],
  ["huge.md", { size: 9_000_000, modified: 1, changed: 2 }],
]);
/** The rows FILES is saved as. */
const ROWS = [
  ["a.md", 10, 1767225600000, 1767225600001, "Alpha", "markdown"],
  ["b.md", 9, 1767225600002, 1767225600003, "Beta", "markdown"],
  ["huge.md", 9_000_000, 1, 2, null, null],
];

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) {
    chmodSync(dir, 0o700);
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A fresh cache folder of mode 700. */
function cacheFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-search-snapshot-parts-"));
  dirs.push(dir);
  return dir;
}

/** The snapshot file's path for ROOT in `dir`. */
function snapshotPath(dir: string): string {
  return join(dir, `mcp-search-${createHash("sha256").update(ROOT).digest("hex").slice(0, 16)}.snapshot`);
}

/** Opens the cache of ROOT in `dir`, collecting its log lines. */
function open(dir: string, options: Record<string, unknown> = OPTIONS) {
  const lines: string[] = [];
  const cache = openSnapshotCache(dir, ROOT, options, idOf, (line) => lines.push(line));
  return { cache, lines };
}

/** What loading the snapshot in `dir` logs, and gives. */
function load(dir: string) {
  const { cache, lines } = open(dir);
  const loaded = cache.load();
  return { loaded, lines };
}

/**
 * A snapshot file written by hand: the header (with `head` overriding its fields), the table and
 * the index bytes, its lengths and checksum right unless `head` says otherwise.
 */
function forge(dir: string, table: unknown, head: Record<string, unknown> = {}, index: Uint8Array = INDEX().snapshot()): void {
  const tableBytes = Buffer.from(typeof table === "string" ? table : JSON.stringify(table));
  const sha256 = createHash("sha256").update(tableBytes).update(index).digest("hex");
  const fields = { magic: "mcp-search-snapshot", version: 3, fingerprint: JSON.stringify({ root: ROOT, ...OPTIONS }), files: tableBytes.length, index: index.length, sha256, ...head };
  writeFileSync(snapshotPath(dir), Buffer.concat([Buffer.from(`${JSON.stringify(fields)}\n`), tableBytes, index]), { mode: 0o600 });
}

/** The one line a refused snapshot logs. */
function ignored(dir: string, why: string): string {
  return `snapshot ignored: ${snapshotPath(dir)}: ${why}; indexing every file`;
}

describe("openSnapshotCache: save and load", () => {
  it("gives back the index and the files as saved, from a file of mode 600 at the root's name, and leaves nothing else", () => {
    const dir = cacheFolder();
    const saving = open(dir);
    saving.cache.save(INDEX(), FILES);
    expect(saving.lines).toStrictEqual(["snapshot written: 2 documents"]);
    expect(readdirSync(dir)).toStrictEqual([snapshotPath(dir).slice(dir.length + 1)]);
    expect(statSync(snapshotPath(dir)).mode & 0o777).toBe(0o600);
    const { loaded, lines } = load(dir);
    expect(lines).toStrictEqual([`snapshot: 2 documents in ${snapshotPath(dir)}`]);
    expect(loaded?.files).toStrictEqual(FILES);
    expect(loaded?.bytes).toBe(statSync(snapshotPath(dir)).size);
    expect(loaded?.index.search("beta")).toStrictEqual(INDEX().search("beta"));
  });

  it("writes the header, the table and the index bytes, in that order", () => {
    const dir = cacheFolder();
    const index = INDEX();
    open(dir).cache.save(index, FILES);
    const bytes = readFileSync(snapshotPath(dir));
    const end = bytes.indexOf(10);
    const table = Buffer.from(JSON.stringify(ROWS));
    const indexBytes = bytes.subarray(end + 1 + table.length);
    expect(JSON.parse(bytes.subarray(0, end).toString("utf8"))).toStrictEqual({
      magic: "mcp-search-snapshot",
      version: 3,
      fingerprint: JSON.stringify({ root: ROOT, ...OPTIONS }),
      files: table.length,
      index: indexBytes.length,
      sha256: createHash("sha256").update(table).update(indexBytes).digest("hex"),
    });
    expect(bytes.subarray(end + 1, end + 1 + table.length)).toStrictEqual(table);
    expect(loadIndex(new Uint8Array(indexBytes)).search("alpha")).toStrictEqual(index.search("alpha"));
  });

  it("keeps a file read in part, and only that one, marked so", () => {
    const dir = cacheFolder();
    const files = new Map<string, SnapshotFile>([...FILES, ["a.md", { ...FILES.get("a.md")!, partial: true }]]);
    open(dir).cache.save(INDEX(), files);
    expect(load(dir).loaded?.files).toStrictEqual(files);
  });

  it.runIf(process.platform === "linux")("closes every file it opens, loading and saving", () => {
    const dir = cacheFolder();
    const { cache } = open(dir);
    cache.save(INDEX(), FILES);
    cache.load();
    // No descriptor of this process names a file of the cache folder any more.
    const named = readdirSync("/proc/self/fd").map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return "";
      }
    });
    expect(named.filter((path) => path.startsWith(dir))).toStrictEqual([]);
  });

  it("gives nothing and says nothing when there is no snapshot", () => {
    expect(load(cacheFolder())).toStrictEqual({ loaded: undefined, lines: [] });
  });

  it("logs a save that failed, and leaves no temporary file", () => {
    const dir = cacheFolder();
    const { cache, lines } = open(dir);
    const broken = { ...INDEX(), size: 2, snapshot: () => { throw new Error("no bytes today"); } } as SearchIndex;
    cache.save(broken, FILES);
    expect(lines).toStrictEqual(["snapshot not written: no bytes today"]);
    // A folder at the snapshot's name: the temporary file is written, the rename fails.
    mkdirSync(join(snapshotPath(dir), "inside"), { recursive: true });
    cache.save(INDEX(), FILES);
    expect(lines[1]).toMatch(/^snapshot not written: EISDIR: illegal operation on a directory, rename '.*\.[0-9a-f]{16}\.tmp' -> /);
    rmSync(snapshotPath(dir), { recursive: true });
    expect(readdirSync(dir)).toStrictEqual([]);
  });
});

describe("openSnapshotCache: a snapshot is trusted only when every check passes", () => {
  it("loads a forged snapshot that is right in every part", () => {
    const dir = cacheFolder();
    forge(dir, ROWS);
    expect(load(dir).loaded?.files).toStrictEqual(FILES);
  });

  it.each([
    ["no header line", () => "not a snapshot", "it is not an mcp-search snapshot"],
    ["a header with no line break after it", () => `${JSON.stringify({ magic: "mcp-search-snapshot", version: 3, fingerprint: JSON.stringify({ root: ROOT, ...OPTIONS }) })}x`, "it is not an mcp-search snapshot"],
    ["a header that is not JSON", () => "{nope\n", "it is not an mcp-search snapshot"],
    ["a header that is null", () => "null\n", "it is not an mcp-search snapshot"],
  ])("refuses %s", (_kind, text, why) => {
    const dir = cacheFolder();
    writeFileSync(snapshotPath(dir), text());
    expect(load(dir)).toStrictEqual({ loaded: undefined, lines: [ignored(dir, why)] });
  });

  it.each([
    ["another magic", { magic: "mcp-search-snapshoT" }, "it is not an mcp-search snapshot"],
    ["another version", { version: 2 }, "it has version 2, not 3"],
    ["a version as a string", { version: "3" }, 'it has version "3", not 3'],
    ["another folder's fingerprint", { fingerprint: JSON.stringify({ root: "/srv/other", ...OPTIONS }) }, "it was made for another folder or other options"],
    ["a table length that is no integer", { files: 1.5 }, "its length does not match its header"],
    ["an index length that is no integer", { index: "12" }, "its length does not match its header"],
    ["a table length one too long", { files: JSON.stringify(ROWS).length + 1 }, "its length does not match its header"],
    ["lengths in halves that add up", { files: JSON.stringify(ROWS).length + 0.5, index: INDEX().snapshot().length - 0.5 }, "its length does not match its header"],
    ["an index length one too short", { index: INDEX().snapshot().length - 1 }, "its length does not match its header"],
    ["a checksum of other content", { sha256: createHash("sha256").update("other").digest("hex") }, "its content does not match its checksum"],
  ])("refuses a header with %s", (_kind, head, why) => {
    const dir = cacheFolder();
    forge(dir, ROWS, head);
    expect(load(dir)).toStrictEqual({ loaded: undefined, lines: [ignored(dir, why)] });
  });

  it("refuses a snapshot made with other options", () => {
    const dir = cacheFolder();
    open(dir, { ranking: "bm25" }).cache.save(INDEX(), FILES);
    expect(load(dir)).toStrictEqual({ loaded: undefined, lines: [ignored(dir, "it was made for another folder or other options")] });
  });

  it("refuses index bytes that loadIndex refuses", () => {
    const dir = cacheFolder();
    forge(dir, ROWS, {}, new Uint8Array(16));
    expect(load(dir).lines).toStrictEqual([ignored(dir, "These bytes are not an index snapshot of @sbissoli/mcp-search (no MCPSIDX header).")]);
  });

  const [alpha, beta, huge] = ROWS as [unknown[], unknown[], unknown[]];
  it.each([
    ["a table that is no list", { rows: ROWS }],
    ["a row that is no list", [alpha, beta, "huge.md"]],
    ["a path that is no string", [alpha, beta, [7, 1, 1, 1, null, null]]],
    ["a size that is no number", [alpha, beta, ["huge.md", "1", 1, 1, null, null]]],
    ["a modification time that is missing", [alpha, beta, ["huge.md", 1, null, 1, null, null]]],
    ["a change time that is not finite", [alpha, beta, ["huge.md", 1, 1, "Infinity", null, null]]],
    ["a title without a format", [alpha, beta, ["huge.md", 1, 1, 1, "Huge", null]]],
    ["a format without a title", [alpha, beta, ["huge.md", 1, 1, 1, null, "markdown"]]],
    ["a title that is no string", [["a.md", 1, 1, 1, 5, "markdown"], beta, huge]],
    ["a format that is no string", [["a.md", 1, 1, 1, "Alpha", 5], beta, huge]],
    ["a row cut short", [alpha, beta, ["huge.md", 1, 1, 1]]],
    ["a skipped file marked as read in part", [alpha, beta, ["huge.md", 1, 1, 1, null, null, 1]]],
    ["a mark other than 1", [["a.md", 1, 1, 1, "Alpha", "markdown", true], beta, huge]],
    ["a mark of 0", [["a.md", 1, 1, 1, "Alpha", "markdown", 0], beta, huge]],
  ])("refuses %s as malformed", (_kind, table) => {
    const dir = cacheFolder();
    forge(dir, table);
    expect(load(dir)).toStrictEqual({ loaded: undefined, lines: [ignored(dir, "its file table is malformed")] });
  });

  it("refuses a table that names a document its index lacks", () => {
    const dir = cacheFolder();
    forge(dir, [alpha, ["c.md", 1, 1, 1, "Gamma", "markdown"], huge]);
    expect(load(dir)).toStrictEqual({ loaded: undefined, lines: [ignored(dir, "its file table names a document its index lacks")] });
  });

  it("refuses a table that disagrees with its index: a document missing from the table", () => {
    const dir = cacheFolder();
    forge(dir, [alpha, huge]);
    expect(load(dir)).toStrictEqual({ loaded: undefined, lines: [ignored(dir, "its file table and its index disagree")] });
  });

  it("refuses a table that disagrees with its index: a document listed as skipped", () => {
    const dir = cacheFolder();
    forge(dir, [alpha, ["b.md", 9, 1, 1, null, null], huge]);
    expect(load(dir)).toStrictEqual({ loaded: undefined, lines: [ignored(dir, "its file table and its index disagree")] });
  });

  it("refuses a table that names one path twice", () => {
    const dir = cacheFolder();
    forge(dir, [alpha, beta, huge, huge]);
    expect(load(dir)).toStrictEqual({ loaded: undefined, lines: [ignored(dir, "its file table and its index disagree")] });
    const twice = cacheFolder();
    forge(twice, [alpha, beta, alpha, huge]);
    expect(load(twice)).toStrictEqual({ loaded: undefined, lines: [ignored(twice, "its file table and its index disagree")] });
  });

  it("refuses every byte of the header line flipped, and a flipped first or last byte of the table and of the index", () => {
    const dir = cacheFolder();
    const small = createIndex([{ id: "doc:a.md", title: "A", url: "u", text: "t" }]);
    open(dir).cache.save(small, new Map([["a.md", { size: 1, modified: 1, changed: 1, title: "A", format: "text" }]]));
    const bytes = readFileSync(snapshotPath(dir));
    const end = bytes.indexOf(10);
    const tableLength = (JSON.parse(bytes.subarray(0, end).toString("utf8")) as { files: number }).files;
    const places = [...Array.from({ length: end + 1 }, (_, at) => at), end + 1, end + tableLength, end + tableLength + 1, bytes.length - 1];
    const accepted: number[] = [];
    for (const at of places) {
      const flipped = Buffer.from(bytes);
      flipped[at] = flipped[at]! ^ 0x01;
      writeFileSync(snapshotPath(dir), flipped);
      if (load(dir).loaded !== undefined) accepted.push(at);
    }
    expect(accepted).toStrictEqual([]);
  });
});

describe("openSnapshotCache: nothing at the snapshot's name is followed or waited on", () => {
  it.each([
    ["a link to a good snapshot", (dir: string, path: string) => {
      open(dir).cache.save(INDEX(), FILES);
      const target = join(dir, "elsewhere");
      writeFileSync(target, readFileSync(path));
      rmSync(path);
      symlinkSync(target, path);
    }, "it is a symbolic link"],
    ["a FIFO", (_dir: string, path: string) => void spawnSync("mkfifo", [path]), "it is not a regular file"],
    ["a folder", (_dir: string, path: string) => mkdirSync(path), "it is not a regular file"],
    ["a file over the cap (sparse)", (_dir: string, path: string) => {
      const fd = openSync(path, "w");
      try {
        // ftruncate makes a hole: no byte is written.
        ftruncateSync(fd, MAX_SNAPSHOT_BYTES + 1);
      } finally {
        closeSync(fd);
      }
    }, `it is ${MAX_SNAPSHOT_BYTES + 1} bytes, over the ${MAX_SNAPSHOT_BYTES}-byte cap`],
  ])("refuses %s at once", (_kind, plant, why) => {
    const dir = cacheFolder();
    plant(dir, snapshotPath(dir));
    expect(load(dir)).toStrictEqual({ loaded: undefined, lines: [ignored(dir, why)] });
  });

  it("caps a snapshot at 1 GiB", () => {
    expect(MAX_SNAPSHOT_BYTES).toBe(1024 * 1024 * 1024);
  });
});

describe("openSnapshotCache: the cache folder", () => {
  it("creates a missing folder, and its parents, of mode 700", () => {
    const dir = join(cacheFolder(), "new", "cache");
    open(dir);
    expect(statSync(dir).mode & 0o7777).toBe(0o700);
  });

  it.each([0o700, 0o755, 0o500])("accepts a folder of its user's of mode %o", (mode) => {
    const dir = cacheFolder();
    chmodSync(dir, mode);
    expect(() => open(dir)).not.toThrow();
  });

  it.each([
    [0o702, "others", "702"],
    [0o720, "its group", "720"],
    [0o722, "others", "722"],
    [0o1777, "others", "1777"],
    [0o2770, "its group", "2770"],
  ])("refuses a folder of mode %o, writable by %s", (mode, who, shown) => {
    const dir = cacheFolder();
    chmodSync(dir, mode);
    expect(() => open(dir)).toThrow(
      new Error(`--cache ${dir} is writable by ${who} (mode ${shown}), who could forge its snapshot: run chmod 700 on it, or use a folder of your own.`),
    );
  });

  it.runIf(process.getuid?.() === 0)("refuses a folder another user owns", () => {
    const dir = cacheFolder();
    chownSync(dir, 65534, 65534);
    expect(() => open(dir)).toThrow(
      new Error(`--cache ${dir} belongs to another user (uid 65534), who could forge its snapshot: use a folder of your own, such as ~/.cache/mcp-search.`),
    );
  });

  it("refuses a path that is a file", () => {
    const file = join(cacheFolder(), "file");
    writeFileSync(file, "");
    expect(() => open(file)).toThrow();
  });
});
