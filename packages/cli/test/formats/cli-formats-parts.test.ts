import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { readAsciiDoc } from "../../src/formats/asciidoc.js";
import { markdownToText } from "../../src/formats/markdown.js";
import { readOdt } from "../../src/formats/odt.js";
import { readOrg } from "../../src/formats/org.js";
import { hitPage, normalisedPages, pageOfMatches, pageUrl } from "../../src/formats/pages.js";
import type { readBinary } from "../../src/formats/extract.js";
import { pdfTitle, readPdf } from "../../src/formats/pdf.js";
import { FormatError } from "../../src/formats/types.js";
import { unzipWithin } from "../../src/formats/zip.js";
import { pageStarts } from "../../src/folder/reader.js";

/**
 * The formats' parts on their own: heading readers, an ODT's table of contents, the PDF title rule, the zip cap, the page a
 * hit is on, and the time limit of a PDF, in this thread and in the built bin's worker.
 */

const FIXTURES = new URL("../fixtures/formats/", import.meta.url);
const fixture = (name: string) => new Uint8Array(readFileSync(new URL(name, FIXTURES)));
const LIMITS = { maxTextChars: 1 << 20, maxUnzippedBytes: 64 << 20 };

describe("readAsciiDoc and readOrg", () => {
  it.each([
    ["= Brewing\n\n== Grinding ==\n\n----\n== not a title\n----\n\n=== Water", { title: "Brewing", headings: ["Grinding", "Water"] }],
    ["== Only sections\n\ntext", { title: "Only sections", headings: ["Only sections"] }],
    ["no heading at all", { title: undefined, headings: [] }],
  ])("AsciiDoc %j", (text, expected) => {
    expect(readAsciiDoc(text)).toStrictEqual(expected);
  });

  it.each([
    ["#+TITLE: Garden log\n* TODO Tomatoes :summer:\n#+BEGIN_SRC\n* not a heading\n#+END_SRC\n** [#A] Watering", { title: "Garden log", headings: ["Tomatoes", "Watering"] }],
    ["* First\n** Second", { title: "First", headings: ["Second"] }],
  ])("Org %j", (text, expected) => {
    expect(readOrg(text)).toStrictEqual(expected);
  });
});

describe("readOdt", () => {
  it("reads a table of contents as LibreOffice writes it as links to places in the document, which a snippet skips", async () => {
    const files = unzipSync(fixture("guide.odt"));
    const xml = strFromU8(files["content.xml"]!);
    const entry = (title: string, page: number, n: number) =>
      `<text:p text:style-name="Contents_20_2"><text:a xlink:type="simple" xlink:href="#__RefHeading___Toc${n}_1" text:style-name="Index_20_Link">${title}<text:tab/>${page}</text:a></text:p>`;
    const contents = `<text:table-of-content text:name="Table of Contents1"><text:index-body><text:index-title><text:p>Contents</text:p></text:index-title>${entry("Grinding the beans", 2, 1)}${entry("Water temperature", 3, 2)}</text:index-body></text:table-of-content>`;
    const at = xml.indexOf("<text:h");
    const { text } = await readOdt(zipSync({ ...files, "content.xml": strToU8(xml.slice(0, at) + contents + xml.slice(at)) }), LIMITS);
    expect(text).toContain("Contents\n\n[Grinding the beans 2](#__RefHeading___Toc1_1)\n\n[Water temperature 3](#__RefHeading___Toc2_1)\n\n# Pour-over coffee guide");
    expect(markdownToText(text, { contents: false })).toContain("Contents\n\nPour-over coffee guide");
  });
});

describe("pdfTitle", () => {
  it.each([
    ["Annual report 2026", ["Cover\nText."], "Annual report 2026"],
    ["Microsoft Word - report.docx", ["Annual report\nThis year we grew."], "Annual report"],
    ["untitled", ["A sentence that ends.\nShort title"], "Short title"],
    ["scan.pdf", ["12\n\n"], undefined],
    [undefined, [""], undefined],
  ] as const)("metadata %j, page 1 %j → %j", (metadata, pages, expected) => {
    expect(pdfTitle(metadata, pages)).toBe(expected);
  });
});

