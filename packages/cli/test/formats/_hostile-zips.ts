/**
 * Hostile DOCX, ODT and EPUB files for the formats tests, built in memory with fflate: each is
 * the smallest file that reproduces one finding of issue 41, so no large binary is committed.
 */
import { strToU8, zipSync } from "fflate";

/** A DOCX of `body` (WordprocessingML paragraphs), with `prolog` before its root element and `extra` entries. */
export function docxOf(body: string, options: { prolog?: string; extra?: Record<string, Uint8Array> } = {}): Uint8Array {
  return zipSync({
    "[Content_Types].xml": strToU8(
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    "_rels/.rels": strToU8(
      '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    "word/document.xml": strToU8(`<?xml version="1.0"?>${options.prolog ?? ""}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`),
    ...options.extra,
  });
}

/** One WordprocessingML paragraph of `text` (XML, entities allowed). */
export const paragraph = (text: string) => `<w:p><w:r><w:t>${text}</w:t></w:r></w:p>`;

/** An ODT whose office:text body is `body`. */
export function odtOf(body: string): Uint8Array {
  return zipSync({
    mimetype: strToU8("application/vnd.oasis.opendocument.text"),
    "content.xml": strToU8(`<?xml version="1.0"?><office:document-content><office:body><office:text>${body}</office:text></office:body></office:document-content>`),
  });
}

/**
 * An EPUB of `chapters` (file name under OEBPS/ → XHTML), listed in the manifest as c0, c1…
 * with `hrefs` overriding a chapter's href as written, and read in the order of `spine`.
 */
export function epubOf(chapters: Record<string, string>, spine: readonly string[], hrefs: Record<string, string> = {}): Uint8Array {
  const manifest = Object.keys(chapters).map((name, n) => `<item id="c${n}" href="${hrefs[name] ?? name}" media-type="application/xhtml+xml"/>`);
  return zipSync({
    mimetype: strToU8("application/epub+zip"),
    "META-INF/container.xml": strToU8('<?xml version="1.0"?><container><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>'),
    "OEBPS/content.opf": strToU8(
      `<?xml version="1.0"?><package><metadata><dc:title>Hostile book</dc:title></metadata><manifest>${manifest.join("")}</manifest><spine>${spine.map((id) => `<itemref idref="${id}"/>`).join("")}</spine></package>`,
    ),
    ...Object.fromEntries(Object.entries(chapters).map(([name, html]) => [`OEBPS/${name}`, strToU8(html)])),
  });
}

/** An XHTML chapter with one heading and one paragraph. */
export const chapter = (heading: string, text: string, doctype = "") => `<?xml version="1.0"?>${doctype}<html><body><h1>${heading}</h1><p>${text}</p></body></html>`;
