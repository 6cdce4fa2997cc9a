/**
 * English: its stopwords, its two plural rules and its detection markers. Each part of the
 * library takes its own from here (see ./types.ts).
 */
import { wordSet, words, type LanguageRules } from "./types.js";

/**
 * The original's English function words (version 0.9.0). The rule ranking drops them, with the
 * Portuguese ones of ./pt.ts (`ORIGINAL_RULE_STOPWORDS` in src/ranking/rule/definition.ts), and must keep
 * dropping exactly these: its scores are a published contract.
 */
export const ORIGINAL_STOPWORDS: readonly string[] = words("the of in and for by");

/** The function words beyond the original's that both the vocabulary and BM25 drop. */
const FUNCTION_WORDS = [...ORIGINAL_STOPWORDS, ...words("an on to with")];

const hasDigit = /\d/;

/**
 * BM25's folding of an English plural: -ies → -y, -sses/-xes/-ches/-shes/-zes → drop -es, else a
 * final -s dropped. Words under 4 letters, with a digit, or ending in -ss, -us, -is are unchanged
 * ("status", "class", "analysis", "gas").
 *
 * @example
 * foldPluralEn("libraries"); // => "library"
 * foldPluralEn("processes"); // => "process"
 */
export function foldPluralEn(word: string): string {
  const n = word.length;
  if (n < 4 || word[n - 1] !== "s" || hasDigit.test(word)) return word;
  if (n > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.endsWith("sses") || word.endsWith("xes") || word.endsWith("ches") || word.endsWith("shes") || word.endsWith("zes")) {
    return word.slice(0, -2);
  }
  const before = word[n - 2];
  return before === "s" || before === "u" || before === "i" ? word : word.slice(0, -1);
}

/**
 * The vocabulary's singular of a normalised English word, a pattern matched at a word start:
 * -ies → -y (five letters or more), else a final -s dropped (but -ss). Unlike
 * {@link foldPluralEn}, it keeps -es ("processes" to "processe", which still starts "processes").
 *
 * @example
 * singularEn("libraries"); // => "library"
 * singularEn("tables");    // => "table"
 */
function singularEn(word: string): string {
  const n = word.length;
  if (n > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (n > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

/** English. */
export const en: LanguageRules = {
  script: "latin",
  stopwords: wordSet(FUNCTION_WORDS, words("is are was be at as or it its this that from into than")),
  vocabularyStopwords: [...FUNCTION_WORDS, "a", "per"],
  foldPlural: foldPluralEn,
  singular: singularEn,
  reachesLongerWords: false,
  markers: wordSet(words("the of and to is in that it for with are this be on by from or")),
};
