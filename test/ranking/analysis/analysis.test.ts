import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyzeQuery, analyzeText, splitWords } from "../../../src/ranking/analysis/analyze.js";
import { detectLanguage } from "../../../src/ranking/analysis/language.js";
import { createIndex, loadIndex, McpSearchError } from "../../../src/index.js";
import { foldText } from "../../../src/ranking/analysis/fold.js";
import { foldPluralEn } from "../../../src/languages/en.js";
import { foldPluralEs } from "../../../src/languages/es.js";
import { foldPluralPt } from "../../../src/languages/pt.js";
import { withoutCrossReferences } from "../../../src/ranking/analysis/references.js";
import { forEachWord } from "../../../src/ranking/analysis/tokenize.js";

const BIGRAMS = { fold: true, segmentation: "bigrams" } as const;

describe("foldText", () => {
  it.each([
    ["População", "populacao"], ["ÁRVORE", "arvore"], ["Αθήνα", "αθηνα"], ["ΛΌΓΟΣ", "λογοσ"], ["Ёлка й", "елка й"], ["ЇЖАК, її", "їжак, її"], ["и\u0306 і\u0308", "й ї"], ["и\u0306од", "йод"], ["І\u0308жак", "їжак"], ["И\u0306", "й"], ["Ї", "ї"], ["Ў", "у"],
    ["がっこう", "がっこう"], ["パン", "パン"], ["한국어", "한국어"], ["東京", "東京"], ["हिन्दी", "हिन्दी"],
  ])("folds %j to %j", (input, expected) => {
    expect(foldText(input)).toBe(expected);
  });

  it("never changes kana or Hangul", () => {
    const kanaOrHangul = fc.string({ unit: fc.oneof(fc.integer({ min: 0x3041, max: 0x30ff }), fc.integer({ min: 0xac00, max: 0xd7a3 })).map((code) => String.fromCodePoint(code)) });
    fc.assert(fc.property(kanaOrHangul, (text) => foldText(text) === text.normalize("NFC")), { numRuns: 500 });
  });

  it("is idempotent", () => {
    fc.assert(fc.property(fc.string({ unit: "grapheme" }), (text) => foldText(foldText(text)) === foldText(text)), { numRuns: 500 });
  });
});

