/**
 * The one shape every document format has: bytes in; title, text, headings and pages out. A
 * format is a module of this folder, registered by extension in ./registry.ts and loaded the
 * first time a file of its type is read.
 */

/**
 * What a format reads from one file. `text` is what a fetch shows (Markdown for the formats that
 * go through the HTML converter); `pages`, for a paged format (PDF), is each page's text in
 * order, and `text` then marks each page's start with a line of its own (see {@link pageMarker}).
 *
 * @example
 * const read: FormatOutput = { title: "Pour-over coffee guide", text: "# Pour-over coffee guide\n…", headings: ["Grinding the beans"] };
 */
export interface FormatOutput {
  /** The document's own title, when the format holds one (metadata, a first heading). @default undefined (the file name) */
  readonly title?: string | undefined;
  readonly text: string;
  /** Section headings, in order, as clean text: BM25 reads them as keywords. */
  readonly headings: readonly string[];
  /** Each page's text, for a paged format. @default undefined (one page) */
  readonly pages?: readonly string[] | undefined;
  /** True when the text was cut at the size cap. @default false */
  readonly truncated?: boolean | undefined;
}

/**
 * The limits a format works within: the most characters of text it keeps (past it the text is
 * cut and `truncated` set) and the most bytes a zip may expand to.
 *
 * @example
 * const limits: FormatLimits = { maxTextChars: 1048576, maxUnzippedBytes: 67108864 };
 */
export interface FormatLimits {
  readonly maxTextChars: number;
  readonly maxUnzippedBytes: number;
}

/**
 * A format reader: the bytes of one file to its {@link FormatOutput}. Throws a
 * {@link FormatError} when the file cannot give text. `timeLimitMs` is for a reader that can stop
 * midway (PDF, between two pages); the others may leave it out.
 *
 * @example
 * const read: ReadFormat = async (bytes, limits) => ({ text: "…", headings: [] });
 */
export type ReadFormat = (bytes: Uint8Array, limits: FormatLimits, timeLimitMs: number) => Promise<FormatOutput>;

/**
 * Why a file gave no text. Each is one stderr line and one count in the search summary.
 *
 * @example
 * const why: UnreadableReason = "encrypted";
 */
export type UnreadableReason = "no-text" | "encrypted" | "corrupt" | "zip-bomb" | "timeout" | "reader-failed";

/**
 * What reading a PDF gave: its pages' text and metadata title, or why it gave nothing.
 *
 * @example
 * const read: PdfPages = { ok: true, pages: ["First page", "Second page"], title: "Manual" };
 */
export type PdfPages =
  | { readonly ok: true; readonly pages: readonly string[]; readonly title: string | undefined }
  | { readonly ok: false; readonly reason: UnreadableReason; readonly detail: string };

/** The stderr wording of each {@link UnreadableReason}. */
export const UNREADABLE_REASONS: Readonly<Record<UnreadableReason, string>> = {
  "no-text": "it has no text layer (a scanned document?)",
  encrypted: "it is encrypted",
  corrupt: "it is damaged or not a file of its type",
  "zip-bomb": "it expands past the unzipped size cap (a zip bomb?)",
  timeout: "reading it took longer than the time limit",
  "reader-failed": "the document reader stopped, or could not load its parser, before it answered; it is read again on the next start",
};

/**
 * True when a failure says what the file is (damaged, encrypted, a zip bomb, too slow to read),
 * so that a cache may keep it for the unchanged file; false when it says what happened to the
 * reader (its worker crashed or was stopped, its parser did not load), which the next try may
 * not meet.
 *
 * @example
 * isVerdict(new FormatError("timeout"));       // => true
 * isVerdict(new FormatError("reader-failed")); // => false
 */
export function isVerdict(failure: FormatError): boolean {
  return failure.reason !== "reader-failed";
}

/**
 * Loads a format's parser (unpdf, mammoth): a parser that fails to load is `reader-failed`, a
 * failure of this installation, never a verdict about the file being read.
 *
 * @example
 * const { default: mammoth } = await loadParser(() => import("mammoth"));
 */
export async function loadParser<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw new FormatError("reader-failed", error instanceof Error ? error.message : String(error));
  }
}

/**
 * A file that cannot give text, and why.
 *
 * @example
 * throw new FormatError("encrypted", "needs a password");
 */
export class FormatError extends Error {
  override readonly name = "FormatError";
  constructor(
    readonly reason: UnreadableReason,
    readonly detail?: string,
  ) {
    super(detail === undefined ? UNREADABLE_REASONS[reason] : `${UNREADABLE_REASONS[reason]} (${detail})`);
  }
}

/**
 * The version of what the binary formats' readers give: raised when one gives another title,
 * text, headings or pages for the same file (2: a link to a place in the same page stays a link,
 * so a Word document's table of contents reads as one). The text cache (../folder/text-cache.ts)
 * writes it in each entry and reads back no entry of another version; the folder's `--cache`
 * snapshot holds it in its fingerprint.
 */
export const FORMATS_VERSION = 2;

/**
 * The line that opens page `n` in a paged document's fetch text.
 *
 * @example
 * pageMarker(2); // => "[page 2]"
 */
export function pageMarker(n: number): string {
  return `[page ${n}]`;
}

/**
 * Cuts a text at `maxChars` characters, and says whether it did.
 *
 * @example
 * capText("abcdef", 3); // => { text: "abc", truncated: true }
 */
export function capText(text: string, maxChars: number): { text: string; truncated: boolean } {
  return text.length <= maxChars ? { text, truncated: false } : { text: text.slice(0, maxChars), truncated: true };
}
