import { createIndex, createVocabulary } from "@sbissoli/mcp-search";
import { describe, expect, it } from "vitest";
import { SNOWBALL_STEMMERS } from "../../src/folder/stemmers.js";
import { makeSnippet, makeSnippetAt } from "../../src/mcp/snippet.js";

// A long text whose only form of "run" is "runs", far from the start: a search for "running"
// ranks it through Snowball's English stem, and its snippet must show that sentence.
const TEXT = `${"Notes on the weather and the garden, kept day after day. ".repeat(40)}Every morning she runs along the river before work. ${"The tomatoes grew well this year. ".repeat(20)}`;
const ID = "doc:diary.md";

describe("the snippet of a stemmed hit", () => {
  const index = createIndex([{ id: ID, title: "Diary", url: "file:///diary.md", text: TEXT }], { ranking: "bm25", language: "auto", fallbackLanguage: "en", stemmers: SNOWBALL_STEMMERS });

  it("centres on the word that ranked, read with the index's analysis", () => {
    const { results, matcher } = index.searchWithMatcher("running");
    expect(results.map((hit) => hit.id)).toStrictEqual([ID]);
    const snippet = makeSnippetAt(TEXT, matcher.findMatches(TEXT, ID), matcher.terms.length, { maxChars: 120 });
    expect(snippet).toContain("she runs along the river");
    expect(snippet.startsWith("…")).toBe(true);
    expect(snippet.length).toBeLessThanOrEqual(120);
  });

  it("was the start of the text with the vocabulary's patterns alone, which know no stem", () => {
    const vocabulary = createVocabulary({ locale: "en", sourceName: "x" });
    const terms = vocabulary.expandQuery("running").map((term) => term.patterns);
    const snippet = makeSnippet(TEXT, terms, { maxChars: 120, normalizeChar: (char) => vocabulary.normalize(char) });
    expect(snippet.startsWith("Notes on the weather")).toBe(true);
    expect(snippet).not.toContain("runs");
  });

  it("is the start of the text when nothing matched", () => {
    expect(makeSnippetAt(TEXT, [], 1, { maxChars: 40 })).toBe("Notes on the weather and the garden, k…");
  });
});
