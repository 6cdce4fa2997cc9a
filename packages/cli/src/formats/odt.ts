/**
 * ODT (OpenDocument text): its content.xml, read within the unzipped-size cap (./zip.ts), has its
 * elements renamed to their HTML counterparts (a heading keeps its outline level; paragraphs,
 * lists, tables and links stay what they are) and goes through the folder's HTML converter.
 */
import { htmlDocument, sectionHeadings } from "./titles.js";
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
 * The deepest list kept as a list; deeper lists keep their items' paragraphs, without the
 * nesting (a 126 kB ODT of lists nested 600,000 deep took the converter past 1 GB).
 */
const MAX_LIST_DEPTH = 32;

/**
 * The body of an OpenDocument content.xml as HTML, in one pass over its tags (found by
 * `indexOf`, so linear however the tags are cut or nested).
 *
 * @example
 * odtToHtml('<office:text><text:h text:outline-level="2">Water</text:h><text:p>Hot.</text:p></office:text>');
 * // => "<h2>Water</h2><p>Hot.</p>"
 */
function odtToHtml(xml: string, maxChars = Number.POSITIVE_INFINITY): string {
  const start = xml.indexOf("<office:text");
  const body = start === -1 ? xml : xml.slice(start);
  const out: string[] = [];
  const headings: number[] = [];
  let lists = 0;
  let chars = 0;
  let at = 0;
  for (let open = body.indexOf("<"); open !== -1; open = body.indexOf("<", at)) {
    // Past the text cap, the rest would only be cut away: its markup is not converted either.
    if (chars > maxChars) return joinItems(out);
    chars += open - at;
    out.push(body.slice(at, open));
    const close = body.indexOf(">", open);
    // A tag cut short at the end is markup, not text.
    if (close === -1) return joinItems(out);
    at = close + 1;
    const raw = body.slice(open + 1, close);
    const closing = raw.startsWith("/");
    const selfClosing = raw.endsWith("/");
    const name = /^\/?([\w.-]+(?::[\w.-]+)?)/.exec(raw)?.[1] ?? "";
    if (!name.includes(":")) {
      // Not an OpenDocument element (an XML declaration, a comment): kept as written.
      out.push(body.slice(open, close + 1));
      continue;
    }
    if (name === "text:s" || name === "text:tab") {
      if (!closing) out.push(" ");
    } else if (name === "text:line-break") {
      if (!closing) out.push("<br>");
    } else if (name === "text:h") {
      if (closing) out.push(`</h${headings.pop() ?? 1}>`);
      else if (!selfClosing) {
        const level = headingLevel(raw);
        headings.push(level);
        out.push(`<h${level}>`);
      }
    } else {
      let html = ELEMENTS[name];
      if (name === "text:list" && !selfClosing) {
        if (!closing) lists += 1;
        const depth = lists;
        if (closing) lists = Math.max(0, lists - 1);
        if (depth > MAX_LIST_DEPTH) html = undefined;
      } else if (name === "text:list-item" && lists > MAX_LIST_DEPTH) html = undefined;
      if (html === undefined) continue;
      if (closing) out.push(`</${html}>`);
      else {
        const href = html === "a" ? /xlink:href="([^"]*)"/.exec(raw)?.[1] : undefined;
        out.push(`<${html}${href === undefined ? "" : ` href="${href}"`}${selfClosing ? "/" : ""}>`);
      }
    }
  }
  out.push(body.slice(at));
  return joinItems(out);
}

/** The HTML parts joined, a list item's paragraph made the item's text rather than a block of its own. */
function joinItems(parts: readonly string[]): string {
  return parts.join("").replace(/<li>\s*<p>/g, "<li>").replace(/<\/p>\s*<\/li>/g, "</li>");
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
  const page = htmlDocument(odtToHtml(entryText(files, "content.xml"), limits.maxTextChars));
  const meta = files.has("meta.xml") ? elementText(entryText(files, "meta.xml"), "dc:title") : undefined;
  const { text, truncated } = capText(page.text, limits.maxTextChars);
  return { title: meta ?? page.title, text, headings: sectionHeadings(text), truncated };
}
