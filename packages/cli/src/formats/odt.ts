/**
 * ODT (OpenDocument text): its content.xml, read within the unzipped-size cap (./zip.ts), has its
 * elements renamed to their HTML counterparts (a heading keeps its outline level; paragraphs,
 * lists, tables and links stay what they are) and goes through the folder's HTML converter.
 */
import { htmlDocument, sectionHeadings } from "./documents.js";
import { capText, type FormatLimits, type FormatOutput } from "./types.js";
import { elementText } from "./xml.js";
import { entryText, unzipWithin } from "./zip.js";

/** OpenDocument elements and the HTML element each becomes; the rest keep only their text. */
const ELEMENTS: Readonly<Record<string, string>> = {
  "text:p": "p",
  "text:list": "ul",
  "text:list-item": "li",
  "table:table": "table",
  "table:table-row": "tr",
  "table:table-cell": "td",
  "text:a": "a",
};

/**
 * The body of an OpenDocument content.xml as HTML.
 *
 * @example
 * odtToHtml('<office:text><text:h text:outline-level="2">Water</text:h><text:p>Hot.</text:p></office:text>');
 * // => "<h2>Water</h2><p>Hot.</p>"
 */
function odtToHtml(xml: string): string {
  const start = xml.indexOf("<office:text");
  const body = start === -1 ? xml : xml.slice(start);
  return body
    .replace(/<text:(?:s|tab)(?:\s[^>]*)?\/>/g, " ")
    .replace(/<text:line-break\s*\/>/g, "<br>")
    .replace(/<text:h\b([^>]*)>/g, (_, attributes: string) => `<h${headingLevel(attributes)}>`)
    .replace(/<\/text:h>/g, "</h9>")
    .replace(/<(\/?)([a-z]+:[a-z-]+)((?:\s[^>]*?)?)(\/?)>/g, (whole, close: string, name: string, attributes: string, selfClose: string) => {
      const html = ELEMENTS[name];
      if (html === undefined) return "";
      if (close === "/") return `</${html}>`;
      const href = html === "a" ? /xlink:href="([^"]*)"/.exec(attributes)?.[1] : undefined;
      void whole;
      return `<${html}${href === undefined ? "" : ` href="${href}"`}${selfClose === "/" ? "/" : ""}>`;
    })
    .replace(/<h(\d)>([\s\S]*?)<\/h9>/g, (_, level: string, inner: string) => `<h${level}>${inner}</h${level}>`)
    // A list item's paragraph is the item's text, not a block of its own.
    .replace(/<li>\s*<p>/g, "<li>")
    .replace(/<\/p>\s*<\/li>/g, "</li>");
}

function headingLevel(attributes: string): number {
  const level = Number(/text:outline-level="(\d+)"/.exec(attributes)?.[1] ?? "1");
  return Math.min(6, Math.max(1, level));
}

/**
 * Reads an ODT file: its meta.xml title, else its first real heading.
 *
 * @example
 * const { title } = await readOdt(bytes, limits); // => "Pour-over coffee guide"
 */
export async function readOdt(bytes: Uint8Array, limits: FormatLimits): Promise<FormatOutput> {
  const files = unzipWithin(bytes, limits.maxUnzippedBytes, (name) => name === "content.xml" || name === "meta.xml");
  const page = htmlDocument(odtToHtml(entryText(files, "content.xml")));
  const meta = files.has("meta.xml") ? elementText(entryText(files, "meta.xml"), "dc:title") : undefined;
  const { text, truncated } = capText(page.text, limits.maxTextChars);
  return { title: meta ?? page.title, text, headings: sectionHeadings(text), truncated };
}
