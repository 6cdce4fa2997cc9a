import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runInNewContext } from "node:vm";
import { createIndex, LANGUAGES } from "@sbissoli/mcp-search";
import { describe, expect, it } from "vitest";
import { ELD_DETECTOR } from "../../src/folder/detector.js";
import { readNgramRows } from "../../src/folder/eld-table.js";

// In the extra tier: eld's n-grams take 0.13 s to 0.3 s to load. Short texts, folded as the index
// gives them to the detector (lower case, no accents but й and ї); eld's accuracy per language on the
// corpora is in docs/performance.md ("Language detection").
describe("the folder server's language detector (eld) on short texts", () => {
  it.each([
    ["en", "configure the printer"],
    ["pt", "configurar a impressora"],
    ["es", "configurar la impresora"],
    ["ru", "настройки принтера"],
    ["uk", "налаштування принтера"],
    ["el", "ρυθμισεισ εκτυπωτη"],
    ["de", "drucker einrichten"],
    ["fr", "configurer une imprimante"],
    ["it", "configurare la stampante"],
  ])("%s: %s", async (language, text) => {
    expect(ELD_DETECTOR.detect(text)).toBe(language);
  });

  it("answers among the library's languages only: a one-word Russian title is not Bulgarian, a Spanish one not Catalan", async () => {
    const detector = ELD_DETECTOR;
    expect(detector.detect("сетка")).toBe("ru");
    expect(detector.detect("sobre")).toBe("es");
  });

  it("says nothing of an empty text", () => {
    expect(ELD_DETECTOR.detect("")).toBeUndefined();
  });

  it("chooses a one-title document's language in the index: Snowball's French stems it", async () => {
    const detector = ELD_DETECTOR;
    const { stemmer: fr } = await import("@orama/stemmers/french");
    const index = createIndex([{ id: "a", title: "Configurer une imprimante", url: "https://x.org/a" }], { ranking: "bm25", detector, stemmers: { name: "fr", fr } });
    expect(index.search("configuration").map((hit) => hit.id)).toStrictEqual(["a"]);
  });

  it("answers as eld's whole extrasmall table kept to the nine languages, from its rows for them only", async () => {
    const { eld } = await import("eld/extrasmall");
    eld.setLanguageSubset([...LANGUAGES]);
    // Real prose: the first lines of the READMEs of this repository's dependencies, and short texts in every language.
    const texts = ["configurar a impressora", "la impresora no imprime", "настройка сети", "налаштування мережі", "ρυθμίσεις δικτύου", "Drucker einrichten", "configurer le réseau", "configurare la rete", "sobre", "сетка", "file", "東京の地下鉄"];
    const modules = join(import.meta.dirname, "..", "..", "..", "..", "node_modules");
    for (const name of readdirSync(modules).sort()) {
      const readme = join(modules, name, "README.md");
      if (existsSync(readme)) texts.push(readFileSync(readme, "utf8").slice(0, 400));
    }
    expect(texts.length).toBeGreaterThan(200);
    for (const text of texts) expect(ELD_DETECTOR.detect(text), text).toBe(eld.detect(text).language || undefined);
  });

  it("reads every row of eld's data file as evaluating it does, when every language is kept", async () => {
    const file = readFileSync(fileURLToPath(new URL("ngrams/extrasmall.js", new URL("..", import.meta.resolve("eld/extrasmall")))), "utf8");
    const evaluated = runInNewContext(`(${file.replace(/^[\s\S]*?export const ngramsData\s*=\s*/, "").replace(/;\s*$/, "")})`) as { type: string; languages: Record<string, string>; ngrams: Record<string, Record<string, number>> };
    const read = readNgramRows(file, Object.values(evaluated.languages));
    expect(Object.keys(read.ngrams)).toHaveLength(49_553);
    expect(JSON.stringify(read)).toBe(JSON.stringify({ type: evaluated.type, languages: evaluated.languages, ngrams: evaluated.ngrams }));
  });
});

