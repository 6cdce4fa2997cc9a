import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readBinaryFile } from "../../src/folder/binary-file.js";
import { openTextCache } from "../../src/folder/text-cache.js";
import { FORMATS_VERSION, FormatError, isVerdict, loadParser } from "../../src/formats/types.js";

/**
 * The extracted-text cache (../../src/folder/text-cache.ts, read by ../../src/folder/binary-file.ts) under the folder snapshot's rules
 * (issue 41, findings 1, 3 and 4): nothing planted at an entry's name is followed or waited on, a
 * forged entry is refused by its shape, a time-out is kept as the file's verdict, and a failure of
 * the reader itself never is.
 */

const ROOT = "/srv/docs";
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function cacheFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-search-text-cache-"));
  dirs.push(dir);
  return dir;
}

/** The path of `relative`'s entry for ROOT in `cache`, its folder made. */
function entryPath(cache: string, relative: string, root = ROOT): string {
  const folder = join(cache, `texts-${createHash("sha256").update(root).digest("hex").slice(0, 16)}`);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  return join(folder, `${createHash("sha256").update(relative).digest("hex").slice(0, 32)}.json`);
}

const OUTPUT = { title: "Manual", text: "Chapter one", headings: ["One"] };

describe("the text cache", () => {
  it("reads back what it wrote, for the same size and time only", () => {
    const cache = openTextCache(cacheFolder(), ROOT);
    cache.set("manual.pdf", 10, 20, OUTPUT);
    expect(cache.get("manual.pdf", 10, 20)).toStrictEqual(OUTPUT);
    expect(cache.get("manual.pdf", 11, 20)).toBeUndefined();
  });

  it("does not wait on a FIFO at an entry's name", () => {
    const dir = cacheFolder();
    expect(spawnSync("mkfifo", [entryPath(dir, "manual.pdf")]).status).toBe(0);
    expect(openTextCache(dir, ROOT).get("manual.pdf", 10, 20)).toBeUndefined();
  });

  it("follows no link: not at an entry's name, not at its old temporary name", () => {
    const dir = cacheFolder();
    const victim = join(dir, "victim.txt");
    writeFileSync(victim, "keep me");
    const path = entryPath(dir, "manual.pdf");
    symlinkSync(victim, `${path}.tmp`);
    const cache = openTextCache(dir, ROOT);
    cache.set("manual.pdf", 10, 20, OUTPUT);
    expect(readFileSync(victim, "utf8")).toBe("keep me");
    expect(cache.get("manual.pdf", 10, 20)).toStrictEqual(OUTPUT);
    // No temporary file is left behind.
    expect(readdirSync(join(path, "..")).filter((name) => name.endsWith(".tmp") && !name.startsWith(`${path.split("/").pop()}.tmp`))).toStrictEqual([]);
    const linked = entryPath(dir, "other.pdf");
    writeFileSync(victim, JSON.stringify({ version: FORMATS_VERSION, relative: "other.pdf", size: 1, modified: 2, output: OUTPUT }));
    symlinkSync(victim, linked);
    expect(cache.get("other.pdf", 1, 2)).toBeUndefined();
  });

  it.each([
    ["a title that is not a string", { ...OUTPUT, title: 42 }],
    ["a text that is not a string", { ...OUTPUT, text: ["a"] }],
    ["headings that are not strings", { ...OUTPUT, headings: [1] }],
    ["pages that are not strings", { ...OUTPUT, pages: "page" }],
    ["no output at all", undefined],
  ])("refuses a forged entry with %s", (_, output) => {
    const dir = cacheFolder();
    writeFileSync(entryPath(dir, "manual.pdf"), JSON.stringify({ version: FORMATS_VERSION, relative: "manual.pdf", size: 10, modified: 20, output }));
    expect(openTextCache(dir, ROOT).get("manual.pdf", 10, 20)).toBeUndefined();
  });

  it("reads back no entry of an earlier version of the readers, whose text may differ", () => {
    const dir = cacheFolder();
    const path = entryPath(dir, "manual.docx");
    for (const version of [undefined, FORMATS_VERSION - 1, String(FORMATS_VERSION)]) {
      writeFileSync(path, JSON.stringify({ version, relative: "manual.docx", size: 10, modified: 20, output: OUTPUT }));
      expect(openTextCache(dir, ROOT).get("manual.docx", 10, 20)).toBeUndefined();
    }
    writeFileSync(path, JSON.stringify({ version: FORMATS_VERSION, relative: "manual.docx", size: 10, modified: 20, output: OUTPUT }));
    expect(openTextCache(dir, ROOT).get("manual.docx", 10, 20)).toStrictEqual(OUTPUT);
  });

  it("refuses a forged failure with an unknown reason or a detail that is not a string", () => {
    const dir = cacheFolder();
    const path = entryPath(dir, "manual.pdf");
    writeFileSync(path, JSON.stringify({ version: FORMATS_VERSION, relative: "manual.pdf", size: 10, modified: 20, failure: { reason: "toString" } }));
    expect(openTextCache(dir, ROOT).get("manual.pdf", 10, 20)).toBeUndefined();
    writeFileSync(path, JSON.stringify({ version: FORMATS_VERSION, relative: "manual.pdf", size: 10, modified: 20, failure: { reason: "encrypted", detail: { x: 1 } } }));
    expect(openTextCache(dir, ROOT).get("manual.pdf", 10, 20)).toBeUndefined();
  });

  it("keeps a time-out as the file's verdict, and never a failure of the reader itself", () => {
    const dir = cacheFolder();
    const cache = openTextCache(dir, ROOT);
    cache.set("slow.pdf", 10, 20, new FormatError("timeout", "over 30000 ms"));
    expect(cache.get("slow.pdf", 10, 20)).toMatchObject({ reason: "timeout", detail: "over 30000 ms" });
    cache.set("lost.epub", 10, 20, new FormatError("reader-failed", "the document reader stopped"));
    expect(cache.get("lost.epub", 10, 20)).toBeUndefined();
    // Nor is one trusted when forged.
    writeFileSync(entryPath(dir, "lost.epub"), JSON.stringify({ version: FORMATS_VERSION, relative: "lost.epub", size: 10, modified: 20, failure: { reason: "reader-failed" } }));
    expect(cache.get("lost.epub", 10, 20)).toBeUndefined();
  });
});

