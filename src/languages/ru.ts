/**
 * Russian: its stopwords and its detection markers. Its stemming is Snowball's, which a caller passes
 * through createIndex's `stemmers` (the folder server does); without one, words are kept as
 * folded. Each part of the library takes its own from here (see ./types.ts).
 */
import { keepWord, wordSet, words, type LanguageRules } from "./types.js";

/** The Russian function words (folded): articles, prepositions, conjunctions, pronouns, the commonest auxiliaries. */
const FUNCTION_WORDS = words("и в во не на что это как для или по из от при если то все так его ее их он она они мы вы к с со у о об же бы ли также был была были быть может");

/** Russian. */
export const ru: LanguageRules = {
  script: "cyrillic",
  // Off: on the development corpus the function words dropped lost MRR@10 (docs/performance.md, "Languages").
  stopwords: wordSet(),
  vocabularyStopwords: FUNCTION_WORDS,
  foldPlural: keepWord,
  singular: keepWord,
  reachesLongerWords: false,
  markers: wordSet(words("что это или как если также из от может быть все его")),
};
