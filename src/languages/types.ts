/**
 * What one language module holds (src/languages/<code>.ts): every word list and plural rule of
 * the language, for each part of the library that reads text in it.
 */

/**
 * The word lists and plural rules of one language. Each part of the library takes its own from
 * here: BM25's analysis (`stopwords`, `foldPlural`, `markers`), the vocabulary
 * (`vocabularyStopwords`, `singular`). The rule ranking keeps the original's list, which the
 * modules of Portuguese and English export as `ORIGINAL_STOPWORDS`.
 */
/** The alphabets the languages are written in. */
export type Script = "latin" | "cyrillic" | "greek";

export interface LanguageRules {
  /** The script the language is written in: a word in another one is stemmed as that script's language. */
  readonly script: Script;
  /**
   * BM25's stopwords, folded (lower case, no accents): the function words dropped from entries
   * and queries. Short on purpose: articles, prepositions and their contractions, conjunctions,
   * pronouns and the commonest auxiliaries (a longer list drops words that carry meaning in
   * technical prose, which the relevance bench measured worse: docs/performance.md).
   */
  readonly stopwords: ReadonlySet<string>;
  /** The function words a vocabulary keeps out of the AND of a query ("de", "the"). */
  readonly vocabularyStopwords: readonly string[];
  /**
   * BM25's plural folding of one folded word: applied alike to entries and queries, so a plural
   * and its singular meet, possibly halfway ("canais" and "canal" at "canai").
   */
  readonly foldPlural: (word: string) => string;
  /**
   * The vocabulary's singular of one normalised word: a pattern matched at the start of a word of
   * the text, so it may only cut a word or change an ending where the result still starts a real
   * word ("hospitais" to "hospital", "índices" to "indi").
   */
  readonly singular: (word: string) => string;
  /**
   * BM25: a query word of 4 characters or more reaches the longer words that start with it (at
   * the prefix discount) even where the collection holds the word as it is. German writes
   * compounds as one word, so "Festplatte" also finds "Festplattenspeicher". On for German
   * only: French won on its development corpus too, but does not compound (see ./fr.ts).
   * Measured per language (docs/performance.md, "Languages").
   */
  readonly reachesLongerWords: boolean;
  /**
   * Folded words of two letters or more that, among the languages, only this one writes as a word
   * on its own: its commonest articles, contractions and conjunctions. Language detection counts
   * them.
   */
  readonly markers: ReadonlySet<string>;
}

/** The words of a space-separated list, as a set. */
export const wordSet = (...lists: readonly (readonly string[])[]): ReadonlySet<string> => new Set(lists.flat());

/** The words of a space-separated string. */
export const words = (list: string): readonly string[] => list.split(" ");

/** A word kept as it is: the plural folding and the singular of a language that has none of its own. */
export const keepWord = (word: string): string => word;
