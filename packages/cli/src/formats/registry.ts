/**
 * The binary formats' readers, by format: each is imported the first time a file of its type is
 * read, so `--help`, `--version` and a folder of Markdown load no parser. Adding a format is one
 * module of this folder, one line here and one in ./extensions.ts. The folder server runs these
 * readers in the formats worker (./worker.ts, through ./extract.ts), or in the calling thread
 * when no built worker is at hand.
 */
import type { BinaryFormat } from "./extensions.js";
import { FormatError, loadParser, type FormatLimits, type FormatOutput, type ReadFormat } from "./types.js";

// A reader module that fails to load is the installation's failure, not the file's (loadParser).
const READERS: Readonly<Record<BinaryFormat, ReadFormat>> = {
  pdf: async (bytes, limits, timeLimitMs) => (await loadParser(() => import("./pdf.js"))).readPdf(bytes, limits, timeLimitMs),
  docx: async (bytes, limits) => (await loadParser(() => import("./docx.js"))).readDocx(bytes, limits),
  odt: async (bytes, limits) => (await loadParser(() => import("./odt.js"))).readOdt(bytes, limits),
  epub: async (bytes, limits) => (await loadParser(() => import("./epub.js"))).readEpub(bytes, limits),
};

/**
 * Reads a file of a binary format in this thread. Throws `FormatError` when it gives no text
 * (see ./types.ts), `timeout` included: a PDF stops between two pages past `timeLimitMs`; the
 * other formats, which cannot be stopped midway, are bounded by the unzipped-size cap and
 * answered as timed out when they took longer than the limit.
 *
 * @example
 * const read = await readInThisThread("docx", bytes, { maxTextChars: 1048576, maxUnzippedBytes: 67108864 }, 30_000);
 * read.title; // => "Pour-over coffee guide"
 */
export async function readInThisThread(format: BinaryFormat, bytes: Uint8Array, limits: FormatLimits, timeLimitMs: number): Promise<FormatOutput> {
  const started = performance.now();
  const read = await READERS[format](bytes, limits, timeLimitMs);
  if (format !== "pdf" && performance.now() - started > timeLimitMs) {
    throw new FormatError("timeout", `${Math.round(performance.now() - started)} ms`);
  }
  return read;
}
