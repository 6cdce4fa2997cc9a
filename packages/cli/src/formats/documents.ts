/**
 * From a file's bytes to a document: UTF-8 or nothing, a title, and the text as readable
 * Markdown or plain text. Every step is linear in the size of the file.
 */
import { basename } from "node:path";
import { readText } from "./registry.js";

/**
 * A file read as a document.
 *
 * @example
 * const doc: ExtractedDocument = { title: "Pour-over brewing", text: "# Pour-over brewing\n…", format: "markdown" };
 */
export interface ExtractedDocument {
  readonly title: string;
  readonly text: string;
  readonly format: string;
  /**
   * The section headings, when the format has them (Markdown, HTML, AsciiDoc, Org, and the
   * binary formats): BM25 reads them as the document's keywords. @default undefined
   */
  readonly headings?: readonly string[] | undefined;
  /** A paged document's (PDF's) pages, each page's text in order: indexed without page markers. @default undefined */
  readonly pages?: readonly string[] | undefined;
}

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * Decodes bytes as strict UTF-8 (the BOM dropped). Invalid UTF-8, or a NUL byte (a binary
 * file), gives `undefined`.
 *
 * @example
 * decodeUtf8(Buffer.from("café")); // => "café"
 * decodeUtf8(Buffer.from([0xff, 0xfe, 0x00])); // => undefined
 */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Options of {@link extractDocument}.
 *
 * @example
 * const options: ExtractOptions = { url: "https://docs.example.com/guide/intro.html" };
 */
interface ExtractOptions {
  /**
   * The document's public URL (under `--base-url`): relative links of an HTML page are resolved
   * against it. Without it they are kept as written. @default undefined
   */
  readonly url?: string | undefined;
}

/**
 * The title and text of a document, read by its format (./registry.ts). The title is clean text,
 * at most `MAX_TITLE_CHARS` characters (./titles.ts): for Markdown, its YAML front matter's
 * `title`; for Markdown, reStructuredText and plain text, the first heading that is not generic; for an HTML page, the first `<h1>` of its content,
 * else its first `<h1>`, else its `<title>`, else its first heading; for AsciiDoc and Org, the
 * title they mark; else, for any format, the file name.
 *
 * @example
 * extractDocument("guides/brewing.md", "# Brewing\n\nHot water.").title;                        // => "Brewing"
 * extractDocument("README.md", "# is-glob [![NPM](https://x/b.svg)](https://x)\n\nText.").title; // => "is-glob"
 * extractDocument("notes/a.txt", "plain words").title;                                           // => "a.txt"
 */
export function extractDocument(path: string, source: string, options: ExtractOptions = {}): ExtractedDocument {
  const { title, text, headings, format } = readText(path, source, options);
  return { title: title ?? basename(path), text, format, ...(headings !== undefined && { headings }) };
}

