/**
 * Shared by the tests of the ranked SQL queries (test/sql/ranked-query.test.ts and
 * test/extra/sql-ranking.test.ts): random catalogues and queries built to meet the rule's edges.
 * Not a test file itself.
 */
import fc from "fast-check";
import type { IndexEntry } from "../src/index.js";

// Few words, so that entries tie; accents, prefixes of each other, 2-letter tokens, stopwords,
// numbers, and words that are ids too.
const WORDS = [
  "soja", "sojas", "So", "sol", "Produção", "producao", "produto", "pro", "de", "da", "São", "sao", "Paulo",
  "1612", "16", "açúcar", "ACUCAR", "cnae", "x", "é", "the", "e10", "milho", "mil",
];
const SEPARATORS = [" ", " ", " ", "-", ": ", ", ", "/", "  ", " — ", "("];
const TEXT = fc
  .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPARATORS)), { minLength: 1, maxLength: 5 })
  .map((parts) => parts.map(([word, separator]) => word + separator).join("").trim());
const ID = fc.oneof(fc.constantFrom(...WORDS), fc.nat(99).map((n) => `cnae:${n}`), TEXT);
const ENTRY = fc.record(
  { id: ID, title: TEXT, keywords: fc.array(TEXT, { maxLength: 2 }), text: TEXT },
  { requiredKeys: ["id", "title"] },
);
/** Entries with unique ids (a repeated id gets its position appended). */
const CATALOGUE = fc.array(ENTRY, { minLength: 1, maxLength: 25 }).map((drafts) => {
  const seen = new Set<string>();
  return drafts.map((draft, i): IndexEntry => {
    const id = seen.has(draft.id) ? `${draft.id}#${i}` : draft.id;
    seen.add(id);
    return { ...draft, id, url: `https://example.org/${i}` };
  });
});
/** A query: words, a piece of a title (the phrase bonus), or either with a NUL in it. */
const queryOf = (entries: readonly IndexEntry[]) =>
  fc.oneof(
    TEXT,
    fc.tuple(fc.nat(entries.length - 1), fc.nat(20), fc.nat(30)).map(([i, from, length]) => entries[i]!.title.slice(from, from + length)),
    fc.tuple(TEXT, fc.nat(4)).map(([text, at]) => `${text.slice(0, at)}\0${text.slice(at)}`),
  );
/** A catalogue, 1 to 4 queries over it, and a limit (or none, for the default). */
export const RANKING_CASE = CATALOGUE.chain((entries) =>
  fc.record({ entries: fc.constant(entries), queries: fc.array(queryOf(entries), { minLength: 1, maxLength: 4 }), limit: fc.oneof(fc.constant(undefined), fc.integer({ min: 0, max: 30 })) }),
);
