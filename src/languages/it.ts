/**
 * Italian: its stopwords and its detection markers. Its stemming is Snowball's, which a caller passes
 * through createIndex's `stemmers` (the folder server does); without one, words are kept as
 * folded. Each part of the library takes its own from here (see ./types.ts).
 */
import { keepWord, wordSet, words, type LanguageRules } from "./types.js";

/** The Italian function words (folded): articles, prepositions, conjunctions, pronouns, the commonest auxiliaries. */
const FUNCTION_WORDS = words("il lo la i gli le un una uno di del dello della dei degli delle da dal dalla dai in nel nello nella nei con su sul sulla per tra fra e ed o che non si sono questo questa come anche al allo alla ai ha");

/** Italian. */
export const it: LanguageRules = {
  script: "latin",
  stopwords: wordSet(FUNCTION_WORDS),
  vocabularyStopwords: FUNCTION_WORDS,
  foldPlural: keepWord,
  singular: keepWord,
  reachesLongerWords: false,
  markers: wordSet(words("il gli della delle dei degli di che non sono nel nella alla questo anche come per")),
};
