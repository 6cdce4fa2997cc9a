import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decisivePatterns, matchesAtWordStart, matchesExpansion } from "../../src/vocabulary/word-start.js";

/** The rule as the plain loop states it: every term has some pattern at a word start. */
const byRule = (text: string, expanded: readonly { patterns: readonly string[] }[]) =>
  expanded.length > 0 && expanded.every((term) => term.patterns.some((pattern) => matchesAtWordStart(text, pattern)));

const piece = fc.string({ unit: fc.constantFrom(..."abso19 -'.()|*?[]\\$^😀"), maxLength: 5 });

describe("decisivePatterns", () => {
  it.each([
    [["carros", "automoveis", "carro", "automove", "carro"], ["carro", "automove"]],
    [["", "soja"], ["soja"]],
    [["a", "ab", "b"], ["a", "b"]],
    [[], []],
  ])("keeps %j as %j", (patterns, expected) => {
    expect(decisivePatterns(patterns)).toStrictEqual(expected);
  });
});

describe("matchesExpansion", () => {
  it("gives the plain rule's answer for random texts and expansions", () => {
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 6 }),
        fc.array(fc.array(piece, { maxLength: 4 }), { maxLength: 3 }),
        (texts, terms) => {
          const expanded = terms.map((patterns) => ({ patterns }));
          // Patterns often taken from the texts, so that many cases match.
          if (texts[0] !== undefined && expanded[0] !== undefined) expanded[0] = { patterns: [...expanded[0].patterns, texts[0].slice(1, 4)] };
          for (const text of texts) expect(matchesExpansion(text, expanded)).toBe(byRule(text, expanded));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it.each([
    ["cultivo de soja", [["soja"], ["cultivos", "cultivo"]], true],
    ["tuberculose", [["uber"]], false],
    ["igp-m (mensal)", [["mensal", "m"]], true],
    ["a.b", [["."]], false],
    ["a .b", [["."]], true],
    ["a.b", [["b", "x.y"]], true],
    ["xa.b", [["a.b"]], false],
    ["anything", [], false],
    ["anything", [[]], false],
    ["anything", [[""]], false],
  ])("%j with %j is %s", (text, terms, expected) => {
    expect(matchesExpansion(text, terms.map((patterns) => ({ patterns })))).toBe(expected);
  });

  it("notices a replaced term when an expansion comes back", () => {
    const expanded: { patterns: readonly string[] }[] = [{ patterns: ["soja"] }];
    const other = [{ patterns: ["milho"] }];
    expect(matchesExpansion("cultivo de soja", expanded)).toBe(true);
    expanded[0] = { patterns: ["arroz"] };
    expect(matchesExpansion("cultivo de milho", other)).toBe(true);
    expect(matchesExpansion("cultivo de soja", expanded)).toBe(false);
    expect(matchesExpansion("cultivo de arroz", expanded)).toBe(true);
    expanded.push({ patterns: ["feijao"] });
    expect(matchesExpansion("cultivo de arroz", expanded)).toBe(false);
  });
});
