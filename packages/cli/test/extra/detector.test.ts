import { createIndex } from "@sbissoli/mcp-search";
import { describe, expect, it } from "vitest";
import { loadLanguageDetector } from "../../src/folder/detector.js";

// In the extra tier: eld's n-grams take 0.2 s to 0.6 s to load. Short texts, folded as the index
// gives them to the detector (lower case, no accents); eld's accuracy per language on the
// corpora is in docs/performance.md ("Language detection").
describe("the folder server's language detector (eld) on short texts", () => {
  it.each([
    ["en", "configure the printer"],
    ["pt", "configurar a impressora"],
    ["es", "configurar la impresora"],
    ["ru", "настроики принтера"],
    ["uk", "налаштування принтера"],
    ["el", "ρυθμισεισ εκτυπωτη"],
    ["de", "drucker einrichten"],
    ["fr", "configurer une imprimante"],
    ["it", "configurare la stampante"],
  ])("%s: %s", async (language, text) => {
    expect((await loadLanguageDetector()).detect(text)).toBe(language);
  });

  it("says nothing of an empty text, and is loaded once", async () => {
    const detector = await loadLanguageDetector();
    expect(detector.detect("")).toBeUndefined();
    expect(await loadLanguageDetector()).toBe(detector);
  });

  it("chooses a one-title document's language in the index: Snowball's French stems it", async () => {
    const detector = await loadLanguageDetector();
    const { stemmer: fr } = await import("@orama/stemmers/french");
    const index = createIndex([{ id: "a", title: "Configurer une imprimante", url: "https://x.org/a" }], { ranking: "bm25", detector, stemmers: { name: "fr", fr } });
    expect(index.search("configuration").map((hit) => hit.id)).toStrictEqual(["a"]);
  });
});
