import { describe, expect, it } from "vitest";
import { createIndex, loadIndex, McpSearchError, type LanguageDetector } from "../../src/index.js";
import { LANGUAGES, languageRules } from "../../src/languages/index.js";
import { foldText } from "../../src/ranking/analysis/fold.js";
import { detectLanguage } from "../../src/ranking/analysis/language.js";

describe("the language modules", () => {
  it("keeps the snapshot's order: the first three languages where they were, the others after", () => {
    expect(LANGUAGES).toStrictEqual(["pt", "es", "en", "ru", "uk", "el", "de", "fr", "it"]);
  });

  it.each(LANGUAGES)("%s: every word of its lists is already folded, as the analysis compares them", (language) => {
    const rules = languageRules(language);
    for (const word of [...rules.stopwords, ...rules.vocabularyStopwords, ...rules.markers]) expect(foldText(word)).toBe(word);
  });

  it("gives every marker to one language only, so that counting them names one", () => {
    const owners = new Map<string, string>();
    for (const language of LANGUAGES) {
      for (const word of languageRules(language).markers) {
        expect(owners.get(word), `"${word}" is a marker of ${owners.get(word)} and ${language}`).toBeUndefined();
        owners.set(word, language);
      }
    }
  });

  it.each([
    ["ru", "это файл или папка что открыть"],
    ["uk", "це файл або тека що відкрити"],
    ["el", "το αρχειο και τα παραθυρα"],
    ["de", "der drucker und die datei ist nicht da"],
    ["fr", "les fichiers et le dossier est dans"],
    ["it", "il file della cartella che non"],
  ])("detects %s by its markers", (language, text) => {
    expect(detectLanguage(text.split(" "))).toBe(language);
  });
});

describe("a language detector (createIndex's detector)", () => {
  const english: LanguageDetector = { name: "always en", detect: () => "en" };
  const unsure: LanguageDetector = { name: "unsure", detect: () => "nl" };

  it("decides only when the markers cannot tell, and only when it names a language of the library", () => {
    const words = "les fichiers et le dossier est dans".split(" ");
    expect(detectLanguage(words, english)).toBe("fr");
    expect(detectLanguage(["fichiers"], english)).toBe("en");
    expect(detectLanguage(["fichiers"], unsure)).toBeUndefined();
    expect(detectLanguage(["fichiers"], { name: "none", detect: () => undefined })).toBeUndefined();
  });

  it("is given the document's folded words", () => {
    const seen: string[] = [];
    createIndex([{ id: "a", title: "Ρυθμίσεις", url: "https://x.org/a", text: "Öffnen" }], { ranking: "bm25", detector: { name: "spy", detect: (text) => {
      seen.push(text);
      return undefined;
    } } });
    expect(seen).toStrictEqual(["ρυθμισεισ offnen"]);
  });

  it("is recorded by name in the snapshot: loading needs a detector of that name back", () => {
    const bytes = createIndex([{ id: "a", title: "Zip", url: "https://x.org/a" }], { ranking: "bm25", detector: english }).snapshot();
    expect(loadIndex(bytes, { detector: english }).search("zip").map((hit) => hit.id)).toStrictEqual(["a"]);
    expect(() => loadIndex(bytes)).toThrow(/other "bm25" settings/);
    expect(() => loadIndex(bytes, { detector: unsure })).toThrow(/other "bm25" settings/);
  });

  it("is refused when it is not a name and a function, and with the rule ranking", () => {
    expect(() => createIndex([], { ranking: "bm25", detector: { name: "", detect: () => "en" } })).toThrow(McpSearchError);
    expect(() => createIndex([], { ranking: "bm25", detector: { name: "x" } as never })).toThrow(/needs a non-empty string "name" and a function "detect"/);
    expect(() => createIndex([], { detector: english })).toThrow(/apply to ranking "bm25" only/);
  });
});