describe("verdicts", () => {
  it("reads a parser that fails to load as the reader's failure, never the file's", async () => {
    const failure = await loadParser(() => import("a-parser-that-is-not-installed" as string)).catch((error: unknown) => error);
    expect(failure).toMatchObject({ reason: "reader-failed" });
    expect(isVerdict(failure as FormatError)).toBe(false);
    expect((["no-text", "encrypted", "corrupt", "zip-bomb", "timeout"] as const).map((reason) => isVerdict(new FormatError(reason)))).toStrictEqual([true, true, true, true, true]);
  });
});

describe("readBinaryFile with a text cache", () => {
  it("remembers a time-out for the unchanged file: the next read answers it without reading", async () => {
    const root = cacheFolder();
    writeFileSync(join(root, "guide.docx"), readFileSync(new URL("../fixtures/formats/guide.docx", import.meta.url)));
    const cache = openTextCache(join(root, ".cache"), root);
    const options = { maxBytes: 1 << 26, limits: { maxTextChars: 1 << 20, maxUnzippedBytes: 1 << 26 }, cache };
    // In this thread, a reader that took longer than a limit of 0 ms is timed out.
    const first = await readBinaryFile(root, "guide.docx", "docx", { ...options, timeLimitMs: 0 });
    expect(first).toMatchObject({ ok: false, unreadable: { reason: "timeout" } });
    const again = await readBinaryFile(root, "guide.docx", "docx", { ...options, timeLimitMs: 60_000 });
    expect(again).toMatchObject({ ok: false, unreadable: { reason: "timeout" } });
  });
});
