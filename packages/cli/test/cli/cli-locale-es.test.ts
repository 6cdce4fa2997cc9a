// The folder server in Spanish (`--locale es`): titles, summaries, notes, stale ids and page
// texts, over a real client linked in memory, on a temporary folder and on the example corpus.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createVocabulary, type Vocabulary } from "@sbissoli/mcp-search";
import { parseCommandLine } from "../../src/cli/args.js";
import { openFolder } from "../../src/folder/folder.js";
import { connectInMemory } from "../_cli-memory.js";
import type { CallResult } from "../_cli-spawn.js";
import { folderTexts } from "../../src/mcp/texts.js";
import { loadVocabulary } from "../../src/cli/vocabulary-file.js";


const CORPUS = fileURLToPath(new URL("../../examples/corpus", import.meta.url));
const VOCABULARY = fileURLToPath(new URL("../../examples/vocabulary.json", import.meta.url));

let root: string;
const clients: Client[] = [];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "mcp-search-es-"));
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await rm(root, { recursive: true, force: true });
});

async function write(relative: string, text: string): Promise<void> {
  await mkdir(join(root, relative, ".."), { recursive: true });
  await writeFile(join(root, relative), text);
}

async function connect(folderRoot: string, options: { vocabulary?: Vocabulary; limit?: number; maxChars?: number } = {}) {
  const vocabulary =
    options.vocabulary ??
    createVocabulary({ locale: "es", sourceName: folderTexts("es").sourceName, entries: [{ asked: "luz", source: ["electricidad"] }] });
  const folder = await openFolder({ root: folderRoot, vocabulary });
  return connectInMemory({ name: "test", version: "0.0.0", vocabulary, folder, locale: "es", ...options }, clients);
}

const ids = (result: CallResult) => ((result.structuredContent?.["results"] ?? []) as { id: string }[]).map((hit) => hit.id);
const message = (result: CallResult) => (result.structuredContent?.["summary"] as { message: string }).message;

describe("mcp-search serve --locale es", () => {
  it("reads --locale es", () => {
    const parsed = parseCommandLine(["serve", "docs", "--locale", "es"]);
    expect(parsed.command === "serve" && parsed.options.locale).toBe("es");
  });

  it("lists its tools with Spanish titles and schema descriptions", async () => {
    const { client } = await connect(root);
    const [search, fetch] = (await client.listTools()).tools;
    expect([search?.title, fetch?.title]).toStrictEqual(["Buscar documentos", "Leer un documento"]);
    expect((search?.inputSchema.properties?.["query"] as { description?: string }).description).toMatch(/^Consulta en lenguaje natural/);
  });

  it("summarises a search, notes a translated word, and folds a Spanish plural", async () => {
    await write("presupuesto.md", "# Presupuesto\n\nLa factura de electricidad sube en invierno.");
    await write("otro.md", "# Otro\n\nNada que ver.");
    const { search } = await connect(root);
    const result = await search("facturas de la luz");
    expect(ids(result)).toStrictEqual(["doc:presupuesto.md"]);
    expect(message(result)).toBe("1 documento coincide con la consulta, entre 2 indexados.");
    expect(result.structuredContent?.["notes"]).toStrictEqual([
      '"luz" también se buscó como electricidad — la palabra que usa la carpeta de documentos.',
    ]);
  });

  it("says it was truncated, and tells no match from nothing indexed", async () => {
    const empty = await connect(root);
    expect(message(await empty.search("ciudad"))).toMatch(/^No hay nada indexado/);
    for (let i = 0; i < 5; i += 1) await write(`n${i}.md`, `# Nota ${i}\n\nciudad ${i}`);
    const { search } = await connect(root, { limit: 3 });
    const truncated = await search("ciudad");
    expect(ids(truncated)).toHaveLength(3);
    expect(message(truncated)).toBe(
      "Resultado truncado: se muestran 3 de 5 documentos que coinciden (entre 5 indexados). Precise la consulta con palabras más específicas para ver los demás.",
    );
    expect(message(await search("golondrinas"))).toMatch(/^0 coincidencias entre 5 documentos indexados/);
  });

  it("answers unknown and stale ids, and pages a long document, in Spanish", async () => {
    await write("largo.md", `# Largo\n\n${Array.from({ length: 400 }, (_, i) => `palabra${i % 7}`).join(" ")}`);
    await write("breve.md", "# Breve\n\nluz");
    const { fetch } = await connect(root, { maxChars: 1000 });
    expect((await fetch("doc:nada.md")).content[0]?.text).toBe(
      'Ningún documento tiene el id "doc:nada.md". Use un id devuelto por la herramienta search.',
    );
    const first = (await fetch("doc:largo.md")).structuredContent?.["text"] as string;
    expect(first).toMatch(/\[Texto truncado: página 1 de \d+\. Para leer el resto, llame a fetch con el id "doc:largo\.md#2"\.\]$/);
    expect((await fetch("doc:largo.md#9")).content[0]?.text).toMatch(/^El id "doc:largo\.md#9" pide una página que no existe/);
    await rm(join(root, "breve.md"));
    expect((await fetch("doc:breve.md")).content[0]?.text).toBe(
      'El documento "doc:breve.md" ya no existe: se movió, se renombró o se borró. Busque de nuevo con la herramienta search para obtener ids actuales.',
    );
  });

  it("finds the example corpus's Spanish budget for the demo's question, through the example table", async () => {
    const vocabulary = await loadVocabulary(VOCABULARY, "es", folderTexts("es").sourceName);
    const { search } = await connect(CORPUS, { vocabulary });
    const result = await search("facturas de la luz");
    expect(ids(result)[0]).toBe("doc:es/presupuesto-familiar.md");
    expect(result.structuredContent?.["notes"]).toStrictEqual([
      '"luz" también se buscó como electricidad — la palabra que usa la carpeta de documentos.',
    ]);
  });
});
