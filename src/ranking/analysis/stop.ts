/**
 * The stopword stage of the BM25 analysis: function words per language, folded (./fold.ts), never
 * tokens. BM25's idf already discounts them; dropping them keeps their long postings out of every
 * query, and a short one ("ser", "ter") out of the prefix matches of longer words.
 *
 * The lists are short on purpose: articles, prepositions and their contractions, conjunctions,
 * pronouns and the commonest auxiliaries. A longer list (stopwords-iso's 560 Portuguese words)
 * also drops words that carry meaning in technical prose ("sistema", "parte", "caso"), which the
 * relevance bench measured worse (docs/performance.md, "Languages").
 */
import type { Language } from "./language.js";

const words = (list: string): ReadonlySet<string> => new Set(list.split(" "));

/** The function words of each language, folded. */
export const STOPWORDS: Readonly<Record<Language, ReadonlySet<string>>> = {
  pt: words(
    "a o as os um uma uns umas de da do das dos e em no na nos nas ao aos por para com sem que ou se " +
      "nao pelo pela pelos pelas seu sua seus suas como ser ter foi sao era tem ja mas mais esta este estas estes " +
      "isso isto esse essa ele ela eles elas num numa lhe me te nem so entre sobre ate quando muito tambem voce",
  ),
  es: words(
    "el la los las lo un una unos unas de del al a y e o u en con por para sin sobre que se su sus es son " +
      "le les como pero mas muy este esta estos estas ese esa cuando donde hasta desde entre si ya tambien no " +
      "ni fue ser hay era usted",
  ),
  en: words("the of in and for by to is are was be an on at as or it its this that with from into than"),
};
