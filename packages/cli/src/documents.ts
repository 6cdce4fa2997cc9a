/**
 * From a file's bytes to a document: UTF-8 or nothing, a title, and the text as readable
 * Markdown or plain text. Every step is linear in the size of the file.
 */
import { basename, extname } from "node:path";
import { htmlTitle, htmlToMarkdown } from "./html.js";

/**
 * The extensions the folder server indexes, lower case.
 *
 * @example
 * SUPPORTED_EXTENSIONS.has(".md"); // => true
 */
export const SUPPORTED_EXTENSIONS: ReadonlySet<string> = new Set([
  ".md", ".markdown", ".txt", ".rst", ".csv", ".json", ".yaml", ".yml", ".html", ".htm",
]);

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
}

const FORMATS: Readonly<Record<string, string>> = {
  ".md": "markdown", ".markdown": "markdown", ".txt": "text", ".rst": "restructuredtext",
  ".csv": "csv", ".json": "json", ".yaml": "yaml", ".yml": "yaml", ".html": "html", ".htm": "html",
};

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
 * The title and text of a document. The title is the first Markdown (or reStructuredText
 * underlined) heading, else the HTML `<title>`, else the file name.
 *
 * @example
 * extractDocument("guides/brewing.md", "# Brewing\n\nHot water.").title; // => "Brewing"
 * extractDocument("notes/a.txt", "plain words").title;                  // => "a.txt"
 */
export function extractDocument(path: string, source: string): ExtractedDocument {
  const extension = extname(path).toLowerCase();
  const format = FORMATS[extension] ?? "text";
  const text = format === "html" ? htmlToMarkdown(source) : format === "json" ? readableJson(source) : source.trim();
  const title = firstHeading(text, format === "restructuredtext") ?? (format === "html" ? htmlTitle(source) : undefined);
  return { title: title ?? basename(path), text, format };
}

/** A JSON file written on one line is re-indented; anything else is kept as written. */
function readableJson(source: string): string {
  const trimmed = source.trim();
  if (trimmed.includes("\n")) return trimmed;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return trimmed;
  }
}

const ATX = /^ {0,3}#{1,6}[ \t]+/;
const SETEXT_MARKDOWN = /^ {0,3}(=+|-{2,})[ \t]*$/;
const SETEXT_RST = /^([=\-~^"'`#*+:.])\1+[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * The first heading of a Markdown text (`# Title`, or a line underlined with `===`/`---`), or,
 * with `rst`, a reStructuredText title underlined with any punctuation. Code fences and YAML
 * front matter are skipped.
 *
 * @example
 * firstHeading("---\ntitle: x\n---\nIntro\n\n## Steps ##"); // => "Steps"
 */
export function firstHeading(text: string, rst = false): string | undefined {
  const lines = text.split("\n");
  let fence: string | undefined;
  let start = 0;
  if (lines[0]?.trim() === "---") {
    const close = lines.findIndex((line, index) => index > 0 && line.trim() === "---");
    if (close !== -1) start = close + 1;
  }
  for (let index = start; index < lines.length; index += 1) {
    const line = (lines[index] ?? "").replace(/\r$/, "");
    const fenceMatch = FENCE.exec(line);
    if (fenceMatch !== null) {
      const marker = fenceMatch[1]?.[0] ?? "`";
      if (fence === undefined) fence = marker;
      else if (marker === fence) fence = undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const atx = ATX.exec(line);
    if (atx !== null) {
      const title = cleanTitle(stripClosingHashes(line.slice(atx[0].length)));
      if (title !== "") return title;
      continue;
    }
    const next = (lines[index + 1] ?? "").replace(/\r$/, "");
    const underline = rst ? SETEXT_RST.exec(next) : SETEXT_MARKDOWN.exec(next);
    if (underline === null) continue;
    const title = cleanTitle(line);
    if (title !== "" && (!rst || next.trim().length >= title.length)) return title;
  }
  return undefined;
}

function stripClosingHashes(line: string): string {
  let end = line.length;
  while (end > 0 && (line[end - 1] === " " || line[end - 1] === "\t")) end -= 1;
  let hashes = end;
  while (hashes > 0 && line[hashes - 1] === "#") hashes -= 1;
  return hashes < end && (hashes === 0 || line[hashes - 1] === " " || line[hashes - 1] === "\t") ? line.slice(0, hashes) : line.slice(0, end);
}

/** Drops Markdown emphasis and code marks, and collapses whitespace. */
function cleanTitle(line: string): string {
  return line.replace(/[*_`]+/g, "").replace(/\s+/g, " ").trim();
}
