/**
 * Which extension is which format, for the formats of this folder. Kept apart from the readers
 * (./registry.ts loads them) so that listing a folder imports no parser.
 */

/**
 * The binary formats, by extension (lower case): their bytes go to a reader of this folder,
 * loaded the first time a file of the type is read.
 *
 * @example
 * BINARY_FORMATS[".pdf"]; // => "pdf"
 */
export const BINARY_FORMATS: Readonly<Record<string, BinaryFormat>> = {
  ".pdf": "pdf",
  ".docx": "docx",
  ".odt": "odt",
  ".epub": "epub",
};

/**
 * A binary format's name, as `FolderDocument.format` gives it.
 *
 * @example
 * const format: BinaryFormat = "epub";
 */
export type BinaryFormat = "pdf" | "docx" | "odt" | "epub";

/** The formats whose text is Markdown: written so, or converted from HTML, DOCX, ODT or EPUB. */
const MARKDOWN_TEXT: ReadonlySet<string> = new Set(["markdown", "html", "docx", "odt", "epub"]);

/**
 * True when a document of this format has Markdown text, so that search indexes it and shows it
 * as plain text (links' targets and markup left out).
 *
 * @example
 * readsAsMarkdown("docx"); // => true
 * readsAsMarkdown("csv");  // => false
 */
export function readsAsMarkdown(format: string): boolean {
  return MARKDOWN_TEXT.has(format);
}
