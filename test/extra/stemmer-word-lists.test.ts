import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { foldText } from "../../src/ranking/analysis/fold.js";
import { languageRules } from "../../src/languages/index.js";

describe("plural folding against each language's word list", () => {
  // Debian's word lists (apt-get install wbrazilian wspanish wamerican), lower-case words only
  // (capitalised ones are names). A stem that is no prefix of any word of its language is a misfire.
  // Two readings no suffix rule can tell apart keep a fixed number of misfires, pinned here so that
  // no new one slips in: Portuguese -oes (nouns in -ão, chosen, and subjunctives of verbs in -oar:
  // "abalroes") and nouns in -l without a plural in the list; English -ies (nouns in -y, chosen,
  // and in -ie: "movies").
  const LISTS = [["pt", "/usr/share/dict/brazilian", 82], ["es", "/usr/share/dict/spanish", 0], ["en", "/usr/share/dict/american-english", 59]] as const;
  for (const [language, path, allowed] of LISTS) {
    it.skipIf(!existsSync(path))(`${language}: every stem of a word of ${path} is a prefix of a word of the list (${allowed} known misfires)`, () => {
      const words = [...new Set(readFileSync(path, "utf8").split("\n").filter((w) => w !== "" && !w.includes("'") && w[0] === w[0]!.toLowerCase()).map(foldText))].sort();
      const startsSome = (prefix: string) => {
        let lo = 0, hi = words.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (words[mid]! < prefix) lo = mid + 1;
          else hi = mid;
        }
        return lo < words.length && words[lo]!.startsWith(prefix);
      };
      const misfires = words.filter((word) => !startsSome(languageRules(language).foldPlural(word)));
      expect(misfires.length, misfires.slice(0, 20).join(" ")).toBeLessThanOrEqual(allowed);
    });
  }
});
