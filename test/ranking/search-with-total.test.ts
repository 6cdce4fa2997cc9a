import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createIndex, type IndexEntry, type IndexRanking } from "../../src/index.js";

/**
 * `index.searchWithTotal`: the results of `search` at the same limit, and the count of every
 * match, the one `search` with `limit` set to the index's size gives, whatever the updates.
 */

const WORDS = ["soja", "arroz", "cultivo", "milho", "produção", "café", "coffee", "brewing", "grinder", "water"];

const entryArbitrary = fc.record({
  title: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((words) => words.join(" ")),
  text: fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }).map((words) => words.join(" ")),
});

function entriesOf(records: readonly { title: string; text: string }[]): IndexEntry[] {
  return records.map((record, n) => ({ id: `e${n}`, title: record.title, url: `https://x.org/${n}`, text: record.text }));
}

describe("index.searchWithTotal", () => {
  it("counts two matches and returns the first under limit 1", () => {
    const index = createIndex([
      { id: "a", title: "Cultivo de soja", url: "https://x.org/a" },
      { id: "b", title: "Cultivo de arroz", url: "https://x.org/b" },
      { id: "c", title: "Café", url: "https://x.org/c" },
    ]);
    expect(index.searchWithTotal("cultivo", { limit: 1 })).toStrictEqual({ results: [{ id: "a", title: "Cultivo de soja", url: "https://x.org/a" }], total: 2 });
    expect(index.searchWithTotal("cultivo", { limit: 0 })).toStrictEqual({ results: [], total: 2 });
    expect(index.searchWithTotal("de", { limit: 5 })).toStrictEqual({ results: [], total: 0 });
  });

  for (const ranking of ["rule", "bm25"] as const satisfies readonly IndexRanking[]) {
    it(`equals search at the limit, and search over the whole index for the total (${ranking}, property)`, () => {
      fc.assert(
        fc.property(
          fc.array(entryArbitrary, { minLength: 1, maxLength: 30 }),
          fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
          fc.integer({ min: 0, max: 8 }),
          fc.array(fc.nat({ max: 29 }), { maxLength: 5 }),
          (records, words, limit, removed) => {
            const index = createIndex(entriesOf(records), { ranking });
            for (const n of removed) if (index.has(`e${n}`)) index.remove(`e${n}`);
            const query = words.join(" ");
            const { results, total } = index.searchWithTotal(query, { limit });
            expect(results).toStrictEqual(index.search(query, { limit }));
            expect(total).toBe(index.search(query, { limit: Math.max(index.size, 1) }).length);
          },
        ),
        { numRuns: 60 },
      );
    });
  }
});
