import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Locale } from "@sbissoli/mcp-search";
import { SUPPORTED_EXTENSIONS } from "../../src/formats/registry.js";
import { summaryMessage } from "../../src/mcp/tools.js";
import { folderTexts } from "../../src/mcp/texts.js";
import { call, connectHttp, startBin, type SpawnedServer } from "../_cli-spawn.js";

/**
 * Issue 41, finding 8: a search during the first indexing, before any document is read, was told
 * "Nothing is indexed: the served folder holds no readable document (.md, …). Searching again
 * will not help." while a PDF was still being read; 400 ms later the same search found it. It
 * must say that indexing is under way and to search again, and the empty folder's list of
 * extensions must be the one list of supported formats.
 */

describe("summaryMessage", () => {
  const extensions = [...SUPPORTED_EXTENSIONS].join(", ");

  // [locale, documents, matches, returned, first indexing under way, message]
  it.each([
    ["en", 0, 0, 0, true, "No document is indexed yet: search again in a few seconds."],
    ["en", 0, 0, 0, false, `Nothing is indexed: the served folder holds no readable document (${extensions}). Searching again will not help.`],
    ["pt-BR", 0, 0, 0, true, "Nenhum documento foi indexado ainda: busque de novo em alguns segundos."],
    ["pt-BR", 0, 0, 0, false, `Nada está indexado: a pasta servida não tem documentos legíveis (${extensions}). Buscar de novo não vai ajudar.`],
    ["es", 0, 0, 0, true, "Todavía no hay ningún documento indexado: busque de nuevo en unos segundos."],
    ["es", 0, 0, 0, false, `No hay nada indexado: la carpeta servida no tiene documentos legibles (${extensions}). Buscar de nuevo no servirá de nada.`],
    ["en", 3, 0, 0, true, "0 matches among 3 indexed documents: the query matched none of them. Try other words, synonyms or the spelling the documents use."],
    ["en", 3, 2, 2, false, "2 documents match the query, among 3 indexed."],
  ] as const)("%s, %i documents, %i matches, %i returned, indexing %s", (locale, documents, matches, returned, indexing, message) => {
    expect(summaryMessage(folderTexts(locale as Locale), documents, matches, returned, indexing)).toBe(message);
  });

  it("lists every supported extension, the binary formats included", () => {
    for (const extension of [".pdf", ".docx", ".odt", ".epub", ".adoc", ".org", ".htm"]) expect(extensions).toContain(extension);
  });
});

/**
 * A valid PDF of `pages` pages of text, written by hand: long enough that the formats worker
 * takes about a second to read it, so that a search at once after start comes before it is read.
 */
function longPdf(pages: number): Buffer {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body);
  const font = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  const pagesId = add("");
  const kids: number[] = [];
  for (let page = 0; page < pages; page += 1) {
    const lines = Array.from({ length: 60 }, (_, line) => `(page ${page} line ${line}: list directory contents) '`);
    const text = `BT /F1 10 Tf 50 780 Td 12 TL\n${lines.join("\n")}\nET`;
    const content = add(`<< /Length ${text.length} >>\nstream\n${text}\nendstream`);
    kids.push(add(`<< /Type /Page /Parent ${pagesId} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`));
  }
  objects[pagesId - 1] = `<< /Type /Pages /Kids [${kids.map((kid) => `${kid} 0 R`).join(" ")}] /Count ${kids.length} >>`;
  const catalog = add(`<< /Type /Catalog /Pages ${pagesId} 0 R >>`);
  let out = "%PDF-1.4\n";
  const offsets = objects.map((body, index) => {
    const offset = out.length;
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
    return offset;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

describe("the built bin's first indexing", () => {
  let root: string;
  let server: SpawnedServer;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "mcp-search-first-"));
    // Only a PDF: until the formats worker has read it, no document is indexed.
    await writeFile(join(root, "manual.pdf"), longPdf(500));
    server = await startBin(["serve", root, "--locale", "en", "--http", "127.0.0.1:0"]);
  });

  afterAll(async () => {
    await server.stop();
    await rm(root, { recursive: true, force: true });
  });

  it("while nothing is indexed yet, says the indexing is under way and to search again", async () => {
    const client = await connectHttp(server.url);
    try {
      const reply = await call(client, "search", { query: "list directory contents" });
      expect(reply.structuredContent?.["summary"]).toMatchObject({
        documents: 0,
        message: "indexing: 0 of 1 files; the result covers only what is indexed so far. No document is indexed yet: search again in a few seconds.",
      });
    } finally {
      await client.close();
    }
  });
});
