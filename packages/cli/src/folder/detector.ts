/**
 * The language detector the folder server gives BM25 under `--language auto`, asked for a
 * document whose function words cannot tell its language: eld (Efficient Language Detector,
 * Apache-2.0) with its "extrasmall" n-gram set, 0.95 MB of the package's 8.8 MB, its answers kept
 * to the library's languages. It ranked exactly as eld's "small" set did on the relevance bench
 * and detects as well (docs/performance.md, "Languages"), for 8.4 MB of heap against 46 MB.
 *
 * It is loaded the first time a document needs it, not before: a folder whose documents all say
 * their language by their function words (long English pages do) never loads it. Loading holds
 * the thread once, 0.13 s to 0.17 s; eld is an ES module, loaded synchronously by `require`
 * (Node 20.19 and 22.12 on), because BM25 asks for a language in the middle of indexing. Where
 * it cannot be loaded (an older Node 22), detection falls back to the function words and the
 * locale's language, with one warning on stderr: a document is never lost for it.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { LANGUAGES, type LanguageDetector } from "@sbissoli/mcp-search";

/** What the folder server uses of eld. */
interface Eld {
  detect(text: string): { language: string };
  setLanguageSubset(languages: readonly string[]): unknown;
}

/** eld's n-gram table, as its data files hold it: per n-gram, a score per language index. */
interface NgramsData {
  readonly type: string;
  readonly languages: Readonly<Record<string, string>>;
  readonly ngrams: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

/**
 * eld's own detector over the n-grams that score in one of the library's languages: 12,552 of
 * the "extrasmall" table's 49,553. eld 2.1 exports only whole tables, and an ES module is never
 * unloaded; so `createEld` and the data file are reached by their paths in its package (the CLI
 * pins that version), and the rows for the nine languages are read from the file's text by
 * {@link readNgramRows}. eld's answers among the nine are the same, as every score of theirs is
 * kept (packages/cli/test/extra/detector.test.ts compares them).
 */
function requireEld(): Eld {
  const source = dirname(dirname(fileURLToPath(import.meta.resolve("eld/extrasmall"))));
  const { createEld } = createRequire(import.meta.url)(join(source, "languageDetector.js")) as { createEld(): { instance: Eld; loadData(data: NgramsData): unknown } };
  const { instance, loadData } = createEld();
  loadData(readNgramRows(readFileSync(join(source, "ngrams", "extrasmall.js"), "utf8"), LANGUAGES));
  return instance;
}

/** A row of eld's table in its data file: after `{` or `,`, a key, quoted (`'\' a'`) or bare (`L_QL`), then its scores (`{11:50,42:30}`). */
const NGRAM_ROW = /[,{](?:'((?:[^'\\]|\\.)*)'|([^\s'",{}:]+)):\{([\d:,]*)\}/g;

/**
 * The table of eld's data file `text` (`export const ngramsData = {type:'XS60', languages:{0:'am',
 * …}, ngrams:{…}}`), keeping only the rows and scores of `languages`. Hand-read, not evaluated:
 * evaluating the literal builds all 49,553 rows first, and the process kept 87 MB more resident
 * memory after loading eld, against 25 MB read this way (and 0.6 s against 0.12 s). Read with
 * every language, the rows equal the evaluated table's (packages/cli/test/extra/detector.test.ts).
 */
export function readNgramRows(text: string, languages: readonly string[]): NgramsData {
  const type = /\btype:'([^']*)'/.exec(text)?.[1];
  const codes = /\blanguages:\{([^}]*)\}/.exec(text)?.[1];
  if (type === undefined || codes === undefined) throw new Error("eld's data file has no type or languages");
  const table: Record<string, string> = {};
  for (const pair of codes.split(",")) {
    const [index, code] = pair.split(":");
    table[index!] = code!.slice(1, -1);
  }
  const kept = new Set(Object.keys(table).filter((index) => languages.includes(table[index]!)));
  const ngrams: Record<string, Record<string, number>> = {};
  for (const [, quoted, bare, scores] of text.matchAll(NGRAM_ROW)) {
    let row: Record<string, number> | undefined;
    for (const pair of scores!.split(",")) {
      const colon = pair.indexOf(":");
      const index = pair.slice(0, colon);
      if (kept.has(index)) (row ??= {})[index] = Number(pair.slice(colon + 1));
    }
    if (row !== undefined) ngrams[quoted === undefined ? bare! : quoted.replace(/\\(.)/g, "$1")] = row;
  }
  return { type, languages: table, ngrams };
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
