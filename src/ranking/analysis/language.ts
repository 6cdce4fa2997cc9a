/**
 * How a document's language is chosen when it is not given: by counting the function words that
 * only one language uses (each language module's `markers`, src/languages/), then, when they
 * cannot tell, by a detector the caller passes (the folder server passes eld's).
 */
import { isLanguage, LANGUAGES, languageRules, type Language } from "../../languages/index.js";

/**
 * A language detector: a function from a text (the document's folded words: lower case, no
 * accents, separated by spaces) to a language code (ISO 639-1: `"ru"`), and a name for it. An
 * index snapshot records the name, and is loaded back only with a detector of the same name. A
 * code that is not one of `LANGUAGES`, or `undefined`, leaves the document to the fallback language.
 *
 * @example
 * import { eld } from "eld/small";
 * const detector: LanguageDetector = { name: "eld small", detect: (text) => eld.detect(text).language };
 * createIndex(entries, { ranking: "bm25", detector });
 */
export interface LanguageDetector {
  /** What the snapshot records of it ("eld small"): another name, or none, is other settings. */
  readonly name: string;
  /** The language code of `text`, or `undefined` (or any code the library does not read) when unsure. */
  readonly detect: (text: string) => string | undefined;
}

/**
 * Each marker's language, by its place in {@link LANGUAGES}: one lookup a word (a language's
 * markers are its own, test/languages/languages.test.ts holds them apart). BM25 asks this of every
 * paragraph of every text it indexes.
 */
const MARKER_LANGUAGE = new Map(LANGUAGES.flatMap((language, l) => [...languageRules(language).markers].map((word) => [word, l] as const)));

/** How many words detection reads: the first ones hold enough evidence, and a long text costs no more. */
export const DETECTION_SAMPLE = 400;
/** The fewest marker words a confident answer needs. */
const MIN_HITS = 2;

/**
 * The language of a text from its first words (folded, see ./tokenize.ts) by its markers, else
 * the `detector`'s answer when it names one of `LANGUAGES`, or `undefined` when unsure: fewer than 2 marker words, or the best language not ahead of the second by half as
 * much again. Deterministic; ties are unsure.
 *
 * @example
 * detectLanguage(["o", "arquivo", "nao", "foi", "encontrado", "em", "uma", "pasta"]); // => "pt"
 * detectLanguage(["zip", "file"]); // => undefined
 */
export function detectLanguage(words: readonly string[], detector?: LanguageDetector): Language | undefined {
  const hits = LANGUAGES.map(() => 0);
  const end = Math.min(words.length, DETECTION_SAMPLE);
  for (let i = 0; i < end; i++) {
    const l = MARKER_LANGUAGE.get(words[i]!);
    if (l !== undefined) hits[l]! += 1;
  }
  let best = 0;
  for (let l = 1; l < hits.length; l++) if (hits[l]! > hits[best]!) best = l;
  const second = Math.max(...hits.filter((_, l) => l !== best));
  if (hits[best]! >= MIN_HITS && hits[best]! >= 1.5 * second && hits[best]! > second) return LANGUAGES[best];
  if (detector === undefined) return undefined;
  const code = detector.detect(words.slice(0, end).join(" "));
  return isLanguage(code) ? code : undefined;
}