describe("forEachWord", () => {
  const words = (text: string, segmentation: "bigrams" | "words" = "bigrams") => {
    const found: string[] = [];
    forEachWord(foldText(text), segmentation, (word) => found.push(word));
    return found;
  };

  it.each([
    ["Москва — столица России", ["москва", "столица", "россии"]],
    ["東京の地下鉄", ["東京", "京の", "の地", "地下", "下鉄"]],
    ["水", ["水"]],
    ["Αθήνα 2024, a b", ["αθηνα", "2024"]],
    ["ภาษาไทย", ["ภา", "าษ", "ษา", "าไ", "ไท", "ทย"]],
    ["한국어 문서", ["한국어", "문서"]],
    ["mcp-search v2", ["mcp", "search", "v2"]],
  ])("cuts %j into %j", (text, expected) => {
    expect(words(text)).toStrictEqual(expected);
  });

  it("cuts Japanese into dictionary words with segmentation words", () => {
    expect(words("東京の地下鉄", "words")).toStrictEqual(["東京", "の", "地下鉄"]);
  });

  it.each(["bigrams", "words"] as const)("drops no letter or digit of any script, but single letters of scripts written with spaces (%s)", (segmentation) => {
    const letters = fc.string({ unit: fc.oneof(fc.constantFrom(" ", "-", ".", "a", "z", "é", "7"), fc.integer({ min: 0x20, max: 0x2fff }), fc.integer({ min: 0x3040, max: 0x9fff }), fc.integer({ min: 0xac00, max: 0xd7a3 })).map((c) => (typeof c === "string" ? c : String.fromCodePoint(c))), maxLength: 40 });
    fc.assert(
      fc.property(letters, (text) => {
        const folded = foldText(text);
        const joined = words(text, segmentation).join("");
        for (const [run] of folded.matchAll(/[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu)) {
          if ([...run].length < 2 && !/[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}]/u.test(run)) continue;
          for (const char of run) if (/[\p{L}\p{N}]/u.test(char)) expect(joined.includes(char), `${JSON.stringify(char)} of ${JSON.stringify(text)}`).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe("plural folding", () => {
  it.each([
    ["mensagens", "mensagem"], ["itens", "item"], ["canais", "canal"], ["seriais", "serial"], ["variaveis", "variavel"],
    ["papeis", "papel"], ["valores", "valor"], ["paises", "pais"], ["padroes", "padrao"], ["botoes", "botao"],
    ["regioes", "regiao"], ["paes", "pao"], ["series", "serie"], ["classes", "classe"], ["luzes", "luz"], ["arquivos", "arquivo"],
    ["meses", "mes"], ["lencois", "lencol"], ["azuis", "azul"],
  ])("Portuguese: %j meets %j", (plural, singular) => {
    expect(foldPluralPt(plural)).toBe(foldPluralPt(singular));
    expect(foldPluralPt(foldPluralPt(plural))).toBe(foldPluralPt(plural));
  });

  it.each([["status", "status"], ["lapis", "lapis"], ["onibus", "onibus"], ["gas", "gas"], ["v8s", "v8s"]])("Portuguese: leaves %j as %j", (word, expected) => {
    expect(foldPluralPt(word)).toBe(expected);
  });

  it.each([
    ["ciudades", "ciudad"], ["luces", "luz"], ["canales", "canal"], ["valores", "valor"], ["imagenes", "imagen"], ["leyes", "ley"],
    ["meses", "mes"], ["paises", "pais"], ["clases", "clase"], ["archivos", "archivo"], ["calles", "calle"], ["tokens", "token"],
  ])("Spanish: %j folds to %j", (plural, singular) => {
    expect(foldPluralEs(plural)).toBe(singular);
  });

  it.each([
    ["files", "file"], ["processes", "process"], ["libraries", "library"], ["boxes", "box"], ["matches", "match"],
    ["status", "status"], ["class", "class"], ["analysis", "analysis"], ["gas", "gas"], ["utf8s", "utf8s"],
  ])("English: %j folds to %j", (plural, singular) => {
    expect(foldPluralEn(plural)).toBe(singular);
  });

});

describe("detectLanguage", () => {
  it.each([
    ["O arquivo não foi encontrado em uma pasta do disco", "pt"],
    ["El archivo no se encuentra en la carpeta del disco", "es"],
    ["The file was not found in the folder of this disk", "en"],
    ["zip file", undefined],
    ["Москва — столица России", undefined],
  ])("reads %j as %j", (text, expected) => {
    expect(detectLanguage(splitWords(text, "bigrams"))).toBe(expected);
  });
});

describe("analyzeText and analyzeQuery", () => {
  it("drops each language's stopwords and folds its plurals", () => {
    expect(analyzeText("Não foi possível ler as mensagens pelo seu terminal", "pt", BIGRAMS)).toStrictEqual(["possivei", "ler", "mensagem", "terminai"]);
    expect(analyzeText("Las ciudades y sus luces", "es", BIGRAMS)).toStrictEqual(["ciudad", "luz"]);
  });

  it("gives each query word its forms in every language held, and drops a stopword of any of them", () => {
    expect(analyzeQuery("as séries", ["pt", "en"], BIGRAMS)).toStrictEqual([["serie", "sery"]]);
    expect(analyzeQuery("as séries", ["en"], BIGRAMS)).toStrictEqual([["sery"]]);
    expect(analyzeQuery("ser ou não ser", ["pt"], BIGRAMS)).toStrictEqual([]);
  });

  it("stems a word of another script as that script's language: Latin as English, Cyrillic as Russian, Greek as Greek", () => {
    const ru = (word: string) => (word.endsWith("ые") ? word.slice(0, -2) : word);
    const stemmers = { name: "t", ru };
    expect(analyzeText("Пакеты packages новые", "ru", { ...BIGRAMS, stemmers })).toStrictEqual(["пакеты", "package", "нов"]);
    expect(analyzeText("The packages новые", "en", { ...BIGRAMS, stemmers })).toStrictEqual(["package", "нов"]);
    expect(analyzeText("Las ciudades новые", "es", { ...BIGRAMS, stemmers })).toStrictEqual(["ciudad", "нов"]);
    expect(analyzeText("Οι ρυθμίσεις cities 2026", "ru", { ...BIGRAMS, stemmers })).toStrictEqual(["οι", "ρυθμισεισ", "city", "2026"]);
    expect(analyzeQuery("новые packages", ["en", "ru"], { ...BIGRAMS, stemmers })).toStrictEqual([["нов"], ["package"]]);
  });
});

describe("createIndex's analysis options", () => {
  const entries = [
    { id: "a", title: "Configuring the network", url: "https://x.org/a", text: "How to configure interfaces and routes." },
    { id: "b", title: "Printers", url: "https://x.org/b", text: "Printing a page." },
  ];
  const stemmers = { name: "cut-ing", en: (word: string) => word.replace(/(ing|e)$/, "") };

  it("runs the given stemmers after the plural folding, and loadIndex needs them back", () => {
    const index = createIndex(entries, { ranking: "bm25", stemmers });
    expect(index.search("configure").map((hit) => hit.id)).toStrictEqual(["a"]);
    expect(createIndex(entries, { ranking: "bm25" }).search("configured").map((hit) => hit.id)).toStrictEqual([]);
    const bytes = index.snapshot();
    expect(loadIndex(bytes, { stemmers }).search("configure").map((hit) => hit.id)).toStrictEqual(["a"]);
    expect(() => loadIndex(bytes)).toThrow(/other "bm25" settings/);
    expect(() => loadIndex(bytes, { stemmers: { ...stemmers, name: "another" } })).toThrow(/other "bm25" settings/);
  });

  it("refuses a language, a fallback or stemmers it cannot use, naming them", () => {
    expect(() => createIndex(entries, { ranking: "bm25", language: "nl" as never })).toThrow(/Unknown language "nl"/);
    expect(() => createIndex(entries, { ranking: "bm25", fallbackLanguage: "sv" as never })).toThrow(/Unknown fallbackLanguage "sv"/);
    expect(() => createIndex(entries, { ranking: "bm25", stemmers: { name: "" } })).toThrow(McpSearchError);
    expect(() => createIndex(entries, { ranking: "bm25", stemmers: { name: "x", pt: "no" as never } })).toThrow(/"pt" of type string/);
    expect(() => createIndex(entries, { language: "pt" })).toThrow(/apply to ranking "bm25" only/);
  });

  it("analyses every entry in the language given, with no detection", () => {
    const spanish = [{ id: "c", title: "Ciudad", url: "https://x.org/c", text: "ciudad" }];
    expect(createIndex(spanish, { ranking: "bm25", language: "es" }).search("ciudades").map((hit) => hit.id)).toStrictEqual(["c"]);
    expect(createIndex(spanish, { ranking: "bm25", language: "en" }).search("ciudades").map((hit) => hit.id)).toStrictEqual([]);
  });
});

describe("BM25's prefix rule", () => {
  const entry = (id: string, text: string) => ({ id, title: id, url: `https://x.org/${id}`, text });

  it("reaches no longer word when the index holds the query word itself", () => {
    const index = createIndex([entry("a", "The source code."), entry("b", "A sour taste."), entry("c", "Sourdough bread.")], { ranking: "bm25" });
    expect(index.search("sour").map((hit) => hit.id)).toStrictEqual(["b"]);
    // A word the index does not hold still reaches the words it starts.
    expect(index.search("sourc").map((hit) => hit.id)).toStrictEqual(["a"]);
  });

  it("lets no word under 4 characters reach longer ones", () => {
    const index = createIndex([entry("a", "Terminal serial."), entry("b", "Nothing here.")], { ranking: "bm25", language: "en" });
    expect(index.search("ter")).toStrictEqual([]);
    expect(index.search("term").map((hit) => hit.id)).toStrictEqual(["a"]);
  });
});

describe("BM25's numbered cross-references", () => {
  it("drops the quoted title after a section number, in each language's quotes and form", () => {
    const cases: [string, string][] = [
      ["Use Alt-F2 (see Section 1.1.6, “Virtual consoles”) to log in.", "Use Alt-F2 (see Section 1.1.6,  ) to log in."],
      ["siehe Abschnitt 1.2.3, „Dateisystem-Berechtigungen“.", "siehe Abschnitt 1.2.3,  ."],
      ["consultez Section 9.8.6, « Effacer le contenu d’un fichier ».", "consultez Section 9.8.6,  ."],
      ["описаны в Раздел 2, «Общие свойства».", "описаны в Раздел 2,  ."],
      ["请参阅下文 第\u00a01.1.6\u00a0节 “虚拟控制台”。", "请参阅下文 第\u00a01.1.6\u00a0节  。"],
      ["第1章「GNU/Linux チュートリアル」を読む", "第1章 を読む"],
    ];
    for (const [text, expected] of cases) expect(withoutCrossReferences(text)).toBe(expected);
  });

  it("keeps a quote that follows a word, a bare number, or another line, and a quote over 80 characters", () => {
    const kept = [
      "Open the « Print » dialog.",
      "Figure 16.15. Dialog « Print »",
      "Debian 12 “bookworm” is stable.",
      "Priority 1837\n\n« info automake »",
      `See Section 2, “${"long ".repeat(17)}”.`,
    ];
    for (const text of kept) expect(withoutCrossReferences(text)).toBe(text);
  });

  it("ranks the section a title names above the sections that cite it by number", () => {
    const entry = (id: string, text: string) => ({ id, title: id, url: `https://x.org/${id}`, text });
    const explaining = entry("consoles", "Linux starts six virtual terminals at boot. Press Ctrl-Alt-F1 to F6 to switch between them; each of these consoles runs its own login shell, so one user can work in several places at once while another session keeps running.");
    const citing = (reference: string) => entry("login", `To log in again, press Alt-F2 (${reference}).`);
    const numbered = createIndex([explaining, citing("see Section 1.1.6, “Virtual consoles”")], { ranking: "bm25", language: "en" });
    // The citing section does not hold the title's words at all.
    expect(numbered.search("Virtual consoles").map((hit) => hit.id)).toStrictEqual(["consoles"]);
    // The same words, written as the citing section's own, still count: the short section wins.
    const own = createIndex([explaining, citing("it works in the virtual consoles")], { ranking: "bm25", language: "en" });
    expect(own.search("Virtual consoles").map((hit) => hit.id)).toStrictEqual(["login", "consoles"]);
  });
});
