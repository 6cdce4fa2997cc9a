import { createIndex } from "@sbissoli/mcp-search";
import { describe, expect, it } from "vitest";
import { createEldDetector, readNgramRows } from "../../src/folder/detector.js";

describe("the folder server's language detector when eld cannot be loaded", () => {
  it("warns once, answers unsure, and leaves the document to the fallback language instead of losing it", async () => {
    const warnings: string[] = [];
    const listen = (warning: Error) => warnings.push(warning.message);
    process.on("warning", listen);
    try {
      // What Node 22 before 22.12 does to a synchronous require of an ES module.
      const { detector, loaded } = createEldDetector(() => {
        throw new Error("require() of ES Module eld/src/entries/static.extrasmall.js not supported");
      });
      expect(detector.detect("configuración")).toBeUndefined();
      expect(detector.detect("настройка")).toBeUndefined();
      const index = createIndex([{ id: "a", title: "Sobre", url: "https://x.org/a", text: "configuración" }], { ranking: "bm25", detector, fallbackLanguage: "es" });
      expect(index.search("configuracion").map((hit) => hit.id)).toStrictEqual(["a"]);
      expect(loaded()).toBe(false);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/eld could not be loaded \(require\(\) of ES Module .*\); documents whose function words cannot tell their language are read in the --locale's language/);
    } finally {
      process.off("warning", listen);
    }
  });
});

describe("readNgramRows, eld's data file read as text", () => {
  const file = `/* Apache-2.0 */\nexport const ngramsData = {type:'XS60',languages:{0:'am',1:'ru',2:'pt'},isSubset:false,ngrams:{' L\\'aL':{1:76,2:5},L_QL:{0:12},'L{"L':{0:3,2:40},'  L':{}}};\n`;

  it("keeps the rows and scores of the languages asked for, quoted keys unescaped and bare keys as they are", () => {
    expect(readNgramRows(file, ["ru", "pt"])).toStrictEqual({
      type: "XS60",
      languages: { 0: "am", 1: "ru", 2: "pt" },
      ngrams: { " L'aL": { 1: 76, 2: 5 }, 'L{"L': { 2: 40 } },
    });
    expect(readNgramRows(file, ["am"]).ngrams).toStrictEqual({ L_QL: { 0: 12 }, 'L{"L': { 0: 3 } });
  });

  it("names what is missing in a file that is not eld's table", () => {
    expect(() => readNgramRows("export const ngramsData = {ngrams:{}}", ["ru"])).toThrow("eld's data file has no type or languages");
  });
});
