/**
 * The extracted texts of binary documents (PDF, DOCX, ODT, EPUB), kept so that a restart, a
 * snippet or a fetch extracts no unchanged document again: on disk under `--cache`
 * ({@link openTextCache}), and the last ones in memory ({@link createRecentTexts}). Each entry is
 * keyed by the document's path, size and modification time, and holds its text or a verdict
 * about the file (why it gives none).
 */
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { FORMATS_VERSION, FormatError, isVerdict, UNREADABLE_REASONS, type FormatOutput, type UnreadableReason } from "../formats/types.js";
import { readCacheFile, writeCacheFile } from "./cache-file.js";

/**
 * Where extracted texts are kept: one JSON file per document under `<cache>/texts-<hash of the
 * root>/`, named by a hash of its path, holding the readers' version, the size and modification
 * time it was read at, and the text or the reason it gave none.
 *
 * @example
 * const texts = openTextCache("/var/cache/mcp-search", "/srv/docs");
 */
export interface TextCache {
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
 * an entry, or is one for another file, size or time, or was written by readers of another
 * version ({@link FORMATS_VERSION}: their text may differ).
 */
function checkedEntry(saved: unknown, relative: string, size: number, modified: number): FormatOutput | FormatError | undefined {
  if (typeof saved !== "object" || saved === null) return undefined;
  const entry = saved as { version?: unknown; relative?: unknown; size?: unknown; modified?: unknown; output?: unknown; failure?: unknown };
  if (entry.version !== FORMATS_VERSION || entry.relative !== relative || entry.size !== size || entry.modified !== modified) return undefined;
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
 * ./snapshot.ts); a cache that cannot be read or written is no cache, never an error.
 * Its files are read and written as the snapshot's are (./cache-file.ts): nothing
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
        writeCacheFile(fileOf(relative), [Buffer.from(JSON.stringify({ version: FORMATS_VERSION, relative, size, modified, ...kept }))]);
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
