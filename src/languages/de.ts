/**
 * German: its stopwords and its detection markers. Its stemming is Snowball's, which a caller passes
 * through createIndex's `stemmers` (the folder server does); without one, words are kept as
 * folded. Each part of the library takes its own from here (see ./types.ts).
 */
import { keepWord, wordSet, words, type LanguageRules } from "./types.js";

/** The German function words (folded): articles, prepositions, conjunctions, pronouns, the commonest auxiliaries. */
const FUNCTION_WORDS = words("der die das den dem des ein eine einen einem einer eines und oder aber in im ins an am auf aus bei mit nach von vom zu zum zur fur uber unter um durch ist sind war wird werden wurde es sie er wir ihr ich sich als wie auch nicht dass so kann");

/** German. */
export const de: LanguageRules = {
  script: "latin",
  // Off: on the development corpus the function words dropped lost MRR@10 (docs/performance.md, "Languages").
  stopwords: wordSet(),
  vocabularyStopwords: FUNCTION_WORDS,
  foldPlural: keepWord,
  singular: keepWord,
  // On: compounds are one word; on the development corpus it won 0.014 MRR@10 (docs/performance.md).
  reachesLongerWords: true,
  markers: wordSet(words("der die und ist nicht mit ein eine dem den sich auf fur wird werden oder auch zu im")),
};
