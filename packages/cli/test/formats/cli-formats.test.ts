import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StdioBin } from "../_cli-spawn.js";
import { connect, fetchText as fetchOn, FIXTURES, type Found, search as searchOn, untilIndexed } from "./_formats-client.js";

/**
 * The document formats through the BUILT bin and a real client over stdio, on real files made
 * once with pandoc, groff, Ghostscript and qpdf (test/fixtures/formats/README.md): each readable
 * format is indexed, searched and fetched; each file that cannot give text is named on stderr with
 * its reason and counted in the search summary; a PDF hit is cited at its page.
 */

let workspace: string;
let root: string;
let client: Client;
let stderr = "";

const search = (query: string, on: Client = client): Promise<Found> => searchOn(query, on);
const fetchText = (id: string, on: Client = client) => fetchOn(id, on);

beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), "mcp-search-formats-"));
  root = join(workspace, "docs");
  await cp(FIXTURES, root, { recursive: true });
  await writeFile(join(root, "contents.docx"), withWordContents(await readFile(join(FIXTURES, "guide.docx"))));
  const started = await connect(["serve", root, "--locale", "en"]);
  client = started.client;
  // With PDFs to read, the first searches answer at once with what is indexed so far: wait for all.
  await untilIndexed(client);
  stderr = started.stderr();
}, 30_000);

afterAll(async () => {
  await client?.close();
  await rm(workspace, { recursive: true, force: true });
});

