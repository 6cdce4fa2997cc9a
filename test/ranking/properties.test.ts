/**
 * Property tests (fast-check) of the ranking: the invariants that must hold for any input, not
 * only for the examples the other tests pick.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createIndex, normalizeText, tokenize, type IndexEntry } from "../../src/index.js";

/** Any string: every UTF-16 code unit, lone surrogates included. */
const anyString = fc.string({ unit: "binary", maxLength: 60 });
/** Text made of real words, accents and cases, so that tokens, prefixes and ties happen. */
const WORDS = ["população", "POPULACAO", "soja", "Soja", "milho", "renda", "rendimento", "de", "the", "ab", "a", "2010", "são", "paulo"];
const wordText = fc.array(fc.constantFrom(...WORDS), { maxLength: 6 }).map((words) => words.join(" "));
const someText = fc.oneof(anyString, wordText);

/** The stopwords tokenize drops (src/ranking/rule/definition.ts). */
const STOPWORDS = new Set(
  "a o as os um uma uns umas de da do das dos e em no na nos nas ao aos por para com sem que ou the of in and for by".split(" "),
);


describe("normalizeText", () => {
  it("is idempotent", () => {
    fc.assert(fc.property(someText, (text) => normalizeText(normalizeText(text)) === normalizeText(text)));
  });

  it("is exactly the documented rule: NFD, marks U+0300–U+036F removed, lower case, whitespace runs to one space, trimmed", () => {
    const rule = (text: string) =>
      text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/\s+/g, " ").trim();
    const spaces = fc.constantFrom(" ", "  ", "\t", "\n", "\r\n", "\u00a0", "\u2003", "\u3000", "\ufeff", " \t ");
    const spaced = fc.tuple(fc.array(someText, { maxLength: 5 }), fc.array(spaces, { maxLength: 5 }))
      .map(([words, gaps]) => words.map((word, i) => word + (gaps[i] ?? "")).join(""));
    fc.assert(fc.property(fc.oneof(someText, spaced), (text) => normalizeText(text) === rule(text)), { numRuns: 2000 });
  });
});

describe("tokenize", () => {
  it("yields only distinct [a-z0-9]{2,} tokens that are not stopwords", () => {
    fc.assert(
      fc.property(someText, (text) => {
        const tokens = tokenize(text);
        return new Set(tokens).size === tokens.length && tokens.every((token) => /^[a-z0-9]{2,}$/.test(token) && !STOPWORDS.has(token));
      }),
    );
  });
});

/** Entries with unique ids that no query word matches, and titles from the word pool. */
const entriesArbitrary = fc
  .array(fc.record({ title: wordText, keywords: fc.array(wordText, { maxLength: 2 }), text: someText }), { maxLength: 12 })
  .map((rows): IndexEntry[] => rows.map((row, i) => ({ id: `e${i}`, url: `https://example.com/${i}`, ...row })));

describe("createIndex(...).search", () => {
  it("never throws, returns at most limit results, only known ids, once each, and is deterministic", () => {
    fc.assert(
      fc.property(entriesArbitrary, someText, fc.integer({ min: 0, max: 15 }), (entries, query, limit) => {
        const index = createIndex(entries);
        const results = index.search(query, { limit });
        const known = new Map(entries.map((entry) => [entry.id, entry]));
        expect(results.length).toBeLessThanOrEqual(Math.max(0, limit));
        expect(new Set(results.map((hit) => hit.id)).size).toBe(results.length);
        for (const hit of results) {
          const entry = known.get(hit.id);
          expect(hit).toStrictEqual({ id: entry?.id, title: entry?.title, url: entry?.url });
        }
        expect(index.search(query, { limit })).toStrictEqual(results);
        expect(createIndex(entries).search(query, { limit })).toStrictEqual(results);
      }),
    );
  });

  it("returns only entries that cover a query token: the phrase bonus never matches on its own", () => {
    const covers = (entry: IndexEntry, token: string) =>
      [entry.id, entry.title, ...(entry.keywords ?? []), entry.text ?? ""].some((field) =>
        normalizeText(field) === token || tokenize(field).some((word) => word === token || (token.length >= 3 && word.startsWith(token))));
    const inside = fc.tuple(entriesArbitrary, fc.nat(), fc.nat(), fc.integer({ min: 3, max: 8 }))
      .map(([entries, which, from, length]) => [entries, entries[which % (entries.length || 1)]?.title.substr(from % 10, length) ?? ""] as const);
    fc.assert(
      fc.property(fc.oneof(fc.tuple(entriesArbitrary, someText), inside), ([entries, query]) => {
        const tokens = tokenize(query);
        for (const hit of createIndex(entries).search(query, { limit: entries.length })) {
          const entry = entries.find((candidate) => candidate.id === hit.id) as IndexEntry;
          expect(tokens.some((token) => covers(entry, token))).toBe(true);
        }
      }),
    );
  });

  it("lets the order of insertion decide ties only", () => {
    fc.assert(
      fc.property(entriesArbitrary, wordText, (entries, query) => {
        const all = { limit: entries.length };
        const forward = createIndex(entries).search(query, all).map((hit) => hit.id);
        const backward = createIndex([...entries].reverse()).search(query, all).map((hit) => hit.id);
        expect([...backward].sort()).toStrictEqual([...forward].sort());
        const position = (id: string) => Number(id.slice(1));
        // In the forward order, a pair ranked against insertion order won on score, not on order:
        // it must keep that order when the collection is reversed.
        for (const [i, a] of forward.entries()) {
          for (const b of forward.slice(i + 1)) {
            if (position(a) > position(b)) expect(backward.indexOf(a)).toBeLessThan(backward.indexOf(b));
          }
        }
      }),
    );
  });
});
