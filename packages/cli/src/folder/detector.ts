/**
 * The language detector the folder server gives BM25 under `--language auto`, asked for a
 * document whose function words cannot tell its language: eld (Efficient Language Detector,
 * Apache-2.0) with its "extrasmall" n-gram set, 0.95 MB of the package's 8.8 MB, its answers kept
 * to the library's languages. Loading it costs 29 MB of heap and 88 MB of resident memory (its
 * "small" set: 46 MB and 153 MB), and it ranked exactly as "small" did on the relevance bench
 * (docs/performance.md, "Languages"). It is loaded the first time a folder is opened with BM25
 * and `--language auto`, never by the rule ranking nor by a fixed `--language`. Its accuracy per
 * language, on titles, short queries and whole documents, is in docs/performance.md.
 */
import { LANGUAGES, type LanguageDetector } from "@sbissoli/mcp-search";

let loading: Promise<LanguageDetector> | undefined;

/**
 * eld as BM25's detector, named "eld extrasmall" and its languages in the index snapshot and in
 * the `--cache` fingerprint; loaded once per process.
 *
 * @example
 * const detector = await loadLanguageDetector();
 * detector.detect("настройка принтера"); // => "ru"
 */
export function loadLanguageDetector(): Promise<LanguageDetector> {
  loading ??= import("eld/extrasmall").then(({ eld }) => {
    // Answers among the library's languages only: a Russian page is not left to the fallback
    // language as Bulgarian, nor a Portuguese title as Galician.
    eld.setLanguageSubset([...LANGUAGES]);
    return { name: `eld extrasmall ${LANGUAGES.join(" ")}`, detect: (text: string) => eld.detect(text).language || undefined };
  });
  return loading;
}
