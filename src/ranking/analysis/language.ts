/**
 * The languages the BM25 analysis knows, and how a document's language is chosen when it is not
 * given: by counting the function words that only one of them uses.
 */

/**
 * A language with its own stopwords and plural folding: Portuguese, Spanish or English. Text in
 * any other language is still tokenised and folded (./tokenize.ts, ./fold.ts) and found; only
 * stemming and stopwords are these three's.
 *
 * @example
 * const language: IndexLanguage = "pt";
 * createIndex(entries, { ranking: "bm25", language });
 */
export type IndexLanguage = "pt" | "es" | "en";

/** {@link IndexLanguage}, under the short name the analysis uses. */
export type Language = IndexLanguage;

/** The languages, in the fixed order a query is analysed in. */
export const LANGUAGES: readonly Language[] = ["pt", "es", "en"];

/**
 * Folded words of two letters or more that, among the three, only one language writes as a word
 * on its own: its commonest articles, contractions and conjunctions ("de", "que", "no", "se",
 * "as" and "mas" are shared, and left out).
 */
const MARKERS: Readonly<Record<Language, ReadonlySet<string>>> = {
  pt: new Set("os do da dos das ao aos em um uma nao sao pelo pela voce tambem isso com mais".split(" ")),
  es: new Set("el la los del al en un una las lo es son pero muy esto hay con tambien".split(" ")),
  en: new Set("the of and to is in that it for with are this be on by from or".split(" ")),
};

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
  const hits = [0, 0, 0];
  const end = Math.min(words.length, SAMPLE);
  for (let i = 0; i < end; i++) {
    const word = words[i]!;
    for (let l = 0; l < 3; l++) if (MARKERS[LANGUAGES[l]!].has(word)) hits[l]! += 1;
  }
  let best = 0;
  for (let l = 1; l < 3; l++) if (hits[l]! > hits[best]!) best = l;
  const second = Math.max(...hits.filter((_, l) => l !== best));
  return hits[best]! >= MIN_HITS && hits[best]! >= 1.5 * second && hits[best]! > second ? LANGUAGES[best] : undefined;
}
