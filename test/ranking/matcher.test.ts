import { stemmer as en } from "@orama/stemmers/english";
import { describe, expect, it } from "vitest";
import { createIndex, LANGUAGES, LOCALE_LANGUAGES, LOCALES, type IndexEntry, type Stemmers } from "../../src/index.js";
import { FIELD, ORIGINAL_RULE_STOPWORDS, RULE_FIELDS } from "../../src/ranking/rule/definition.js";

const STEMMERS: Stemmers = { name: "snowball-en", en };
const FAR = `${"Filler words about nothing much. ".repeat(60)}Every morning she runs along the river. ${"More filler here. ".repeat(20)}`;

describe("SearchIndex.searchWithMatcher", () => {
  it("gives searchWithTotal's results and total, and the query as BM25 analysed it", () => {
    const entries: IndexEntry[] = [
      { id: "a", title: "Diary", url: "https://x.org/a", text: FAR },
      { id: "b", title: "Running shoes", url: "https://x.org/b" },
      { id: "c", title: "Cooking", url: "https://x.org/c", text: "Nothing about it." },
    ];
    const index = createIndex(entries, { ranking: "bm25", language: "en", stemmers: STEMMERS });
    const { results, total, matcher } = index.searchWithMatcher("running", { limit: 1 });
    expect({ results, total }).toStrictEqual(index.searchWithTotal("running", { limit: 1 }));
    expect(matcher.terms).toStrictEqual([["run"]]);
  });

  it("finds a stemmed hit where it is in the text: 'runs' for 'running', far from the start", () => {
    const index = createIndex([{ id: "a", title: "Diary", url: "https://x.org/a", text: FAR }], { ranking: "bm25", language: "en", stemmers: STEMMERS });
    const { results, matcher } = index.searchWithMatcher("running");
    expect(results.map((hit) => hit.id)).toStrictEqual(["a"]);
    const found = matcher.findMatches(FAR, "a");
    expect(found.map(({ start, end }) => FAR.slice(start, end))).toStrictEqual(["runs"]);
    expect(found[0]).toStrictEqual({ start: FAR.indexOf("runs"), end: FAR.indexOf("runs") + 4, term: 0 });
    // Without an id (or with one the index does not hold), in every language of the query.
    expect(matcher.findMatches(FAR)).toStrictEqual(found);
    expect(matcher.findMatches(FAR, "nowhere")).toStrictEqual(found);
  });

  it("reads a document in its own language: Portuguese plural folding for a Portuguese entry", () => {
    const text = "O servidor guarda as mensagens de cada pasta, e não apaga os arquivos da pasta.";
    const index = createIndex(
      [
        { id: "pt", title: "Servidor", url: "https://x.org/pt", text },
        { id: "en", title: "Server", url: "https://x.org/en", text: "The server keeps the messages of each folder and more." },
      ],
      { ranking: "bm25" },
    );
    const { results, matcher } = index.searchWithMatcher("mensagem");
    expect(results.map((hit) => hit.id)).toContain("pt");
    expect(matcher.findMatches(text, "pt").map(({ start, end }) => text.slice(start, end))).toStrictEqual(["mensagens"]);
  });

  it("gives each span in the text's own positions, accents and scripts without spaces included", () => {
    const text = "Ação — 東京の地下鉄 e a Canção";
    const index = createIndex([{ id: "a", title: "T", url: "https://x.org/a", text }], { ranking: "bm25", language: "pt" });
    const { matcher } = index.searchWithMatcher("canção 地下鉄");
    const spans = matcher.findMatches(text, "a").map(({ start, end, term }) => [text.slice(start, end), term]);
    expect(spans).toStrictEqual([["地下鉄", 1], ["Canção", 0]]);
  });

  it("leaves out the words of a numbered cross-reference's quoted title, which did not rank", () => {
    const text = "Virtual consoles (see Section 1.1.6, “Virtual consoles”) and virtual terminals.";
    const index = createIndex([{ id: "a", title: "T", url: "https://x.org/a", text }], { ranking: "bm25", language: "en" });
    const { matcher } = index.searchWithMatcher("virtual consoles");
    expect(matcher.findMatches(text, "a").map(({ start }) => start)).toStrictEqual([0, 8, 61]);
  });

  it("matches by the rule's tokens and word starts under the rule ranking", () => {
    const text = "Produção de SOJA e de sojas no Paraná; soja, sem sojicultura.";
    const index = createIndex([{ id: "a", title: "Soja", url: "https://x.org/a", text }]);
    const { matcher, total } = index.searchWithMatcher("soja de");
    expect(total).toBe(1);
    expect(matcher.terms).toStrictEqual([["soja"]]);
    expect(matcher.findMatches(text).map(({ start, end }) => text.slice(start, end))).toStrictEqual(["SOJA", "sojas", "soja"]);
  });

  it("finds nothing for a query of stopwords, and analyses the query on an empty index too", () => {
    const empty = createIndex([]).searchWithMatcher("soja");
    expect({ results: empty.results, total: empty.total, terms: empty.matcher.terms }).toStrictEqual({ results: [], total: 0, terms: [["soja"]] });
    const index = createIndex([{ id: "a", title: "Soja", url: "https://x.org/a" }]);
    expect(index.searchWithMatcher("de da").matcher.findMatches("de da")).toStrictEqual([]);
  });
});

describe("the rule's one definition (src/ranking/rule/definition.ts)", () => {
  it("drops exactly the original's stopwords (0.9.0), whatever the language modules add", () => {
    expect([...ORIGINAL_RULE_STOPWORDS]).toStrictEqual(
      "a o as os um uma uns umas de da do das dos e em no na nos nas ao aos por para com sem que ou the of in and for by".split(" "),
    );
  });

  it("keeps the fields in the rule's order and weights", () => {
    expect(RULE_FIELDS.map(({ name, column, tag, weight }) => [name, column, tag, weight])).toStrictEqual([
      ["id", "id_tokens", "i", 10],
      ["title", "title_tokens", "t", 3],
      ["keywords", "keyword_tokens", "k", 2],
      ["text", "text_tokens", "x", 1],
    ]);
    expect(FIELD.title).toBe(1);
  });
});

describe("LOCALE_LANGUAGES", () => {
  it("maps every locale to one of the languages", () => {
    expect(LOCALE_LANGUAGES).toStrictEqual({ "pt-BR": "pt", en: "en", es: "es" });
    for (const locale of LOCALES) expect(LANGUAGES).toContain(LOCALE_LANGUAGES[locale]);
  });
});
