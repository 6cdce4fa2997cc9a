import { readdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type { readBinary } from "../../src/formats/extract.js";
import { documentWithin, readDocx } from "../../src/formats/docx.js";
import { readEpub } from "../../src/formats/epub.js";
import { readOdt } from "../../src/formats/odt.js";
import { withoutDtd } from "../../src/formats/xml.js";
import { unzipWithin } from "../../src/formats/zip.js";
import { chapter, docxOf, epubOf, odtOf, paragraph } from "../formats/_hostile-zips.js";

/**
 * The readers against hostile files (issue 41, findings 1, 2, 4 and 7), each built in memory
 * (./_hostile-zips.ts): a reader's work is bounded by what it has produced, its regular
 * expressions are linear, it keeps what it can read of a malformed file, and the built bin's
 * formats worker fails only its own document when it is stopped. The inputs that were
 * super-linear are sized so that the code before the fix ran far past the test's time-out
 * (measured: the ODT 34 s), while the fix reads them at once. The DOCX of empty entries, the
 * DOCX that unzips to 50 MB and the ODT of nested lists are in ../extra/hostile-formats.test.ts:
 * each costs seconds.
 */

const LIMITS = { maxTextChars: 1 << 20, maxUnzippedBytes: 64 << 20 };
const DIST = fileURLToPath(new URL("../../dist/", import.meta.url));
/** The built chunk whose name starts with `name-`. */
const builtChunk = (name: string) => `${DIST}${readdirSync(DIST).find((file) => new RegExp(`^${name}-[\\w-]+\\.js$`).test(file)) ?? `${name}-missing.js`}`;

describe("finding 2: each reader's work is bounded by what it has produced", () => {
  it("reads a spine entry listed many times once", async () => {
    const book = epubOf({ "one.xhtml": chapter("Lighthouse", "The keeper climbs the stairs.") }, Array.from({ length: 500 }, () => "c0"));
    const read = await readEpub(book, LIMITS);
    expect(read.text.split("The keeper climbs").length - 1).toBe(1);
  });

  it("stops reading chapters past the text cap", async () => {
    const chapters = Object.fromEntries(Array.from({ length: 40 }, (_, n) => [`c${n}.xhtml`, chapter(`Chapter ${n}`, `words ${"x".repeat(100)}`)]));
    const read = await readEpub(epubOf(chapters, Object.keys(chapters).map((_, n) => `c${n}`)), { ...LIMITS, maxTextChars: 500 });
    expect(read.truncated).toBe(true);
    expect(read.text).not.toContain("Chapter 39");
  });

  it("cuts a DOCX's document part after the body block that passes the text cap, every open element closed", async () => {
    const body = `${paragraph("first words")}<w:tbl><w:tr><w:tc>${paragraph("in a table")}</w:tc></w:tr></w:tbl>${paragraph("never read")}`;
    const xml = `<?xml version="1.0"?><w:document xmlns:w="urn:w"><w:body>${body}<w:sectPr/></w:body></w:document>`;
    expect(documentWithin(xml, 100)).toStrictEqual({ xml, cut: false });
    const cut = documentWithin(xml, 12);
    expect(cut).toStrictEqual({ xml: `<?xml version="1.0"?><w:document xmlns:w="urn:w"><w:body>${paragraph("first words")}<w:tbl><w:tr><w:tc>${paragraph("in a table")}</w:tc></w:tr></w:tbl></w:body></w:document>`, cut: true });
    const read = await readDocx(docxOf(paragraph("x".repeat(300)).repeat(10)), { ...LIMITS, maxTextChars: 500 });
    expect(read).toMatchObject({ truncated: true });
    expect(read.text).toHaveLength(500);
  });

  it("stops a zip whose central directory understates a size at the cap, by the bytes really inflated", () => {
    const zip = docxOf(paragraph("x".repeat(200_000)));
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    // Every directory entry says its data expands to 10 bytes.
    for (let at = 0; at + 4 <= zip.length; at += 1) if (view.getUint32(at, true) === 0x02014b50) view.setUint32(at + 24, 10, true);
    expect(() => unzipWithin(zip, 100_000, () => true)).toThrow(/^it expands past the unzipped size cap \(a zip bomb\?\) \(more than 100000 bytes\)$/);
  });

});

describe("finding 4: odtToHtml is linear", () => {
  it("reads an ODT of 200,000 headings that never close", async () => {
    const read = await readOdt(odtOf(`<text:p>Before</text:p>${"<text:h>x".repeat(200_000)}`), LIMITS);
    expect(read.text.startsWith("Before\n\n# x")).toBe(true);
  });

  it("keeps headings, list items and links as before", async () => {
    const read = await readOdt(
      odtOf('<text:h text:outline-level="2">Water<text:s/>temperature</text:h><text:list><text:list-item><text:p>Hot</text:p></text:list-item></text:list><text:p>See <text:a xlink:href="https://x.org">this</text:a>.<text:line-break/>Next</text:p><text:h'),
      LIMITS,
    );
    expect(read.text).toBe("## Water temperature\n\n- Hot\n\nSee [this](https://x.org).\nNext");
  });
});

describe("finding 7: a reader keeps what it can read", () => {
  it("reads an EPUB whose manifest holds a malformed escape, the other chapters and that one", async () => {
    const book = epubOf({ "a%zz.xhtml": chapter("Odd name", "Its href has a bad escape."), "b c.xhtml": chapter("Good name", "Its href is escaped.") }, ["c0", "c1"], { "b c.xhtml": "b%20c.xhtml" });
    const read = await readEpub(book, LIMITS);
    expect(read.text).toContain("Its href has a bad escape.");
    expect(read.text).toContain("Its href is escaped.");
  });

  it("drops an EPUB chapter's DOCTYPE whole, its internal subset included", async () => {
    const doctype = '<!DOCTYPE html [ <!ENTITY chapter "one"> <!ELEMENT p (#PCDATA)> ]>';
    const read = await readEpub(epubOf({ "one.xhtml": chapter("Harbour", "Boats at rest.", doctype) }, ["c0"]), LIMITS);
    expect(read.text).toBe("# Harbour\n\nBoats at rest.");
  });

  it("reads a DOCX that declares an entity: the text is kept, the entity dropped", async () => {
    const read = await readDocx(docxOf(paragraph("Grind &brand; beans &amp; brew"), { prolog: '<!DOCTYPE w:document [<!ENTITY brand "Acme">]>' }), LIMITS);
    expect(read.text).toBe("Grind beans & brew");
  });

  it("expands no entity of a billion laughs", async () => {
    const laughs = `<!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, n) => `<!ENTITY lol${n + 1} "${`&lol${n === 0 ? "" : n};`.repeat(10)}">`).join("")}]>`;
    const read = await readDocx(docxOf(paragraph("Laugh: &lol9;."), { prolog: laughs }), LIMITS);
    expect(read.text).toBe("Laugh: .");
    expect(withoutDtd(`${laughs}<a>&lol9; &lt; &#65;</a>`)).toBe("<a> &lt; &#65;</a>");
  });
});

describe("finding 1: a stopped formats worker fails only its own document (the built bin's worker)", () => {
  it("reads the next document in the new worker while the stopped one exits", async () => {
    const built = (await import(pathToFileURL(builtChunk("extract")).href)) as { readBinary: typeof readBinary };
    // A chapter that takes the worker seconds: with a time limit of 0, the worker is stopped
    // after the grace (1 s), as a reader that never ends would be.
    const slow = epubOf({ "long.xhtml": `<html><body>${"<p>word after word, and another word</p>".repeat(1_000_000)}</body></html>` }, ["c0"]);
    const next = epubOf({ "one.xhtml": chapter("Lighthouse", "The keeper climbs the stairs.") }, ["c0"]);
    const stopped = built.readBinary("epub", slow, { ...LIMITS, maxTextChars: 64 << 20 }, 0);
    const read = built.readBinary("epub", next, LIMITS, 60_000);
    await expect(stopped).rejects.toMatchObject({ reason: "timeout" });
    expect((await read).text).toBe("# Lighthouse\n\nThe keeper climbs the stairs.");
  });
});
