import { createIndex } from "@sbissoli/mcp-search";
import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createEldDetector } from "../../src/folder/detector.js";
import { ELD_ROWS_FILE, eldDataFile, readBuiltRows, readNgramRows, writeBuiltRows } from "../../src/folder/eld-table.js";

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

describe("the rows file the CLI's build writes beside its bundle", () => {
  it("holds eld's rows for the languages it was written for, and is read only for those and that eld", () => {
    const folder = mkdtempSync(join(tmpdir(), "mcp-search-eld-rows-"));
    try {
      const file = pathToFileURL(join(folder, ELD_ROWS_FILE));
      expect(readBuiltRows(file, ["ru", "pt"])).toBeUndefined();
      writeBuiltRows(folder, ["ru", "pt"]);
      expect(readBuiltRows(file, ["ru", "pt"])).toStrictEqual(readNgramRows(readFileSync(eldDataFile(), "utf8"), ["ru", "pt"]));
      expect(readBuiltRows(file, ["ru", "pt", "de"])).toBeUndefined();
      const built = JSON.parse(readFileSync(file, "utf8")) as { eld: string };
      writeFileSync(file, JSON.stringify({ ...built, eld: "0.0.1" }));
      expect(readBuiltRows(file, ["ru", "pt"])).toBeUndefined();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
