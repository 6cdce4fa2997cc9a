/**
 * The language detector the folder server gives BM25 under `--language auto`, asked for a
 * document whose function words cannot tell its language: eld (Efficient Language Detector,
 * Apache-2.0) with its "small" n-gram set, 1.6 MB of the package's 8.8 MB; loading it costs
 * 0.7 s to 1.4 s on a loaded 2-core machine and 46 MB of heap (150 MB of resident memory at once).
 * It is loaded the first time a folder is opened with BM25 and `--language auto`, never by the
 * rule ranking nor by a fixed `--language`. Its accuracy per language, on titles, short queries
 * and whole documents, is in docs/performance.md ("Language detection").
 */
import type { LanguageDetector } from "@sbissoli/mcp-search";

let loading: Promise<LanguageDetector> | undefined;

/**
 * eld as BM25's detector, named "eld small" in the index snapshot and in the `--cache`
 * fingerprint; loaded once per process.
 *
 * @example
 * const detector = await loadLanguageDetector();
 * detector.detect("настройка принтера"); // => "ru"
 */
export function loadLanguageDetector(): Promise<LanguageDetector> {
  loading ??= import("eld/small").then(({ eld }) => ({
    name: "eld small",
    detect: (text: string) => eld.detect(text).language || undefined,
  }));
  return loading;
}
