/**
 * Greek: its stopwords and its detection markers. Its stemming is Snowball's, which a caller passes
 * through createIndex's `stemmers` (the folder server does); without one, words are kept as
 * folded. Each part of the library takes its own from here (see ./types.ts).
 */
import { keepWord, wordSet, words, type LanguageRules } from "./types.js";

/** The Greek function words (folded): articles, prepositions, conjunctions, pronouns, the commonest auxiliaries. */
const FUNCTION_WORDS = words("και το τα του τησ των την τον ο η οι σε στο στη στην στον στα στισ στουσ απο για με να θα ειναι που η δεν αν ωσ ενα μια ενασ οταν αυτο αυτη");

/** Greek. */
export const el: LanguageRules = {
  script: "greek",
  // Off: on the development corpus the function words dropped lost MRR@10 (docs/performance.md, "Languages").
  stopwords: wordSet(),
  vocabularyStopwords: FUNCTION_WORDS,
  foldPlural: keepWord,
  singular: keepWord,
  reachesLongerWords: false,
  markers: wordSet(words("και το τα του τησ των την τον στο στη στην στα απο για με να θα ειναι που δεν")),
};
