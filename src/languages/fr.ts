/**
 * French: its stopwords and its detection markers. Its stemming is Snowball's, which a caller passes
 * through createIndex's `stemmers` (the folder server does); without one, words are kept as
 * folded. Each part of the library takes its own from here (see ./types.ts).
 */
import { keepWord, wordSet, words, type LanguageRules } from "./types.js";

/** The French function words (folded): articles, prepositions, conjunctions, pronouns, the commonest auxiliaries. */
const FUNCTION_WORDS = words("le la les un une des du de et ou en au aux dans par pour sur avec ce cet cette ces est sont il elle ils elles on nous vous que qui ne pas se sa son ses leur leurs y");

/** French. */
export const fr: LanguageRules = {
  script: "latin",
  stopwords: wordSet(FUNCTION_WORDS),
  vocabularyStopwords: FUNCTION_WORDS,
  foldPlural: keepWord,
  singular: keepWord,
  // Off, though it won 0.013 MRR@10 on the development corpus: French does not compound, and
  // English word lists that eld reads as French then reached longer words ("sour" found "source").
  reachesLongerWords: false,
  markers: wordSet(words("les du des et est une dans pour sur avec pas cette sont aux vous nous")),
};
