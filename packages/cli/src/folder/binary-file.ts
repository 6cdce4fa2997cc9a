/**
 * One binary document read from the served folder, under the containment check
 * (./containment.ts): when its extracted text is kept (./text-cache.ts) for the size and time an
 * `fstat` of the checked file gives, that text, without reading the file; else its bytes, read
 * on one checked descriptor, through its format's reader off the event loop
 * (../formats/extract.ts), and the text kept for next time.
 */
import { FormatError, isVerdict, type FormatLimits, type FormatOutput } from "../formats/types.js";
import type { BinaryFormat } from "../formats/registry.js";
import { NODE_FILE_SYSTEM, readInside, statInside, type InsideFileSystem, type InsideRefusal } from "./containment.js";
import type { TextCache } from "./text-cache.js";

/** The largest binary file read, by default: 64 MiB (a long PDF with images is tens of MB). */
export const DEFAULT_MAX_BINARY_BYTES = 64 * 1024 * 1024;
/** The most bytes a DOCX, ODT or EPUB may expand to: 64 MiB. */
export const MAX_UNZIPPED_BYTES = 64 * 1024 * 1024;
/** The longest one file's extraction may take (ms). */
export const EXTRACTION_TIME_LIMIT_MS = 30_000;

/**
 * Options of {@link readBinaryFile}.
 *
 * @example
 * const options: BinaryFileOptions = { maxBytes: 67108864, limits, timeLimitMs: 30000, cache: undefined };
 */
interface BinaryFileOptions {
  readonly maxBytes: number;
  readonly limits: FormatLimits;
  readonly timeLimitMs: number;
  readonly cache: TextCache | undefined;
  /** The texts extracted last, in memory (`createRecentTexts`). @default undefined */
  readonly recent?: TextCache | undefined;
  /** The file system calls of the containment check, for tests that count them. @default NODE_FILE_SYSTEM */
  readonly fs?: InsideFileSystem | undefined;
}

/**
 * A binary document's text, or why it gives none: `refused` is a refusal of the containment
 * check (./containment.ts), `unreadable` what the format said (../formats/types.ts).
 *
 * @example
 * const read: BinaryFile = { ok: true, output, size: 24933, modified: 1767225600000 };
 */
export type BinaryFile =
  | { readonly ok: true; readonly output: FormatOutput; readonly size: number; readonly modified: number }
  | { readonly ok: false; readonly refused: InsideRefusal }
  | { readonly ok: false; readonly unreadable: FormatError };

/**
 * Reads a binary document of the served folder. The file is opened under the containment check
 * and `fstat`ed; when a text is kept for that size and time (in memory, else in the `--cache`
 * folder), it is the answer, and not a byte of the file is read. Otherwise the file is read on
 * one checked descriptor, at most `maxBytes`, and extracted.
 *
 * @example
 * const read = await readBinaryFile("/srv/docs", "manual.pdf", "pdf", options);
 * if (read.ok) read.output.pages?.length; // => 4
 */
export async function readBinaryFile(root: string, relative: string, format: BinaryFormat, options: BinaryFileOptions): Promise<BinaryFile> {
  const fs = options.fs ?? NODE_FILE_SYSTEM;
  // The containment check and the change check hold for a cached text too: the checked file's
  // size and time are what the text is kept under.
  const stat = statInside(root, relative, options.maxBytes, fs);
  if (!stat.ok) return { ok: false, refused: stat };
  const recent = options.recent?.get(relative, stat.size, stat.modified);
  const cached = recent ?? options.cache?.get(relative, stat.size, stat.modified);
  if (cached !== undefined && recent === undefined) options.recent?.set(relative, stat.size, stat.modified, cached);
  if (cached instanceof FormatError) return { ok: false, unreadable: cached };
  if (cached !== undefined) return { ok: true, output: cached, size: stat.size, modified: stat.modified };
  const read = readInside(root, relative, options.maxBytes, fs);
  if (!read.ok) return { ok: false, refused: read };
  try {
    // The worker's client loads with the first binary document, not at start-up.
    const { readBinary } = await import("../formats/extract.js");
    const output = await readBinary(format, read.bytes, options.limits, options.timeLimitMs);
    options.cache?.set(relative, read.size, read.modified, output);
    options.recent?.set(relative, read.size, read.modified, output);
    return { ok: true, output, size: read.size, modified: read.modified };
  } catch (error) {
    // What is not a FormatError is the reader's own failure, not a verdict about the file.
    const unreadable = error instanceof FormatError ? error : new FormatError("reader-failed", error instanceof Error ? error.message : String(error));
    // What the file is (a time-out included: it took that long on this machine, and takes as long
    // again) is kept for the unchanged file; what happened to the reader is not (openTextCache).
    options.cache?.set(relative, read.size, read.modified, unreadable);
    if (isVerdict(unreadable)) options.recent?.set(relative, read.size, read.modified, unreadable);
    return { ok: false, unreadable };
  }
}
