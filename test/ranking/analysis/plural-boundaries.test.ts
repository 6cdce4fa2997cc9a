import { describe, expect, it } from "vitest";
import { foldPluralEn } from "../../../src/languages/en.js";
import { foldPluralPt } from "../../../src/languages/pt.js";

// The short words where a plural rule is one letter from misfiring (issue 36's surviving
// mutations): "reis" must not become "rel" (which meets "relatório"), nor "pais" "pal"; "ties"
// and "pies" fold to their singular, not to "ty" and "py".
describe("plural folding at its shortest words", () => {
  it.each([
    ["reis", "reis"],
    ["pais", "pais"],
    ["reais", "reai"], // five letters: the -ais rule applies, and "real" meets it there
    ["real", "reai"],
    ["papel", "papei"],
    ["azul", "azui"],
    ["funil", "funil"], // -il is not the -l of -al, -el, -ol, -ul
    ["mall", "mall"],
    ["fuziis", "fuziis"], // -iis is not the -is of -ais, -eis, -ois, -uis
  ])("foldPluralPt(%j) => %j", (word, folded) => {
    expect(foldPluralPt(word)).toBe(folded);
  });

  it.each([
    ["ties", "tie"],
    ["pies", "pie"],
    ["flies", "fly"],
    ["series", "sery"],
    ["dishes", "dish"],
    ["buzzes", "buzz"],
  ])("foldPluralEn(%j) => %j", (word, folded) => {
    expect(foldPluralEn(word)).toBe(folded);
  });
});
