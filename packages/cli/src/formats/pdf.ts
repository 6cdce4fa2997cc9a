/**
 * PDF: text per page through unpdf, in a worker thread (./pdf-worker.ts) so that a long PDF never
 * holds the server's event loop, under a time limit per file. The fetch text opens each page with
 * a marker line ({@link pageMarker}), so that a hit can be cited with `#page=N`.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { extractPdfPages } from "./pdf-extract.js";
import { capText, FormatError, pageMarker, type FormatLimits, type FormatOutput, type PdfPages } from "./types.js";

/** The worker file beside this module once built; absent when run from source (tests), which then read in this thread. */
const WORKER_FILE = new URL("./pdf-worker.js", import.meta.url);

let worker: Worker | undefined;
let nextId = 0;
const waiting = new Map<number, (result: PdfPages) => void>();
/** One PDF at a time: the worker's time limit counts one file's work only. */
let queue: Promise<unknown> = Promise.resolve();

function startWorker(): Worker | undefined {
  if (worker !== undefined) return worker;
  if (WORKER_FILE.protocol !== "file:" || !existsSync(fileURLToPath(WORKER_FILE))) return undefined;
  const started = new Worker(WORKER_FILE);
  started.on("message", ({ id, result }: { id: number; result: PdfPages }) => {
    waiting.get(id)?.(result);
    waiting.delete(id);
  });
  const fail = (detail: string) => {
    if (worker === started) worker = undefined;
    for (const [id, settle] of waiting) {
      settle({ ok: false, reason: "corrupt", detail });
      waiting.delete(id);
    }
  };
  started.on("error", (error) => fail(error.message));
  started.on("exit", () => fail("the PDF reader stopped"));
  // Held only while a PDF is being read (readInWorker): an idle reader never keeps the process alive.
  started.unref();
  worker = started;
  return started;
}

/** Reads the pages in the worker; past the time limit (and a second of grace), the worker is stopped. */
function readInWorker(reader: Worker, bytes: Uint8Array, timeLimitMs: number): Promise<PdfPages> {
  const id = nextId++;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      // A page that never ends its work is stopped the only way it can be: with its thread.
      if (worker === reader) worker = undefined;
      void reader.terminate();
      resolve({ ok: false, reason: "timeout", detail: `over ${timeLimitMs} ms` });
    }, timeLimitMs + 1000);
    timer.unref();
    reader.ref();
    waiting.set(id, (result) => {
      clearTimeout(timer);
      if (waiting.size <= 1) reader.unref();
      resolve(result);
    });
    // A copy with its own memory, handed over: a Buffer's slice would share (and hand over) the
    // memory of Node's buffer pool.
    const copy = new Uint8Array(bytes);
    reader.postMessage({ id, bytes: copy, deadline: timeLimitMs }, [copy.buffer]);
  });
}

/** Metadata titles that name no document: a tool's placeholder, or a file name. */
const PLACEHOLDER_TITLE = /^(?:untitled|untitled document|document\d*|microsoft word - .*|.*\.(?:pdf|docx?|odt|tex|dvi|ps|indd|rtf))$/i;

/**
 * The title a PDF gives itself: its metadata title when it is real (not empty, not a
 * placeholder such as "Untitled" or a file name), else its first heading-like line (short, with
 * letters, not ending a sentence) among the first lines of page 1.
 *
 * @example
 * pdfTitle("Microsoft Word - report.docx", ["Annual report\nThis year we grew."]); // => "Annual report"
 */
export function pdfTitle(metadata: string | undefined, pages: readonly string[]): string | undefined {
  const clean = metadata?.replace(/\s+/g, " ").trim() ?? "";
  if (clean !== "" && /\p{L}/u.test(clean) && !PLACEHOLDER_TITLE.test(clean)) return clean;
  const lines = (pages[0] ?? "").split("\n").map((line) => line.replace(/\s+/g, " ").trim()).filter((line) => line !== "");
  return lines.slice(0, 15).find((line) => line.length >= 3 && line.length <= 100 && /\p{L}{2}/u.test(line) && !/[.,;:]$/.test(line));
}

/**
 * Reads a PDF within `timeLimitMs`: `FormatError` with `no-text` for a PDF without a text layer
 * (a scan), `encrypted`, `corrupt` or `timeout` otherwise.
 *
 * @example
 * const { pages } = await readPdf(bytes, limits, 30_000); // => ["LS(1) …", …]
 */
export async function readPdf(bytes: Uint8Array, limits: FormatLimits, timeLimitMs: number): Promise<FormatOutput> {
  const turn = queue.then(() => {
    const reader = startWorker();
    return reader === undefined ? extractPdfPages(bytes, performance.now() + timeLimitMs) : readInWorker(reader, bytes, timeLimitMs);
  });
  queue = turn.catch(() => undefined);
  const read = await turn;
  if (!read.ok) throw new FormatError(read.reason, read.detail);
  if (read.pages.every((page) => page === "")) throw new FormatError("no-text", `${read.pages.length} page(s), no text`);
  const marked = read.pages.length === 1 ? (read.pages[0] as string) : read.pages.map((page, index) => `${pageMarker(index + 1)}\n\n${page}`).join("\n\n");
  const { text, truncated } = capText(marked, limits.maxTextChars);
  const pages = truncated ? keptPages(read.pages, text.length) : read.pages;
  return { title: pdfTitle(read.title, read.pages), text, headings: [], pages, truncated };
}

/** The pages, whole or cut, that fit in the first `chars` characters of the marked text. */
function keptPages(pages: readonly string[], chars: number): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const [index, page] of pages.entries()) {
    const size = pageMarker(index + 1).length + 4 + page.length;
    if (used >= chars) break;
    kept.push(used + size <= chars ? page : page.slice(0, Math.max(0, chars - used)));
    used += size;
  }
  return kept;
}
