import { createHash } from "node:crypto";
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createIndex, createVocabulary } from "@sbissoli/mcp-search";
import { afterEach, describe, expect, it } from "vitest";
import { openFolder } from "../../src/folder/folder.js";
import { openSnapshotCache } from "../../src/folder/snapshot.js";
import { FIXTURES } from "../formats/_formats-client.js";

/**
 * A document read only in part (its text cut at the cap) is counted as unreadable after a
 * restart from the snapshot too, not only in the session that read it; the snapshot keeps the
 * mark (a 1 after the row's format, absent for a whole document), and a file table whose mark is
 * malformed is not trusted.
 */

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function workspace(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "mcp-search-partial-"));
  dirs.push(dir);
  return dir;
}

const vocabulary = createVocabulary({ locale: "en", sourceName: "t", entries: [] });

describe("the snapshot of a document read only in part", () => {
  it("counts it as unreadable after a restart with --cache, as the first session did", async () => {
    const dir = await workspace();
    const root = join(dir, "docs");
    const cache = join(dir, "cache");
    await cp(join(FIXTURES, "guide.docx"), join(root, "guide.docx"));
    await writeFile(join(root, "note.md"), "# Note\n\nA short note.\n");
    const options = { root, vocabulary, cache, maxFileBytes: 200, watch: false };
    const lines: string[] = [];
    const first = await openFolder({ ...options, log: (line) => lines.push(line) });
    const before = await first.ready;
    first.close();
    expect(lines).toContainEqual(expect.stringMatching(/^truncated guide\.docx: its text is over the 200-character cap/));
    expect(before.unreadable).toBe(1);

    const again: string[] = [];
    const second = await openFolder({ ...options, log: (line) => again.push(line) });
    const after = await second.ready;
    second.close();
    expect(again).toContainEqual(expect.stringMatching(/\(0 files read\)/));
    expect(after.unreadable).toBe(1);
    // The binary document enters after the text files, in both sessions (the indexer's two lanes).
    expect([...after.documents.keys()]).toStrictEqual(["note.md", "guide.docx"]);
  });

  it.each([
    ["a mark other than 1", (row: unknown[]) => (row[6] = 0)],
    ["a mark that is no number", (row: unknown[]) => (row[6] = true)],
    ["a mark on a file that gave no document", (row: unknown[]) => row.splice(4, 3, null, null, 1)],
  ])("ignores a file table with %s", async (_kind, spoil) => {
    const dir = await workspace();
    const idOf = (relative: string) => `doc:${relative}`;
    const index = createIndex([{ id: "doc:a.md", title: "A", url: "file:///srv/a.md", text: "alpha" }], { ranking: "bm25" });
    openSnapshotCache(dir, "/srv", {}, idOf, () => undefined).save(index, new Map([["a.md", { size: 1, modified: 1, changed: 1, title: "A", format: "markdown", partial: true }]]));
    const [name] = (await readdir(dir)).filter((file) => file.endsWith(".snapshot"));
    const file = join(dir, name as string);
    // Rewrites the table and its header (lengths, checksum), so that only the row is wrong.
    const bytes = await readFile(file);
    const headEnd = bytes.indexOf(10);
    const head = JSON.parse(bytes.subarray(0, headEnd).toString()) as { files: number; index: number; sha256: string };
    const rows = JSON.parse(bytes.subarray(headEnd + 1, headEnd + 1 + head.files).toString()) as unknown[][];
    expect(rows).toStrictEqual([["a.md", 1, 1, 1, "A", "markdown", 1]]);
    spoil(rows[0] as unknown[]);
    const table = Buffer.from(JSON.stringify(rows));
    const indexBytes = bytes.subarray(headEnd + 1 + head.files);
    const sha256 = createHash("sha256").update(table).update(indexBytes).digest("hex");
    await writeFile(file, Buffer.concat([Buffer.from(`${JSON.stringify({ ...head, files: table.length, sha256 })}\n`), table, indexBytes]));
    const lines: string[] = [];
    expect(openSnapshotCache(dir, "/srv", {}, idOf, (line) => lines.push(line)).load()).toBeUndefined();
    expect(lines).toStrictEqual([expect.stringMatching(/^snapshot ignored: .*its file table is malformed/)]);
  });
});
