/**
 * A binary document read through ../../src/folder/binary-file.ts: when its extracted text is kept
 * (in memory or under `--cache`) for the size and time of the checked file, that text is the
 * answer and not one byte of the file is read; otherwise the file is read whole and extracted.
 * The reads are counted through the containment check's file system seam, over the real files.
 */
import { copyFileSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EXTRACTION_TIME_LIMIT_MS, MAX_UNZIPPED_BYTES, readBinaryFile } from "../../src/folder/binary-file.js";
import { NODE_FILE_SYSTEM, type InsideFileSystem } from "../../src/folder/containment.js";
import { createRecentTexts, openTextCache } from "../../src/folder/text-cache.js";

const PDF = fileURLToPath(new URL("../fixtures/formats/ls.pdf", import.meta.url));

let root: string;
let cache: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "mcp-search-binary-file-")));
  cache = mkdtempSync(join(tmpdir(), "mcp-search-binary-cache-"));
  copyFileSync(PDF, join(root, "ls.pdf"));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(cache, { recursive: true, force: true });
});

/** The real file system, with the bytes it reads counted. */
function counting(): InsideFileSystem & { bytes: number } {
  const fs = {
    ...NODE_FILE_SYSTEM,
    bytes: 0,
    read(fd: number, buffer: Buffer, offset: number, length: number, position: number) {
      const n = NODE_FILE_SYSTEM.read(fd, buffer, offset, length, position);
      fs.bytes += n;
      return n;
    },
  };
  return fs;
}

const SETTINGS = { maxBytes: 64 << 20, limits: { maxTextChars: 1 << 20, maxUnzippedBytes: MAX_UNZIPPED_BYTES }, timeLimitMs: EXTRACTION_TIME_LIMIT_MS };

describe("readBinaryFile", () => {
  it("reads and extracts a PDF once; with its text kept in memory, the next read is an fstat, not a byte of the file", async () => {
    const recent = createRecentTexts(1 << 20);
    const first = counting();
    const read = await readBinaryFile(root, "ls.pdf", "pdf", { ...SETTINGS, cache: undefined, recent, fs: first });
    expect(read.ok).toBe(true);
    expect(first.bytes).toBeGreaterThan(10_000);
    const again = counting();
    expect(await readBinaryFile(root, "ls.pdf", "pdf", { ...SETTINGS, cache: undefined, recent, fs: again })).toStrictEqual(read);
    expect(again.bytes).toBe(0);
  });

  it("answers from the --cache folder after a restart (nothing in memory) without reading the PDF", async () => {
    const first = await readBinaryFile(root, "ls.pdf", "pdf", { ...SETTINGS, cache: openTextCache(cache, root), fs: counting() });
    const restarted = counting();
    const read = await readBinaryFile(root, "ls.pdf", "pdf", { ...SETTINGS, cache: openTextCache(cache, root), recent: createRecentTexts(1 << 20), fs: restarted });
    expect(read).toStrictEqual(first);
    expect(restarted.bytes).toBe(0);
  });

  it("reads the file again once its modification time moves: a kept text is for the file it was read from", async () => {
    const recent = createRecentTexts(1 << 20);
    await readBinaryFile(root, "ls.pdf", "pdf", { ...SETTINGS, cache: undefined, recent, fs: counting() });
    utimesSync(join(root, "ls.pdf"), new Date(Date.UTC(2030, 0, 1)), new Date(Date.UTC(2030, 0, 1)));
    const changed = counting();
    const read = await readBinaryFile(root, "ls.pdf", "pdf", { ...SETTINGS, cache: undefined, recent, fs: changed });
    expect(read).toMatchObject({ ok: true, modified: Date.UTC(2030, 0, 1) });
    expect(changed.bytes).toBeGreaterThan(10_000);
  });

  it("refuses a kept text for a file now over the cap, or now swapped for a link outside the root, as a read would", async () => {
    const recent = createRecentTexts(1 << 20);
    await readBinaryFile(root, "ls.pdf", "pdf", { ...SETTINGS, cache: undefined, recent });
    expect(await readBinaryFile(root, "ls.pdf", "pdf", { ...SETTINGS, maxBytes: 100, cache: undefined, recent })).toStrictEqual({ ok: false, refused: { ok: false, why: "too-large" } });
    // The same file, the same size and time, moved out of the root and linked back in.
    renameSync(join(root, "ls.pdf"), join(cache, "ls.pdf"));
    symlinkSync(join(cache, "ls.pdf"), join(root, "ls.pdf"));
    expect(await readBinaryFile(root, "ls.pdf", "pdf", { ...SETTINGS, cache: undefined, recent })).toStrictEqual({ ok: false, refused: { ok: false, why: "outside" } });
  });
});
