/**
 * One binary document read from the served folder: its bytes through the containment check
 * (../folder/paths.ts), its text through its format's reader off the event loop (./extract.ts),
 * and, with `--cache`, its extracted text kept beside the index, so that a restart, a snippet or
 * a fetch reads no unchanged PDF again.
 */
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { readCacheFile, writeCacheFile } from "../folder/cache-file.js";
import { readInside } from "../folder/paths.js";
import type { BinaryFormat } from "./extensions.js";
import { FormatError, isVerdict, UNREADABLE_REASONS, type FormatLimits, type FormatOutput, type UnreadableReason } from "./types.js";

/** The largest binary file read, by default: 64 MiB (a long PDF with images is tens of MB). */
export const DEFAULT_MAX_BINARY_BYTES = 64 * 1024 * 1024;
/** The most bytes a DOCX, ODT or EPUB may expand to: 64 MiB. */
export const MAX_UNZIPPED_BYTES = 64 * 1024 * 1024;
/** The longest one file's extraction may take (ms). */
export const EXTRACTION_TIME_LIMIT_MS = 30_000;

/**
 * Where extracted texts are kept: one JSON file per document under `<cache>/texts-<hash of the
 * root>/`, named by a hash of its path, holding the size and modification time it was read at,
 * and the text or the reason it gave none.
 *
 * @example
 * const texts = openTextCache("/var/cache/mcp-search", "/srv/docs");
 */
interface TextCache {
  /** The text kept for this size and time, or why the file gave none; undefined when nothing is kept. */
  get(relative: string, size: number, modified: number): FormatOutput | FormatError | undefined;
  set(relative: string, size: number, modified: number, output: FormatOutput | FormatError): void;
}

/**
 * The largest text cache entry read: the text of a document is cut at `--max-file-bytes`
 * characters, so an entry is at most a few times that in JSON; past 256 MiB it is no entry of
 * ours.
 */
const MAX_ENTRY_BYTES = 256 * 1024 * 1024;

/**
 * A cache entry read back, checked to be what {@link openTextCache} writes: anyone who could
 * write the cache folder could have forged it, so each field is checked for its type rather than
 * trusted (a title that is not a string would crash the reader). Undefined when it is not such
 * an entry, or is one for another file, size or time.
 */
function checkedEntry(saved: unknown, relative: string, size: number, modified: number): FormatOutput | FormatError | undefined {
  if (typeof saved !== "object" || saved === null) return undefined;
  const entry = saved as { relative?: unknown; size?: unknown; modified?: unknown; output?: unknown; failure?: unknown };
  if (entry.relative !== relative || entry.size !== size || entry.modified !== modified) return undefined;
  if (typeof entry.failure === "object" && entry.failure !== null) {
    const { reason, detail } = entry.failure as { reason?: unknown; detail?: unknown };
    if (typeof reason !== "string" || !Object.hasOwn(UNREADABLE_REASONS, reason) || (detail !== undefined && typeof detail !== "string")) return undefined;
    const failure = new FormatError(reason as UnreadableReason, detail);
    return isVerdict(failure) ? failure : undefined;
  }
  if (typeof entry.output !== "object" || entry.output === null) return undefined;
  const { title, text, headings, pages, truncated } = entry.output as Record<string, unknown>;
  const strings = (value: unknown) => Array.isArray(value) && value.every((item) => typeof item === "string");
  if (typeof text !== "string" || !strings(headings)) return undefined;
  if ((title !== undefined && typeof title !== "string") || (pages !== undefined && !strings(pages)) || (truncated !== undefined && typeof truncated !== "boolean")) return undefined;
  return {
    text,
    headings: headings as string[],
    ...(title !== undefined && { title: title as string }),
    ...(pages !== undefined && { pages: pages as string[] }),
    ...(truncated !== undefined && { truncated: truncated as boolean }),
  };
}

/**
 * Opens the text cache of a served folder in `cache` (the `--cache` folder, already checked by
 * ../folder/snapshot.ts); a cache that cannot be read or written is no cache, never an error.
 * Its files are read and written as the snapshot's are (../folder/cache-file.ts): nothing
 * planted at an entry's name (a link, a FIFO, a huge file) is followed, waited on or read whole,
 * and what is read is checked ({@link checkedEntry}). A failure that is not a verdict about the
 * file (`isVerdict`: the reader crashed or did not load) is never kept.
 *
 * @example
 * openTextCache("/var/cache/mcp-search", "/srv/docs").get("manual.pdf", 24933, 1767225600000); // => undefined (first start)
 */
