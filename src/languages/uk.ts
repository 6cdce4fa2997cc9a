/**
 * Ukrainian: its stopwords and its detection markers. Its stemming is Snowball's, which a caller passes
 * through createIndex's `stemmers` (the folder server does); without one, words are kept as
 * folded. Each part of the library takes its own from here (see ./types.ts).
 */
import { keepWord, wordSet, words, type LanguageRules } from "./types.js";

/** The Ukrainian function words (folded as BM25 folds, й and ї kept): articles, prepositions, conjunctions, pronouns, the commonest auxiliaries. */
const FUNCTION_WORDS = words("і и та в у не на що це як для або по з із зі від при якщо то все так його її їх він вона вони ми ви до о об же б чи також був була були бути може");

/** Ukrainian. */
export const uk: LanguageRules = {
  script: "cyrillic",
  stopwords: wordSet(FUNCTION_WORDS),
  vocabularyStopwords: FUNCTION_WORDS,
  foldPlural: keepWord,
  singular: keepWord,
  reachesLongerWords: false,
  markers: wordSet(words("що це або як якщо також та від може бути його із")),
};
