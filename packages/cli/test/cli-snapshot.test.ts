import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openSnapshotCache, type SnapshotRecord } from "../src/snapshot.js";

const RECORD: SnapshotRecord = { size: 12, modified: 1767225600000, title: "Café", format: "markdown", keywords: ["renda"], text: "O café\tcoado" };
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A saved snapshot of one record, and the path of its file. */
function saved(options: Record<string, unknown> = { ranking: "bm25" }): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), "mcp-search-snapshot-"));
  dirs.push(dir);
  const cache = openSnapshotCache(dir, "/srv/docs", options, () => undefined);
  cache.record("a/café.md", RECORD);
  cache.record("b.md", { ...RECORD, title: "B" });
  cache.forget("b.md");
  cache.save();
  const [name] = readdirSync(dir).filter((file) => file.endsWith(".snapshot"));
  return { dir, file: join(dir, name as string) };
}

function reopen(dir: string, options: Record<string, unknown> = { ranking: "bm25" }): { lines: string[]; lookup: (size: number) => SnapshotRecord | undefined } {
  const lines: string[] = [];
  const cache = openSnapshotCache(dir, "/srv/docs", options, (line) => lines.push(line));
  return { lines, lookup: (size) => cache.lookup("a/café.md", size, RECORD.modified) };
}

describe("openSnapshotCache", () => {
  it("gives back a saved record while its size and time match, and nothing for a forgotten one", () => {
    const { dir } = saved();
    const { lines, lookup } = reopen(dir);
    expect(lookup(12)).toStrictEqual(RECORD);
    expect(lookup(13)).toBeUndefined();
    expect(lines).toStrictEqual([expect.stringMatching(/^snapshot: 1 documents in /)]);
    expect(readdirSync(dir).filter((file) => !file.endsWith(".snapshot"))).toStrictEqual([]);
  });

  it.each([
    ["foreign", (text: string) => `{"magic":"other"}\n${text.slice(text.indexOf("\n") + 1)}`, /not an mcp-search snapshot/],
    ["old-version", (text: string) => text.replace('"version":2', '"version":1'), /has version 1, not 2/],
    ["tampered", (text: string) => text.replace("coado", "cuado"), /trailer does not match/],
    ["truncated", (text: string) => text.slice(0, text.lastIndexOf("{")), /trailer does not match/],
    ["garbage", () => "\u0000\u0001 not json", /snapshot ignored/],
  ])("ignores a %s snapshot with one line on stderr, and trusts none of it", (_kind, spoil, why) => {
    const { dir, file } = saved();
    writeFileSync(file, spoil(readFileSync(file, "utf8")));
    const { lines, lookup } = reopen(dir);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^snapshot ignored: /);
    expect(lines[0]).toMatch(why);
    expect(lookup(12)).toBeUndefined();
  });

  it("ignores a snapshot made with other options", () => {
    const { dir } = saved({ ranking: "bm25" });
    const { lines, lookup } = reopen(dir, { ranking: "rule" });
    expect(lines).toStrictEqual([expect.stringMatching(/^snapshot ignored: .*another folder or other options/)]);
    expect(lookup(12)).toBeUndefined();
  });
});
