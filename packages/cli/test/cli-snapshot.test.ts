import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createIndex } from "@sbissoli/mcp-search";
import { afterEach, describe, expect, it } from "vitest";
import { openSnapshotCache, type SnapshotFile } from "../src/snapshot.js";

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
