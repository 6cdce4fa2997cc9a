/**
 * Hostile DOCX, ODT and EPUB files for the formats tests, built in memory with fflate: each is
 * the smallest file that reproduces one finding of issue 41, so no large binary is committed.
 */
import { strToU8, unzipSync, zipSync } from "fflate";

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

/** CRC-32 (the zip format's), by table. */
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * A zip of `files`, stored (not compressed), written directly: fflate's zipSync takes seconds for
 * 200,000 entries. Its end record is zip64's, as zip tools write it past 65,535 entries.
 */
export function storedZip(files: readonly (readonly [string, Uint8Array])[]): Uint8Array {
  const encoder = new TextEncoder();
  const named = files.map(([name, bytes]) => ({ name: encoder.encode(name), bytes, crc: bytes.length === 0 ? 0 : crc32(bytes) }));
  const localSize = named.reduce((sum, file) => sum + 30 + file.name.length + file.bytes.length, 0);
  const directorySize = named.reduce((sum, file) => sum + 46 + file.name.length, 0);
  const out = new Uint8Array(localSize + directorySize + 56 + 20 + 22);
  const view = new DataView(out.buffer);
  const offsets: number[] = [];
  let at = 0;
  for (const file of named) {
    offsets.push(at);
    view.setUint32(at, 0x04034b50, true);
    view.setUint16(at + 4, 20, true);
    view.setUint32(at + 14, file.crc, true);
    view.setUint32(at + 18, file.bytes.length, true);
    view.setUint32(at + 22, file.bytes.length, true);
    view.setUint16(at + 26, file.name.length, true);
    out.set(file.name, at + 30);
    out.set(file.bytes, at + 30 + file.name.length);
    at += 30 + file.name.length + file.bytes.length;
  }
  const directory = at;
  for (const [n, file] of named.entries()) {
    view.setUint32(at, 0x02014b50, true);
    view.setUint16(at + 4, 45, true);
    view.setUint16(at + 6, 20, true);
    view.setUint32(at + 16, file.crc, true);
    view.setUint32(at + 20, file.bytes.length, true);
    view.setUint32(at + 24, file.bytes.length, true);
    view.setUint16(at + 28, file.name.length, true);
    view.setUint32(at + 42, offsets[n] as number, true);
    out.set(file.name, at + 46);
    at += 46 + file.name.length;
  }
  const zip64 = at;
  view.setUint32(at, 0x06064b50, true);
  view.setBigUint64(at + 4, 44n, true);
  view.setUint16(at + 12, 45, true);
  view.setUint16(at + 14, 45, true);
  view.setBigUint64(at + 24, BigInt(named.length), true);
  view.setBigUint64(at + 32, BigInt(named.length), true);
  view.setBigUint64(at + 40, BigInt(directorySize), true);
  view.setBigUint64(at + 48, BigInt(directory), true);
  at += 56;
  view.setUint32(at, 0x07064b50, true);
  view.setBigUint64(at + 8, BigInt(zip64), true);
  view.setUint32(at + 16, 1, true);
  at += 20;
  view.setUint32(at, 0x06054b50, true);
  // Every field says "see the zip64 record".
  view.setUint16(at + 8, 0xffff, true);
  view.setUint16(at + 10, 0xffff, true);
  view.setUint32(at + 12, 0xffffffff, true);
  view.setUint32(at + 16, 0xffffffff, true);
  return out;
}

/** A DOCX of one paragraph of `text`, then `count` empty entries, stored. */
export function docxWithEmptyEntries(text: string, count: number): Uint8Array {
  const parts = Object.entries(unzipSync(docxOf(paragraph(text))));
  const empty = new Uint8Array(0);
  return storedZip([...parts, ...Array.from({ length: count }, (_, n) => [`junk/${n}.xml`, empty] as const)]);
}
