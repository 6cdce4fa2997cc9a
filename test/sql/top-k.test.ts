/**
 * The arithmetic of the ranked search (src/sql/top-k.ts): what a title holding the phrase must
 * hold, and which rows can still reach a score. The identity tests (./ranked-query.test.ts) check
 * the search end to end; these pin the ceilings themselves.
 */
import { describe, expect, it } from "vitest";
import { phraseNeeds, planTopK } from "../../src/sql/top-k.js";

describe("phraseNeeds", () => {
  it.each([
    // Inner words are whole title words; the last one starts one; the first may end one.
    ["matriculas no ensino medio 2015", ["matriculas", "ensino", "medio", "2015"], [{ token: 1, exact: true }, { token: 2, exact: true }, { token: 3, exact: false }]],
    ["soja, milho", ["soja", "milho"], [{ token: 1, exact: false }]],
    // A last word of 2 characters is no word-start hit; one that may begin a stopword ("para") needs nothing.
    ["rio gr", ["rio", "gr"], []],
    ["cultivo de par", ["cultivo", "par"], []],
    ["ibge:3550308", ["ibge", "3550308"], [{ token: 1, exact: false }]],
    ["soja", ["soja"], []],
  ] as const)("%j needs %j", (phrase, tokens, needs) => {
    expect(phraseNeeds(phrase, tokens)).toStrictEqual(needs);
  });
});

describe("planTopK", () => {
  it("scores the rare pairs' rows and puts a ceiling on the others", () => {
    // "ibge" is in every id, exactly; "3550308" in a few rows.
    const counts = [
      { token: 0, field: 0, exact: 5000, prefix: 5000 },
      { token: 0, field: 3, exact: 3, prefix: 3 },
      { token: 1, field: 0, exact: 4, prefix: 4 },
      { token: 1, field: 3, exact: 4, prefix: 4 },
    ];
    const plan = planTopK(["ibge", "3550308"], "ibge:3550308", counts, 100);
    expect(plan.rare).toStrictEqual([
      { token: "ibge", field: 3, prefix: true },
      { token: "3550308", field: 0, prefix: true },
      { token: "3550308", field: 3, prefix: true },
    ]);
    // An id with "ibge" exactly: 10 + 10 points; the phrase needs "3550308" in the title, a rare pair.
    expect(plan.ceiling).toBe(40);
    expect(plan.reaching(41)).toStrictEqual([]);
    expect(plan.reaching(40)).toStrictEqual([[[{ token: "ibge", field: 0, prefix: false }]]]);
    expect(plan.reaching(30)).toStrictEqual([[[{ token: "ibge", field: 0, prefix: true }]]]);
  });

  it("gives the phrase its 10 half points only when the vector holds what it needs", () => {
    const title = [
      { token: 0, field: 1, exact: 5000, prefix: 5000 },
      { token: 1, field: 1, exact: 5000, prefix: 5000 },
    ];
    // "sao paulo": the title needs "paulo" as a word start; 2 × (20 + 6) + 10.
    const plan = planTopK(["sao", "paulo"], "sao paulo", title, 100);
    expect(plan.ceiling).toBe(62);
    // Both words as word starts and the phrase: 56. Past it, one of them must be exact.
    // Each item as its sorted groups, the items sorted: the order of either is free.
    const items = (half: number) => plan.reaching(half)?.map((item) => JSON.stringify(item.map((group) => JSON.stringify(group)).sort())).sort();
    const written = (item: unknown[][]) => JSON.stringify(item.map((group) => JSON.stringify(group)).sort());
    expect(items(56)).toStrictEqual([written([[{ token: "paulo", field: 1, prefix: true }], [{ token: "sao", field: 1, prefix: true }]])]);
    expect(items(57)).toStrictEqual(
      [
        [[{ token: "paulo", field: 1, prefix: true }], [{ token: "sao", field: 1, prefix: false }]],
        [[{ token: "paulo", field: 1, prefix: false }], [{ token: "sao", field: 1, prefix: true }]],
      ]
        .map(written)
        .sort(),
    );
  });
});
