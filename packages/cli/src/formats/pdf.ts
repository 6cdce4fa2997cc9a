/**
 * PDF: text per page through unpdf, under a time limit per file; the folder server runs it in the
 * formats worker (./worker.ts), so that a long PDF never holds its event loop. The fetch text
 * opens each page with a marker line ({@link pageMarker}), so that a hit can be cited with
 * `#page=N`.
 */
import { extractPdfPages } from "./pdf-extract.js";
import { capText, FormatError, pageMarker, type FormatLimits, type FormatOutput } from "./types.js";

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
  const read = await extractPdfPages(bytes, performance.now() + timeLimitMs);
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
