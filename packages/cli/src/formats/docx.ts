/**
 * DOCX: mammoth turns the document into HTML (headings, lists, tables and links kept), and the
 * folder's HTML converter makes it Markdown. The zip is first read within the unzipped-size cap
 * (./zip.ts), and only the parts mammoth reads are kept: mammoth would inflate a zip bomb whole,
 * and walk every entry of an archive of 200,000. Those parts lose their DTD before mammoth sees
 * them (./xml.ts), so a document that declares an entity keeps its text without the entity, and
 * no entity is ever expanded.
 */
import { zipSync } from "fflate";
import { htmlDocument, sectionHeadings } from "./titles.js";
import { capText, FormatError, loadParser, type FormatLimits, type FormatOutput } from "./types.js";
import { entryText, unzipWithin } from "./zip.js";
import { elementText, withoutDtd } from "./xml.js";

/**
 * The parts of a DOCX that mammoth reads: the package's content types and relationships, the
 * document, its styles, lists, notes and comments, and the relationships of each; and the core
 * properties, for the title.
 */
const PARTS = /^(?:\[Content_Types\]\.xml|_rels\/\.rels|docProps\/core\.xml|word\/(?:_rels\/)?(?:document|styles|numbering|footnotes|endnotes|comments)\.xml(?:\.rels)?)$/;

/**
 * Reads a DOCX file: its core properties' title, else its first real heading.
 *
 * @example
 * const { title, text } = await readDocx(bytes, limits); // title => "Pour-over coffee guide"
 */
export async function readDocx(bytes: Uint8Array, limits: FormatLimits): Promise<FormatOutput> {
  const files = unzipWithin(bytes, limits.maxUnzippedBytes, (name) => PARTS.test(name));
  if (!files.has("word/document.xml")) throw new FormatError("corrupt", "no word/document.xml inside");
  const parts: Record<string, [Uint8Array, { level: 0 }]> = {};
  const encoder = new TextEncoder();
  let cut = false;
  for (const name of files.keys()) {
    let xml = entryText(files, name);
    if (name === "word/document.xml") ({ xml, cut } = documentWithin(xml, limits.maxTextChars));
    parts[name] = [encoder.encode(withoutDtd(xml)), { level: 0 }];
  }
  const core = files.has("docProps/core.xml") ? elementText(entryText(files, "docProps/core.xml"), "dc:title") : undefined;
  files.clear();
  const { default: mammoth } = await loadParser(() => import("mammoth"));
  let html: string;
  try {
    // Stored, not compressed: mammoth reads these parts back at once.
    const buffer = Buffer.from(zipSync(parts));
    // Images are not read: their bytes would become data URIs that the text drops anyway.
    html = (await mammoth.convertToHtml({ buffer }, { convertImage: mammoth.images.imgElement(async () => ({ src: "" })) })).value;
  } catch (error) {
    throw new FormatError("corrupt", error instanceof Error ? error.message : String(error));
  }
  const page = htmlDocument(html);
  const { text, truncated } = capText(page.text, limits.maxTextChars);
  return { title: core ?? page.title, text, headings: sectionHeadings(text), truncated: truncated || cut };
}

/**
 * The document part cut after the first block of its body (a paragraph, a table) that takes its
 * text (`<w:t>` runs) past `maxChars` characters, every element still open then closed: what
 * follows would be cut from the text anyway, and mammoth builds the whole part in memory (a DOCX
 * that unzips to 50 MB took it past 3.9 GB). One pass over the tags, by `indexOf`.
 *
 * @example
 * documentWithin("<w:document><w:body><w:p><w:r><w:t>ab</w:t></w:r></w:p><w:p/></w:body></w:document>", 1);
 * // => { xml: "<w:document><w:body><w:p><w:r><w:t>ab</w:t></w:r></w:p></w:body></w:document>", cut: true }
 */
export function documentWithin(xml: string, maxChars: number): { xml: string; cut: boolean } {
  const open: string[] = [];
  let bodyDepth = -1;
  let chars = 0;
  let at = 0;
  for (let start = xml.indexOf("<"); start !== -1; start = xml.indexOf("<", at)) {
    if (open[open.length - 1] === "w:t") chars += start - at;
    const end = xml.indexOf(">", start);
    if (end === -1) break;
    at = end + 1;
    const second = xml[start + 1];
    if (second === "?" || second === "!") continue;
    const name = /^\/?([^\s/>]+)/.exec(xml.slice(start + 1, Math.min(end, start + 64)))?.[1] ?? "";
    if (second !== "/") {
      if (xml[end - 1] !== "/") open.push(name);
      if (name === "w:body") bodyDepth = open.length;
      continue;
    }
    const found = open.lastIndexOf(name);
    if (found !== -1) open.length = found;
    // A block of the body just ended: past the cap, the rest is left out.
    if (chars > maxChars && open.length === bodyDepth) {
      return { xml: xml.slice(0, at) + open.map((element) => `</${element}>`).reverse().join(""), cut: true };
    }
  }
  return { xml, cut: false };
}