describe("mcp-search serve: formats", () => {
  it("indexes a DOCX made by pandoc: its title, its headings and its table", async () => {
    const found = await search("burr grinder particles");
    const docx = found.results.find((result) => result.id === "doc:guide.docx");
    expect(docx?.title).toBe("Pour-over coffee guide");
    const { text } = await fetchText("doc:guide.docx");
    expect(text).toContain("## Water temperature");
    expect(text).toContain("| 1:15 | strong |");
    expect(text).toContain("[the brewing chart](https://example.com/chart)");
  });

  it("indexes an ODT made by pandoc, with its list items as a list", async () => {
    const found = await search("scorches grounds");
    expect(found.results.map((result) => result.id)).toContain("doc:guide.odt");
    const { title, text } = await fetchText("doc:guide.odt");
    expect(title).toBe("Pour-over coffee guide");
    expect(text).toContain("## Grinding the beans");
    expect(text).toContain("- Heat the kettle\n- Rinse the paper filter");
  });

  it("indexes an EPUB in reading order, each chapter with its own heading", async () => {
    const found = await search("fishing boat mast");
    expect(found.results[0]).toMatchObject({ id: "doc:book.epub", title: "The Lighthouse Keeper" });
    const { text } = await fetchText("doc:book.epub");
    expect(text.indexOf("# The storm")).toBeGreaterThan(-1);
    expect(text.indexOf("# The rescue")).toBeGreaterThan(text.indexOf("# The storm"));
    expect(text.indexOf("# The letter")).toBeGreaterThan(text.indexOf("# The rescue"));
  });

  it("reads AsciiDoc and Org as text, their titles from their own heading syntax", async () => {
    expect((await search("rye starter")).results[0]).toMatchObject({ id: "doc:notes.adoc", title: "Sourdough starter notes" });
    expect((await search("stake tomato truss")).results[0]).toMatchObject({ id: "doc:garden.org", title: "Garden log" });
  });

  it("reads a PDF page by page: page markers in the fetch text, and the hit's page in its url", async () => {
    const { text, url } = await fetchText("doc:ls.pdf");
    expect(url).toBe(`${new URL(`file://${root}/ls.pdf`).href}`);
    expect(text.startsWith("[page 1]\n\nLS(1)")).toBe(true);
    for (const page of [2, 3, 4]) expect(text).toContain(`\n\n[page ${page}]\n\n`);
    const pageOf = (needle: string) => (text.slice(0, text.indexOf(needle)).match(/\[page (\d+)\]/g) ?? []).length;
    // Words that occur on one page only: the url names that page.
    const last = pageOf("Full documentation");
    expect(last).toBeGreaterThan(1);
    const hit = (await search("full documentation online")).results.find((result) => result.id === "doc:ls.pdf");
    expect(hit?.url.endsWith(`#page=${last}`)).toBe(true);
    const first = (await search("list directory contents")).results.find((result) => result.id === "doc:ls.pdf");
    expect(first?.url.includes("#page=")).toBe(false);
  });

  it("cites a section's own page, not its entry in the table of contents in front of it", async () => {
    // contents.pdf: page 1 is the contents ("1 Recording changes in the package . . . 1"), pages
    // 2 to 5 the sections. Each title is on two pages, whole: the contents' first page would win.
    const sections = [
      ["Recording changes in the package", 2, "Describe"],
      ["Testing the package", 3, "Before"],
      ["Picking a distribution", 5, "Each"],
    ] as const;
    for (const [title, page, next] of sections) {
      const found = await search(title);
      const hit = found.results.find((result) => result.id === "doc:contents.pdf");
      expect(hit?.url.endsWith(`#page=${page}`)).toBe(true);
      // The snippet shows the section, not the contents' line ("Testing the package . . . 2").
      const snippet = found.snippets.find((entry) => entry.id === "doc:contents.pdf")?.snippet ?? "";
      expect(snippet).toContain(`${title} ${next}`);
      expect(snippet).not.toContain(`${title} . .`);
    }
    // parts.pdf: its two parts' entries have no leader dots ("Part I Preparing a release 2"), the
    // sections' below them do; a part's title cites the part's page too.
    for (const [title, page, next] of [["Preparing a release", 2, "Every"], ["Shipping a release", 4, "Shipping means"]] as const) {
      const found = await search(title);
      expect(found.results.find((result) => result.id === "doc:parts.pdf")?.url.endsWith(`#page=${page}`)).toBe(true);
      const snippet = found.snippets.find((entry) => entry.id === "doc:parts.pdf")?.snippet ?? "";
      expect(snippet).toContain(`${title} ${next}`);
      expect(snippet).not.toContain(`${title} ${page}`);
    }
    // Words only the contents page holds still cite it, the snippet there.
    const found = await search("table of contents");
    expect(found.results.find((result) => result.id === "doc:contents.pdf")?.url.includes("#page=")).toBe(false);
  });

  it("shows a Word document's section in the snippet, not its entry in the document's table of contents", async () => {
    // contents.docx: guide.docx with a table of contents in front, as Word writes one.
    const { text } = await fetchText("doc:contents.docx");
    expect(text).toContain("Contents\n\n[Grinding the beans 2](#_Toc1)\n\n[Water temperature 3](#_Toc2)\n\n## Grinding the beans");
    const found = await search("water temperature");
    const snippet = found.snippets.find((entry) => entry.id === "doc:contents.docx")?.snippet ?? "";
    expect(snippet).toContain("Water temperature Use water between 92 and 96 degrees");
    expect(snippet).not.toContain("Water temperature 3");
  });

  it("offers a PDF as a resource with the fetch text, page markers included", async () => {
    const listed = await client.listResources();
    const pdf = listed.resources.find((resource) => resource.uri === "mcp-search://doc/ls.pdf");
    expect(pdf?.mimeType).toBe("text/plain");
    expect(listed.resources.find((resource) => resource.uri === "mcp-search://doc/guide.docx")?.mimeType).toBe("text/markdown");
    const read = await client.readResource({ uri: "mcp-search://doc/ls.pdf" });
    expect((read.contents[0] as { text: string }).text).toContain("\n\n[page 2]\n\n");
  });

  it("names each file that cannot give text on stderr, with its reason, and counts them in the summary", async () => {
    expect(stderr).toMatch(/skipped scan\.pdf: it has no text layer \(a scanned document\?\)/);
    expect(stderr).toMatch(/skipped encrypted\.pdf: it is encrypted/);
    expect(stderr).toMatch(/skipped truncated\.pdf: it is damaged or not a file of its type/);
    // One zip declares its size in its local headers, the other only in its central directory
    // (a streamed zip), which is what the reader reads: both stop before inflating. A directory
    // that lies is stopped by the count (cli-formats-parts.test.ts).
    expect(stderr).toMatch(/skipped bomb\.docx: it expands past the unzipped size cap \(a zip bomb\?\) \(it declares more than/);
    expect(stderr).toMatch(/skipped bomb-streamed\.epub: it expands past the unzipped size cap \(a zip bomb\?\) \(it declares more than/);
    const found = await search("coffee");
    expect(found.summary.unreadable).toBe(5);
    expect(found.summary.message).toContain("5 files could not be read (or only in part); the server's log names them and why.");
    // Two docx, odt, epub, three pdfs, adoc, org, and the fixtures' README.
    expect(found.summary.documents).toBe(10);
  });
});

describe("mcp-search: a folder without binary documents loads no parser", () => {
  it("serves Markdown without importing unpdf, mammoth or fflate", async () => {
    const notes = join(workspace, "notes");
    await cp(join(FIXTURES, "notes.adoc"), join(notes, "notes.adoc"), { recursive: true });
    // A loader hook, given with --import, prints every module the bin resolves.
    const hook = fileURLToPath(new URL("../_print-imports.mjs", import.meta.url));
    const bin = new StdioBin(["serve", notes, "--locale", "en"], { env: { ...process.env, NODE_OPTIONS: `--import ${hook}` } });
    try {
      await bin.open();
      await bin.search("starter");
      const resolved = bin.stderr.filter((line) => line.startsWith("import "));
      expect(resolved.length).toBeGreaterThan(0);
      expect(resolved.filter((line) => /unpdf|mammoth|fflate/.test(line))).toStrictEqual([]);
    } finally {
      bin.close();
    }
  });
});

/**
 * A copy of a pandoc DOCX with a table of contents after its first paragraph, as Word writes one:
 * a TOC field whose entries link to `_Toc` bookmarks on the headings, each with a tab and its page
 * number (a PAGEREF field).
 */
function withWordContents(docx: Uint8Array): Uint8Array {
  const files = unzipSync(docx);
  const entry = (title: string, bookmark: string, page: number) =>
    '<w:p><w:pPr><w:pStyle w:val="TOC2"/><w:tabs><w:tab w:val="right" w:leader="dot" w:pos="9350"/></w:tabs></w:pPr>' +
    `<w:hyperlink w:anchor="${bookmark}" w:history="1"><w:r><w:t>${title}</w:t></w:r><w:r><w:tab/></w:r>` +
    `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> PAGEREF ${bookmark} \\h </w:instrText></w:r>` +
    `<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>${page}</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:hyperlink></w:p>`;
  const contents =
    '<w:sdt><w:sdtPr><w:docPartObj><w:docPartGallery w:val="Table of Contents"/><w:docPartUnique/></w:docPartObj></w:sdtPr><w:sdtContent>' +
    '<w:p><w:pPr><w:pStyle w:val="TOCHeading"/></w:pPr><w:r><w:t>Contents</w:t></w:r></w:p>' +
    entry("Grinding the beans", "_Toc1", 2) +
    entry("Water temperature", "_Toc2", 3) +
    "</w:sdtContent></w:sdt>";
  const bookmarked = (heading: string, bookmark: string, id: number) =>
    [`<w:r><w:t xml:space="preserve">${heading}</w:t></w:r>`, `<w:bookmarkStart w:id="${id}" w:name="${bookmark}"/><w:r><w:t xml:space="preserve">${heading}</w:t></w:r><w:bookmarkEnd w:id="${id}"/>`] as const;
  const opening = "A short guide to brewing filter coffee by hand.</w:t></w:r></w:p>";
  const xml = strFromU8(files["word/document.xml"]!)
    .replace(opening, opening + contents)
    .replace(...bookmarked("Grinding the beans", "_Toc1", 90))
    .replace(...bookmarked("Water temperature", "_Toc2", 91));
  return zipSync({ ...files, "word/document.xml": strToU8(xml) });
}
