/**
 * DOCX: mammoth turns the document into HTML (headings, lists, tables and links kept), and the
 * folder's HTML converter makes it Markdown. The zip is first read within the unzipped-size cap
 * (./zip.ts): mammoth would inflate a zip bomb whole.
 */
import { htmlDocument, sectionHeadings } from "./documents.js";
import { capText, FormatError, type FormatLimits, type FormatOutput } from "./types.js";
import { entryText, unzipWithin } from "./zip.js";
import { elementText } from "./xml.js";

/**
 * Reads a DOCX file: its core properties' title, else its first real heading.
 *
 * @example
 * const { title, text } = await readDocx(bytes, limits); // title => "Pour-over coffee guide"
 */
export async function readDocx(bytes: Uint8Array, limits: FormatLimits): Promise<FormatOutput> {
  const files = unzipWithin(bytes, limits.maxUnzippedBytes, () => true);
  if (!files.has("word/document.xml")) throw new FormatError("corrupt", "no word/document.xml inside");
  const core = files.has("docProps/core.xml") ? elementText(entryText(files, "docProps/core.xml"), "dc:title") : undefined;
  const { default: mammoth } = await import("mammoth");
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) })).value;
  } catch (error) {
    throw new FormatError("corrupt", error instanceof Error ? error.message : String(error));
  }
  const page = htmlDocument(html);
  const { text, truncated } = capText(page.text, limits.maxTextChars);
  return { title: core ?? page.title, text, headings: sectionHeadings(text), truncated };
}
