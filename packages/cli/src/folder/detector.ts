/**
 * The language detector the folder server gives BM25 under `--language auto`, asked for a
 * document whose function words cannot tell its language: eld (Efficient Language Detector,
 * Apache-2.0) with its "extrasmall" n-gram set, 0.95 MB of the package's 8.8 MB, its answers kept
 * to the library's languages. It ranked exactly as eld's "small" set did on the relevance bench
 * and detects as well (docs/performance.md, "Languages"), for 3.8 MB of heap against 46 MB.
 *
 * It is loaded the first time a document needs it, not before: a folder whose documents all say
 * their language by their function words (long English pages do) never loads it. Loading holds
 * the thread once, about 45 ms (./eld-table.ts); eld is an ES module, loaded synchronously by `require`
 * (Node 20.19 and 22.12 on), because BM25 asks for a language in the middle of indexing. Where
 * it cannot be loaded (an older Node 22), detection falls back to the function words and the
 * locale's language, with one warning on stderr: a document is never lost for it.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { LANGUAGES, type LanguageDetector } from "@sbissoli/mcp-search";
import { ELD_ROWS_FILE, eldDataFile, eldSource, readBuiltRows, readNgramRows, type NgramsData } from "./eld-table.js";

/** What the folder server uses of eld. */
interface Eld {
  detect(text: string): { language: string };
  setLanguageSubset(languages: readonly string[]): unknown;
}

/**
 * eld's own detector over the n-grams that score in one of the library's languages: 12,552 of
 * the "extrasmall" table's 49,553 (./eld-table.ts). eld 2.1 exports only whole tables, and an ES
 * module is never unloaded; so `createEld` is reached by its path in eld's package (the CLI pins
 * that version), and the rows come from the file the CLI's build wrote beside its bundle, or,
 * run from its sources, from eld's data file. eld's answers among the nine are the same, as every
 * score of theirs is kept (packages/cli/test/extra/detector.test.ts compares them).
 */
function requireEld(): Eld {
  const { createEld } = createRequire(import.meta.url)(join(eldSource(), "languageDetector.js")) as { createEld(): { instance: Eld; loadData(data: NgramsData): unknown } };
  const { instance, loadData } = createEld();
  loadData(readBuiltRows(new URL(`./${ELD_ROWS_FILE}`, import.meta.url), LANGUAGES) ?? readNgramRows(readFileSync(eldDataFile(), "utf8"), LANGUAGES));
  return instance;
}

/**
 * A detector that loads eld by `load` on its first question and answers among the library's
 * languages (a Russian page is not left to the fallback language as Bulgarian, nor a Spanish
 * title as Catalan); `loaded()` tells whether it has. When `load` throws, it warns once and
 * answers `undefined` (unsure) from then on.
 *
 * @example
 * const { detector } = createEldDetector(requireEld);
 * detector.detect("настройка принтера"); // => "ru"
 */
export function createEldDetector(load: () => Eld): { detector: LanguageDetector; loaded(): boolean } {
  let eld: Eld | undefined;
  let failed = false;
  const loadedEld = (): Eld | undefined => {
    if (eld === undefined && !failed) {
      try {
        eld = load();
        eld.setLanguageSubset([...LANGUAGES]);
      } catch (error) {
        failed = true;
        eld = undefined;
        process.emitWarning(`mcp-search: eld could not be loaded (${(error as Error).message}); documents whose function words cannot tell their language are read in the --locale's language`);
      }
    }
    return eld;
  };
  return {
    detector: { name: `eld extrasmall ${LANGUAGES.join(" ")}`, detect: (text) => loadedEld()?.detect(text).language || undefined },
    loaded: () => eld !== undefined,
  };
}

const SHARED = createEldDetector(requireEld);

/** eld as BM25's detector, named "eld extrasmall" and its languages in the index snapshot and in the `--cache` fingerprint. */
export const ELD_DETECTOR: LanguageDetector = SHARED.detector;

/** True once a document needed eld and it was loaded (the tests read it). */
export const eldLoaded = (): boolean => SHARED.loaded();