export function openTextCache(cache: string, root: string): TextCache {
  const folder = join(cache, `texts-${createHash("sha256").update(root).digest("hex").slice(0, 16)}`);
  const fileOf = (relative: string) => join(folder, `${createHash("sha256").update(relative).digest("hex").slice(0, 32)}.json`);
  return {
    get(relative, size, modified) {
      try {
        return checkedEntry(JSON.parse(readCacheFile(fileOf(relative), MAX_ENTRY_BYTES).toString("utf8")), relative, size, modified);
      } catch {
        return undefined;
      }
    },
    set(relative, size, modified, output) {
      if (output instanceof FormatError && !isVerdict(output)) return;
      try {
        mkdirSync(folder, { recursive: true, mode: 0o700 });
        const kept = output instanceof FormatError ? { failure: { reason: output.reason, detail: output.detail } } : { output };
        writeCacheFile(fileOf(relative), [Buffer.from(JSON.stringify({ relative, size, modified, ...kept }))]);
      } catch {
        // Without a cache the document is read again next time: slower, still correct.
      }
    },
  };
}

/**
 * The texts extracted last, kept in memory up to `maxChars` characters in all (the oldest
 * dropped first): a search's snippets and a fetch's pages read a PDF's text again, and
 * extracting it again costs a hundred times more than reading a text file.
 *
 * @example
 * const recent = createRecentTexts(32 * 1024 * 1024);
 */
export function createRecentTexts(maxChars: number): TextCache {
  const kept = new Map<string, { size: number; modified: number; output: FormatOutput | FormatError; chars: number }>();
  let chars = 0;
  return {
    get(relative, size, modified) {
      const hit = kept.get(relative);
      if (hit === undefined || hit.size !== size || hit.modified !== modified) return undefined;
      // Most recently used last.
      kept.delete(relative);
      kept.set(relative, hit);
      return hit.output;
    },
    set(relative, size, modified, output) {
      const before = kept.get(relative);
      if (before !== undefined) {
        chars -= before.chars;
        kept.delete(relative);
      }
      const length = output instanceof FormatError ? 0 : output.text.length * 2;
      if (length > maxChars) return;
      kept.set(relative, { size, modified, output, chars: length });
      chars += length;
      for (const [oldest, entry] of kept) {
        if (chars <= maxChars) break;
        kept.delete(oldest);
        chars -= entry.chars;
      }
    },
  };
}

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
  /** The texts extracted last, in memory ({@link createRecentTexts}). @default undefined */
  readonly recent?: TextCache | undefined;
}

/**
 * A binary document's text, or why it gives none: `refused` is a refusal of the containment
 * check (../folder/paths.ts), `unreadable` what the format said (./types.ts).
 *
 * @example
 * const read: BinaryFile = { ok: true, output, size: 24933, modified: 1767225600000 };
 */
export type BinaryFile =
  | { readonly ok: true; readonly output: FormatOutput; readonly size: number; readonly modified: number }
  | { readonly ok: false; readonly refused: Exclude<ReturnType<typeof readInside>, { ok: true }> }
  | { readonly ok: false; readonly unreadable: FormatError };

/**
 * Reads a binary document of the served folder: from the text cache when its size and time are
 * those cached, else from its bytes. The bytes are read inside the root, at most `maxBytes`, in
 * both cases.
 *
 * @example
 * const read = await readBinaryFile("/srv/docs", "manual.pdf", "pdf", options);
 * if (read.ok) read.output.pages?.length; // => 4
 */
export async function readBinaryFile(root: string, relative: string, format: BinaryFormat, options: BinaryFileOptions): Promise<BinaryFile> {
  // The bytes are read even when the text is cached: the containment check and the change check
  // hold for a cached text too, and reading is cheap beside extracting.
  const read = readInside(root, relative, options.maxBytes);
  if (!read.ok) return { ok: false, refused: read };
  const recent = options.recent?.get(relative, read.size, read.modified);
  const cached = recent ?? options.cache?.get(relative, read.size, read.modified);
  if (cached !== undefined && recent === undefined) options.recent?.set(relative, read.size, read.modified, cached);
  if (cached instanceof FormatError) return { ok: false, unreadable: cached };
  if (cached !== undefined) return { ok: true, output: cached, size: read.size, modified: read.modified };
  try {
    // The worker's client loads with the first binary document, not at start-up.
    const { readBinary } = await import("./extract.js");
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
