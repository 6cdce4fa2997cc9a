import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitWords } from "../../src/ranking/analysis/analyze.js";
import { foldText } from "../../src/ranking/analysis/fold.js";
import { forEachFoldedWord, forEachRuleWord, WordValues } from "../../src/ranking/matches.js";

/** Each folded word as itself. */
const asIs = new WordValues((word: string) => word);

const visited = (text: string, segmentation: "words" | "bigrams") => {
  const words: string[] = [];
  forEachFoldedWord(text, segmentation, asIs, (word: string) => (words.push(word), true));
  return words;
};

describe("forEachFoldedWord", () => {
  // Pieces of every kind a text mixes: ASCII words, accented Latin, Cyrillic with й, Greek, Han and kana, punctuation.
  const piece = fc.constantFrom("Zip", "files", "x", "42", "café", "Ação", "новый", "ЙОД", "її", "λόγος", "東京の地下鉄", "’", " ", ", ", "\n", "-", "é");
  const text = fc.array(piece, { maxLength: 30 }).map((pieces) => pieces.join(""));

  it.each(["words", "bigrams"] as const)("visits the words BM25 indexes, in order (%s)", (segmentation) => {
    fc.assert(fc.property(text, (sample) => {
      expect(visited(sample, segmentation)).toStrictEqual(splitWords(sample, segmentation));
    }), { numRuns: 500 });
  });

  it.each(["words", "bigrams"] as const)("gives each word the span of the text it came from, in order (%s)", (segmentation) => {
    fc.assert(fc.property(text, (sample) => {
      let last = -1;
      forEachFoldedWord(sample, segmentation, asIs, (word, start, end) => {
        expect(foldText(sample.slice(start, end))).toBe(word);
        expect(start).toBeGreaterThan(last);
        last = start;
        return true;
      });
    }), { numRuns: 500 });
  });

  it("places each segment of a run of Han and kana, a repeated one included", () => {
    const spans = (sample: string, segmentation: "words" | "bigrams") => {
      const found: string[] = [];
      forEachFoldedWord(sample, segmentation, asIs, (word, start, end) => (found.push(`${word}@${start}-${end}`), true));
      return found;
    };
    expect(spans("Ver 東京東京", "bigrams")).toStrictEqual(["ver@0-3", "東京@4-6", "京東@5-7", "東京@6-8"]);
    expect(spans("é 東京の地下鉄", "words")).toStrictEqual(["東京@2-4", "の@4-5", "地下鉄@5-8"]);
    // Written decomposed, a word folds shorter than its run: its span is the whole run.
    expect(spans("Cafe\u0301 東京", "words")).toStrictEqual(["cafe@0-5", "東京@6-8"]);
  });

  it("stops when the visit says so, in ASCII, in a run and among a run's segments", () => {
    for (const sample of ["zip files here", "zip’ files here", "Ação café aqui", "東京の地下鉄 and more"]) {
      const seen: string[] = [];
      forEachFoldedWord(sample, "words", asIs, (word) => (seen.push(word), false));
      expect(seen, sample).toHaveLength(1);
    }
  });

  it("gives each word of a text that is not all ASCII its span, ASCII words included", () => {
    const spans: string[] = [];
    const sample = "Les fichiers’ zip: café";
    forEachFoldedWord(sample, "words", asIs, (word, start, end) => (spans.push(`${word}=${sample.slice(start, end)}`), true));
    expect(spans).toStrictEqual(["les=Les", "fichiers=fichiers", "zip=zip", "cafe=café"]);
  });
});

describe("WordValues", () => {
  it("works each word out once, across texts, and tells apart the ASCII words whose hashes collide", () => {
    const asked: string[] = [];
    const values = new WordValues((word: string) => (asked.push(word), word.toUpperCase()));
    const seen: string[] = [];
    // "c0" and "an" share a hash (99 × 31 + 48 = 97 × 31 + 110).
    for (const sample of ["c0 an C0", "AN an c0 café Café"]) forEachFoldedWord(sample, "words", values, (value) => (seen.push(value), true));
    expect(seen).toStrictEqual(["C0", "AN", "C0", "AN", "AN", "C0", "CAFE", "CAFE"]);
    expect(asked).toStrictEqual(["c0", "an", "cafe"]);
  });

  it("gives each of many words of one hash its own value, asking once for each", () => {
    const asked: string[] = [];
    const values = new WordValues((word: string) => (asked.push(word), `<${word}>`));
    // Words of 5 blocks of "c0" or "an" all share one hash: 32 of them, twice.
    const words = Array.from({ length: 32 }, (_, i) => Array.from({ length: 5 }, (_, b) => ((i >> b) & 1 ? "an" : "c0")).join(""));
    const seen: string[] = [];
    forEachFoldedWord([...words, ...words].join(" "), "words", values, (value) => (seen.push(value), true));
    expect(seen).toStrictEqual([...words, ...words].map((word) => `<${word}>`));
    expect(asked).toStrictEqual(words);
  });

  it("starts again past 100,000 distinct words, and still gives each word its own value", () => {
    let asked = 0;
    const values = new WordValues((word: string) => (asked++, `<${word}>`));
    const words = Array.from({ length: 100_050 }, (_, i) => `w${i}`);
    const seen: string[] = [];
    for (const sample of [words.join(" "), "W0 w100049 caf\u00e9 w7"]) forEachFoldedWord(sample, "words", values, (value) => (seen.push(value), true));
    expect(seen.slice(-4)).toStrictEqual(["<w0>", "<w100049>", "<cafe>", "<w7>"]);
    expect(seen.slice(0, 100_050)).toStrictEqual(words.map((word) => `<${word}>`));
    // w0 and w7 were forgotten when the 100,001st word came; w100049 was not.
    expect(asked).toBe(100_050 + 3);
  });
});

describe("forEachRuleWord", () => {
  it("gives the rule's tokens, accents removed, with their words' spans, and stops when told", () => {
    const seen: string[] = [];
    forEachRuleWord("Café, AÇÃO-2024", (token, start, end) => (seen.push(`${token}@${start}-${end}`), true));
    expect(seen).toStrictEqual(["cafe@0-4", "acao@6-10", "2024@11-15"]);
    for (const sample of ["Café au lait", "zipфайлtar"]) {
      const first: string[] = [];
      forEachRuleWord(sample, (token) => (first.push(token), false));
      expect(first, sample).toHaveLength(1);
    }
  });
});