describe("unzipWithin", () => {
  it("reads a real DOCX within the cap, and refuses past it by the bytes really inflated", () => {
    expect(unzipWithin(fixture("guide.docx"), 1 << 20, (name) => name === "word/document.xml").get("word/document.xml")?.length).toBeGreaterThan(1000);
    expect(() => unzipWithin(fixture("guide.docx"), 1000, () => true)).toThrow(FormatError);
    // Its sizes hidden in a data descriptor, the streamed bomb is stopped by the count.
    expect(() => unzipWithin(fixture("bomb-streamed.epub"), 1 << 20, () => true)).toThrow(/more than 1048576 bytes/);
    expect(() => unzipWithin(fixture("ls.pdf"), 1 << 20, () => true)).toThrow(/damaged|not a zip/);
  });
});

describe("the page of a hit", () => {
  it("finds each page's start and the page that holds the most query terms", () => {
    const text = "[page 1]\n\nIntro\n\n[page 2]\n\nGrinding coffee\n\n[page 3]\n\nCoffee again";
    const starts = pageStarts(text, 3);
    expect(starts).toStrictEqual([0, 17, 44]);
    const pages = normalisedPages(text, starts, (page) => page.toLowerCase());
    expect(hitPage(pages, [["grind*"], ["coffee"]])).toBe(2);
    expect(hitPage(pages, [["nothing"]])).toBe(1);
    expect(pageUrl("https://x.org/a.pdf", 2)).toBe("https://x.org/a.pdf#page=2");
    expect(pageUrl("https://x.org/a.pdf", 1)).toBe("https://x.org/a.pdf");
  });

  it("reads the page from the index's matches: the most distinct terms, then the most matches, then the first", () => {
    const starts = [0, 100, 200];
    const at = (start: number, term: number) => ({ start, end: start + 4, term });
    // Page 3 repeats one term; page 2 holds both.
    expect(pageOfMatches([at(10, 0), at(120, 0), at(150, 1), at(210, 0), at(220, 0), at(230, 0)], starts)).toBe(2);
    // One term each: the most matches, then the first page.
    expect(pageOfMatches([at(10, 0), at(210, 0), at(250, 0)], starts)).toBe(3);
    expect(pageOfMatches([at(10, 0), at(210, 0)], starts)).toBe(1);
    // A match at a page's first character is on that page; none at all is page 1.
    expect(pageOfMatches([at(10, 0), at(100, 1), at(101, 0)], starts)).toBe(2);
    expect(pageOfMatches([], starts)).toBe(1);
  });
});

describe("the PDF time limit", () => {
  it("stops a PDF read past its limit, in this thread", async () => {
    await expect(readPdf(fixture("ls.pdf"), LIMITS, 0)).rejects.toMatchObject({ reason: "timeout" });
    // A limit that is not reached reads it all.
    expect((await readPdf(fixture("ls.pdf"), LIMITS, 60_000)).pages).toHaveLength(4);
  });

  it("stops a PDF read past its limit in the built bin's formats worker, and the worker reads the next documents", async () => {
    const dist = fileURLToPath(new URL("../../dist/", import.meta.url));
    const chunk = readdirSync(dist).find((name) => /^extract-[\w-]+\.js$/.test(name));
    expect(chunk).toBeDefined();
    const built = (await import(pathToFileURL(`${dist}${chunk as string}`).href)) as { readBinary: typeof readBinary };
    await expect(built.readBinary("pdf", fixture("ls.pdf"), LIMITS, 0)).rejects.toMatchObject({ reason: "timeout" });
    expect((await built.readBinary("pdf", fixture("ls.pdf"), LIMITS, 60_000)).pages).toHaveLength(4);
    await expect(built.readBinary("pdf", fixture("encrypted.pdf"), LIMITS, 60_000)).rejects.toMatchObject({ reason: "encrypted" });
    // The zip formats too, their failures as FormatError with the same reasons.
    expect((await built.readBinary("docx", fixture("guide.docx"), LIMITS, 60_000)).title).toBe("Pour-over coffee guide");
    await expect(built.readBinary("docx", fixture("bomb.docx"), { ...LIMITS, maxUnzippedBytes: 1 << 20 }, 60_000)).rejects.toMatchObject({ reason: "zip-bomb" });
  });
});
