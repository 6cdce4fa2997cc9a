// Concepts, not words (issue 43): a query word and its expansions are one concept of the query,
// one BM25 term whose forms' occurrences add up, counted once by the coordination.
import { describe, expect, it } from "vitest";
import { analyzeQuery } from "../../src/ranking/analysis/analyze.js";
import { createBm25Ranking } from "../../src/ranking/bm25/core.js";
import { BM25_DEFAULTS } from "../../src/ranking/bm25/parameters.js";
import { createIndex, type IndexEntry } from "../../src/index.js";

const TABLE: Readonly<Record<string, readonly string[]>> = { cafe: ["coffee"], coffee: ["cafe"], azedo: ["sour"], ahorros: ["fondo de emergencia", "ahorro"] };
const expand = (word: string): readonly string[] => TABLE[word] ?? [];
const WORDS = { fold: true, segmentation: "words" } as const;

const entry = (id: string, text: string): IndexEntry => ({ id, title: id, url: `https://example.org/${id}`, text });

describe("analyzeQuery with expansions", () => {
  it.each([
    ["café azedo", ["pt"], [["cafe", "coffee"], ["azedo", "sour"]]],
    ["chá azedo", ["pt", "en"], [["cha"], ["azedo", "sour"]]],
    // Each word expands to the other: one concept, not two.
    ["café coffee", ["pt"], [["cafe", "coffee"]]],
    ["azedo sour", ["pt"], [["azedo", "sour"]]],
    // A phrase adds no form; a one-word expansion does (folded as the language folds it).
    ["ahorros", ["es"], [["ahorro"]]],
  ] as const)("%s in %j gives %j", (query, languages, expected) => {
    expect(analyzeQuery(query, languages, WORDS, expand)).toStrictEqual(expected);
  });

  it("gives the words' own groups without expansions", () => {
    expect(analyzeQuery("café azedo", ["pt"], WORDS)).toStrictEqual([["cafe"], ["azedo"]]);
    expect(analyzeQuery("café azedo", ["pt"], WORDS, () => [])).toStrictEqual([["cafe"], ["azedo"]]);
  });
});

describe("concept coverage in BM25", () => {
  const entries = [
    entry("twice", "Polvilho azedo, metade azedo, metade doce, para o pão de queijo."),
    entry("both", "A sour cup of coffee: under-extracted, ground too coarse."),
    entry("one-concept-two-forms", "Polvilho azedo or sour starch, for cheese bread."),
  ];

  it("ranks a document holding every concept above one holding a single concept twice", () => {
    const index = createIndex(entries, { ranking: "bm25" });
    expect(index.search("café azedo").map((hit) => hit.id)[0]).not.toBe("both");
    expect(index.search("café azedo", { expand }).map((hit) => hit.id)[0]).toBe("both");
  });

  it("counts a concept once in the coordination, whichever forms a document holds", () => {
    const ranking = createBm25Ranking(entries);
    const [twice, both, twoForms] = ranking.scores("café azedo", expand);
    expect(both).toBeGreaterThan(twoForms!);
    expect(both).toBeGreaterThan(twice!);
    // "azedo sour" is one concept: the same scores as "azedo" expanded.
    expect([...ranking.scores("azedo sour", expand)]).toStrictEqual([...ranking.scores("azedo", expand)]);
  });

  it("adds up a concept's forms as one term: two forms score above one of them", () => {
    const ranking = createBm25Ranking([entry("one", "azedo bread"), entry("two", "azedo sour"), entry("none", "sweet bread")]);
    const [one, two, none] = ranking.scores("azedo", expand);
    expect(two).toBeGreaterThan(one!);
    expect(none).toBe(0);
  });

  it("weighs a missing concept less as the query grows: the exponent is κ at two concepts, κ / 4 at three, κ / 25 at six", () => {
    const parameters = { ...BM25_DEFAULTS, leadWeight: 0, passageWeight: 0 };
    const text = "alpha beta gamma delta epsilon";
    const withCoordination = createBm25Ranking([entry("a", text), entry("b", "zeta")], parameters);
    const without = createBm25Ranking([entry("a", text), entry("b", "zeta")], { ...parameters, coordination: 0 });
    const ratio = (query: string) => withCoordination.scores(query)[0]! / without.scores(query)[0]!;
    // κ = 0.5 over (n − 1)²: (1/2)^0.5 with one of two words, (2/3)^0.125 with two of three,
    // (5/6)^0.02 with five of six.
    expect(ratio("alpha omega")).toBeCloseTo(Math.SQRT1_2, 12);
    expect(ratio("alpha beta omega")).toBeCloseTo((2 / 3) ** 0.125, 12);
    expect(ratio("alpha beta gamma delta epsilon omega")).toBeCloseTo((5 / 6) ** 0.02, 12);
    expect(ratio("alpha beta gamma delta epsilon")).toBe(1);
  });
});
