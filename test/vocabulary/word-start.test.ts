import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decisivePatterns, findAnchor, matchesAtWordStart, matchesExpansion } from "../../src/vocabulary/word-start.js";

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

describe("findAnchor", () => {
  it.each([
    ["soja", { anchor: "j", offset: 2 }],
    ["fabricacao", { anchor: "b", offset: 2 }],
    ["fruticultura", { anchor: "f", offset: 0 }],
    ["xaxim", { anchor: "x", offset: 0 }],
    ["pro", null],
    ["são", null],
    ["", null],
  ])("anchors %j on %j", (pattern, expected) => {
    expect(findAnchor(pattern)).toStrictEqual(expected);
  });
});

/** Texts and patterns made of rare letters, common ones, boundaries and non-ASCII, to drive the anchored walk. */
const anchoredPiece = fc.string({ unit: fc.constantFrom(..."jxzbasoj -.ãé😀"), maxLength: 6 });

describe("matchesExpansion", () => {
  it("gives the plain rule's answer when patterns are looked up by a rare letter", () => {
    fc.assert(
      fc.property(
        fc.array(anchoredPiece, { minLength: 1, maxLength: 4 }),
        fc.array(anchoredPiece, { minLength: 1, maxLength: 3 }),
        fc.nat(),
        (texts, patterns, pick) => {
          // Each term one pattern (the anchored step), one of them cut from a text so that many match.
          const source = texts[pick % texts.length] ?? "";
          const start = pick % (source.length + 1);
          const expanded = [...patterns, source.slice(start, start + 1 + (pick % 4))].map((pattern) => ({ patterns: [pattern] }));
          for (const text of texts) {
            expect(matchesExpansion(text, expanded)).toBe(byRule(text, expanded));
            for (const term of expanded) expect(matchesExpansion(text, [term])).toBe(byRule(text, [term]));
          }
        },
      ),
      { numRuns: 2000 },
    );
  });


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
    ["sojaxsoja", [["soja"]], true],
    ["asoja soja", [["soja"]], true],
    ["asoja jsoja", [["soja"]], false],
    ["oja soja", [["soja"]], true],
    ["ja", [["soja"]], false],
    ["jjj", [["jj"]], true],
    ["ajjj", [["jj"]], false],
    ["a-jj", [["jj"]], true],
    ["soja😀cafe", [["cafe"], ["soja"]], true],
    ["sojabcafe", [["cafe"], ["soja"]], false],
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
