/**
 * How a document's language is chosen when it is not given: by counting the function words that
 * only one language uses (each language module's `markers`, src/languages/).
 */
import { LANGUAGES, languageRules, type Language } from "../../languages/index.js";

/** Each language's markers, in {@link LANGUAGES} order. */
const MARKERS = LANGUAGES.map((language) => languageRules(language).markers);

/** How many words detection reads: the first ones hold enough evidence, and a long text costs no more. */
const SAMPLE = 400;
/** The fewest marker words a confident answer needs. */
const MIN_HITS = 2;

/**
 * The language of a text from its first words (folded, see ./tokenize.ts), or `undefined` when
 * unsure: fewer than 2 marker words, or the best language not ahead of the second by half as
 * much again. Deterministic; ties are unsure.
 *
 * @example
 * detectLanguage(["o", "arquivo", "nao", "foi", "encontrado", "em", "uma", "pasta"]); // => "pt"
 * detectLanguage(["zip", "file"]); // => undefined
 */
export function detectLanguage(words: readonly string[]): Language | undefined {
  const hits = MARKERS.map(() => 0);
  const end = Math.min(words.length, SAMPLE);
  for (let i = 0; i < end; i++) {
    const word = words[i]!;
    for (let l = 0; l < MARKERS.length; l++) if (MARKERS[l]!.has(word)) hits[l]! += 1;
  }
  let best = 0;
  for (let l = 1; l < hits.length; l++) if (hits[l]! > hits[best]!) best = l;
  const second = Math.max(...hits.filter((_, l) => l !== best));
  return hits[best]! >= MIN_HITS && hits[best]! >= 1.5 * second && hits[best]! > second ? LANGUAGES[best] : undefined;
}
