/**
 * The language detector the folder server gives BM25 under `--language auto`, asked for a
 * document whose function words cannot tell its language: eld (Efficient Language Detector,
 * Apache-2.0) with its "extrasmall" n-gram set, 0.95 MB of the package's 8.8 MB, its answers kept
 * to the library's languages. It ranked exactly as eld's "small" set did on the relevance bench
 * and detects as well (docs/performance.md, "Languages"), for 29 MB of heap against 46 MB.
 *
 * It is loaded the first time a document needs it, not before: a folder whose documents all say
 * their language by their function words (long English pages do) never loads it. Loading holds
 * the thread once, 0.15 s to 0.3 s; eld is an ES module, loaded synchronously by `require`
 * (Node 20.19 and 22.12 on), because BM25 asks for a language in the middle of indexing.
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { LANGUAGES, type LanguageDetector } from "@sbissoli/mcp-search";

interface Eld {
  detect(text: string): { language: string };
  setLanguageSubset(languages: readonly string[]): unknown;
}

let eld: Eld | undefined;

function loadedEld(): Eld {
  if (eld === undefined) {
    const path = fileURLToPath(import.meta.resolve("eld/extrasmall"));
    eld = (createRequire(import.meta.url)(path) as { eld: Eld }).eld;
    // Answers among the library's languages only: a Russian page is not left to the fallback
    // language as Bulgarian, nor a Spanish title as Catalan.
    eld.setLanguageSubset([...LANGUAGES]);
  }
  return eld;
}

/**
 * eld as BM25's detector, named "eld extrasmall" and its languages in the index snapshot and in
 * the `--cache` fingerprint; eld is loaded by its first `detect`.
 *
 * @example
 * ELD_DETECTOR.detect("настройка принтера"); // => "ru"
 */
export const ELD_DETECTOR: LanguageDetector = {
  name: `eld extrasmall ${LANGUAGES.join(" ")}`,
  detect: (text) => loadedEld().detect(text).language || undefined,
};

/** True once a document needed eld and it was loaded (the tests read it). */
export function eldLoaded(): boolean {
  return eld !== undefined;
}
