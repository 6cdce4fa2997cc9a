import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitWords } from "../../src/ranking/analysis/analyze.js";
import { forEachFoldedWord } from "../../src/ranking/matches.js";

const visited = (text: string, segmentation: "words" | "bigrams") => {
  const words: string[] = [];
  forEachFoldedWord(text, segmentation, (word) => (words.push(word), true));
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

  it("gives each word of a text that is not all ASCII its span, ASCII words included", () => {
    const spans: string[] = [];
    const sample = "Les fichiers’ zip: café";
    forEachFoldedWord(sample, "words", (word, start, end) => (spans.push(`${word}=${sample.slice(start, end)}`), true));
    expect(spans).toStrictEqual(["les=Les", "fichiers=fichiers", "zip=zip", "cafe=café"]);
  });
});
