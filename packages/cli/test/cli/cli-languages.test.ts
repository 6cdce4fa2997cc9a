import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createVocabulary } from "@sbissoli/mcp-search";
import { afterEach, describe, expect, it } from "vitest";
import { openFolder, type FolderOptions } from "../../src/folder/folder.js";
import { documentEntry } from "../../src/folder/reader.js";

const vocabulary = createVocabulary({ locale: "en", sourceName: "the folder", entries: [] });
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folderOf(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "mcp-search-languages-"));
  dirs.push(root);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
  return root;
}

async function searchIn(root: string, queries: readonly string[], options: Partial<FolderOptions> = {}): Promise<string[][]> {
  const folder = await openFolder({ root, vocabulary, watch: false, ...options });
  try {
    const { index } = await folder.ready;
    return queries.map((query) => index.search(query).map((hit) => hit.id));
  } finally {
    folder.close();
  }
}

const FILLER = "water grind kettle filter temperature pour bloom ratio scale timer beans roast paper cone press cup mug".split(" ");
const filler = (words: number, from: number) => Array.from({ length: words }, (_, i) => FILLER[(i * 7 + from) % FILLER.length]).join(" ");

describe("the folder server reads every script and language", () => {
  it("finds Москва, 東京, 地下鉄 and Αθήνα in their documents", async () => {
    const root = folderOf({
      "moscow.md": "# Россия\n\nМосква — столица России, крупнейший по численности населения город страны.",
      "tokyo.md": "# 日本の首都\n\n東京の地下鉄は便利です。毎日たくさんの人が使います。",
      "athens.md": "# Ελλάδα\n\nΗ Αθήνα είναι η πρωτεύουσα και η μεγαλύτερη πόλη της Ελλάδας.",
      "readme.md": "# Notes\n\nPlain English notes about the project.",
    });
    expect(await searchIn(root, ["Москва", "東京", "地下鉄", "Αθήνα"])).toStrictEqual([["doc:moscow.md"], ["doc:tokyo.md"], ["doc:tokyo.md"], ["doc:athens.md"]]);
  });

  it("meets Spanish plurals and singulars: ciudades finds ciudad, luces finds luz", async () => {
    const root = folderOf({
      "ciudad.md": "# Mapa\n\nLa ciudad.",
      "luz.md": "# Noche\n\nLa luz.",
      "otro.md": "# Otro\n\nEl puerto y el mar.",
    });
    expect(await searchIn(root, ["ciudades", "luces"], { fallbackLanguage: "es" })).toStrictEqual([["doc:ciudad.md"], ["doc:luz.md"]]);
  });

  it("meets a Portuguese plural of every class with its singular", async () => {
    const pairs = [
      ["mensagens", "mensagem"], ["itens", "item"], ["canais", "canal"], ["seriais", "serial"], ["variáveis", "variável"],
      ["papéis", "papel"], ["valores", "valor"], ["países", "país"], ["padrões", "padrão"], ["botões", "botão"],
      ["regiões", "região"], ["pães", "pão"], ["séries", "série"], ["classes", "classe"],
    ];
    const files = Object.fromEntries(pairs.map(([, singular], i) => [`d${i}.md`, `# Nota ${i}\n\nO texto fala de um ${singular} e nada mais.`]));
    const root = folderOf(files);
    const found = await searchIn(root, pairs.map(([plural]) => plural!), { fallbackLanguage: "pt" });
    expect(found).toStrictEqual(pairs.map((_, i) => [`doc:d${i}.md`]));
  });

  it("ranks a long guide that says 'sour coffee' above a one-line note that says 'coffee'", async () => {
    const files: Record<string, string> = {
      "note.md": "# Shopping\n\nBuy coffee.",
      "guide.md": `# Brewing guide\n\n${filler(600, 1)}.\n\nIf the cup tastes sour, grind finer: sour coffee comes from under-extraction.\n\n${filler(600, 3)}`,
    };
    for (let i = 0; i < 20; i++) files[`other-${i}.md`] = `# Other ${i}\n\n${filler(60 + i * 10, i)}${i % 3 === 0 ? " coffee" : ""}${i % 5 === 0 ? " source sourdough" : ""}`;
    const [small] = await searchIn(folderOf({ "note.md": files["note.md"]!, "guide.md": files["guide.md"]! }), ["sour coffee"]);
    const [large] = await searchIn(folderOf(files), ["sour coffee"]);
    expect(small![0]).toBe("doc:guide.md");
    expect(large![0]).toBe("doc:guide.md");
  });

  it("weighs a generic heading as an ordinary word, not as a keyword", () => {
    const { entry } = documentEntry("a.md", "# Terminal\n\n## Introdução\n\nO terminal serial.\n\n## Portas seriais\n\nTexto.", { url: "file:///a.md", linksResolve: false, ranking: "bm25", vocabulary });
    expect(entry.keywords).toStrictEqual(["Portas seriais"]);
    expect(entry.text).toContain("Introdução");
  });

  it("rebuilds a --cache snapshot made with another analysis once, saying so in one line", async () => {
    const root = folderOf({ "a.md": "# Zip\n\nZip files.", "b.md": "# Tar\n\nTar archives." });
    const cache = mkdtempSync(join(tmpdir(), "mcp-search-languages-cache-"));
    dirs.push(cache);
    const open = async (fallbackLanguage: "en" | "pt") => {
      const lines: string[] = [];
      const folder = await openFolder({ root, vocabulary, watch: false, cache, fallbackLanguage, log: (line) => lines.push(line) });
      await folder.ready;
      folder.close();
      return lines.filter((line) => line.startsWith("snapshot"));
    };
    await open("en");
    const changed = await open("pt");
    expect(changed.filter((line) => line.startsWith("snapshot ignored"))).toHaveLength(1);
    const again = await open("pt");
    expect(again.filter((line) => line.startsWith("snapshot ignored"))).toHaveLength(0);
    expect(again.some((line) => /^snapshot: 2 documents/.test(line))).toBe(true);
  });
});

describe("snippets in every script", () => {
  it("centre on a Cyrillic word at a word start, and on Han anywhere", async () => {
    const { Client } = await import("@modelcontextprotocol/client");
    const { InMemoryTransport } = await import("@modelcontextprotocol/server");
    const { createFolderServer } = await import("../../src/transports/serve.js");
    const padding = "Текст без нужного слова. ".repeat(30);
    const root = folderOf({
      "ru.md": `# Маски\n\n${padding}Подсеть задаёт маска. ${padding}Сеть и её узлы.`,
      "ja.md": `# 日本\n\n${"説明の文章です。".repeat(40)}東京の地下鉄は便利です。`,
    });
    const folder = await openFolder({ root, vocabulary, watch: false });
    try {
      await folder.ready;
      const server = createFolderServer({ name: "t", version: "0.0.0", folder, vocabulary, locale: "en", limit: 5 });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      const client = new Client({ name: "t", version: "0.0.0" });
      await client.connect(clientSide);
      const snippetOf = async (query: string) => {
        const reply = (await client.callTool({ name: "search", arguments: { query } })) as { structuredContent: { snippets: { snippet: string }[] } };
        return reply.structuredContent.snippets[0]?.snippet ?? "";
      };
      expect(await snippetOf("сеть")).toContain("Сеть и её узлы");
      expect(await snippetOf("地下鉄")).toContain("東京の地下鉄");
      await client.close();
    } finally {
      folder.close();
    }
  });
});
