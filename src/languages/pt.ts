/**
 * Portuguese: its stopwords, its two plural rules and its detection markers. Each part of the
 * library takes its own from here (see ./types.ts).
 */
import { wordSet, words, type LanguageRules } from "./types.js";

/**
 * The original's Portuguese function words (version 0.9.0): articles, prepositions and their
 * contractions, "que" and "ou". The rule ranking drops them, with the English ones of ./en.ts
 * (`ORIGINAL_RULE_STOPWORDS` in src/ranking/rule/definition.ts), and must keep dropping exactly these: its
 * scores are a published contract. The vocabulary keeps the same words out of a query's AND, and
 * BM25 drops them and more.
 */
export const ORIGINAL_STOPWORDS: readonly string[] = words("a o as os um uma uns umas de da do das dos e em no na nos nas ao aos por para com sem que ou");

/** BM25's stopwords beyond the original's: pronouns, the commonest auxiliaries and adverbs. */
const MORE_BM25_STOPWORDS = words(
  "se nao pelo pela pelos pelas seu sua seus suas como ser ter foi sao era tem ja mas mais esta este estas estes " +
    "isso isto esse essa ele ela eles elas num numa lhe me te nem so entre sobre ate quando muito tambem voce",
);

const VOWELS = "aeiou";
const isVowel = (char: string | undefined) => char !== undefined && VOWELS.includes(char);
const hasDigit = /\d/;

/**
 * BM25's folding of a Portuguese plural: -ões/-ães/-ãos → -ão, -ns → -m, -res/-zes → -r/-z,
 * -eses → -ês, -aises → -aís, else a final -s after a vowel dropped. The -l words meet their
 * plural halfway, at a prefix of the plural: "canal" and "canais" at "canai", "papel" and
 * "papéis" at "papei", "variável" and "variáveis" at "variavei" (a rewrite to -l would turn the
 * verb forms "abafais", "abafáveis" into words that do not exist).
 * Words under 4 letters, with a digit, or ending in -us, -is (but -ais/-eis), -ss are unchanged.
 *
 * @example
 * foldPluralPt("mensagens"); // => "mensagem"
 * foldPluralPt("papeis");    // => "papei" (as "papel")
 * foldPluralPt("classes");   // => "classe"
 */
export function foldPluralPt(word: string): string {
  const n = word.length;
  if (n < 4 || hasDigit.test(word)) return word;
  const last = word[n - 1];
  // Singular -al, -el, -ol, -ul meet their plural at -ai, -ei, -oi, -ui: a prefix of the plural.
  if (last === "l") return isVowel(word[n - 2]) && word[n - 2] !== "i" ? `${word.slice(0, -1)}i` : word;
  if (last !== "s") return word;
  if (word.endsWith("oes") || word.endsWith("aes") || word.endsWith("aos")) return `${word.slice(0, -3)}ao`;
  if (word.endsWith("ns")) return `${word.slice(0, -2)}m`;
  if (word.endsWith("aises") || word.endsWith("eses")) return word.slice(0, -2);
  if (n >= 5 && (word.endsWith("zes") || (word.endsWith("res") && isVowel(word[n - 4])))) return word.slice(0, -2);
  const before = word[n - 2];
  // -ais, -eis, -ois, -uis lose their -s (see -l above); other -is and -us are singular.
  if (before === "i") return n >= 5 && isVowel(word[n - 3]) && word[n - 3] !== "i" ? word.slice(0, -1) : word;
  return isVowel(before) && before !== "u" ? word.slice(0, -1) : word;
}

/**
 * The vocabulary's singular of a normalised Portuguese word, a pattern matched at a word start:
 * -ões/-ães → -ão, -ais/-eis/-ois → -al/-el/-ol (five letters or more: "hospitais" to
 * "hospital"; "reis" and "pais" only lose their -s), else a final -s dropped (but -ss). Unlike
 * {@link foldPluralPt}, which meets a plural halfway because it folds the text too, this one must
 * reach the singular as written, since the text is not folded.
 *
 * @example
 * singularPt("hospitais"); // => "hospital"
 * singularPt("botoes");    // => "botao"
 */
function singularPt(word: string): string {
  const n = word.length;
  if (n > 4 && (word.endsWith("oes") || word.endsWith("aes"))) return `${word.slice(0, -3)}ao`;
  if (n > 4 && (word.endsWith("ais") || word.endsWith("eis") || word.endsWith("ois"))) return `${word.slice(0, -2)}l`;
  if (n > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

/** Portuguese. */
export const pt: LanguageRules = {
  script: "latin",
  stopwords: wordSet(ORIGINAL_STOPWORDS, MORE_BM25_STOPWORDS),
  vocabularyStopwords: ORIGINAL_STOPWORDS,
  foldPlural: foldPluralPt,
  singular: singularPt,
  reachesLongerWords: false,
  markers: wordSet(words("os do da dos das ao aos em um uma nao sao pelo pela voce tambem isso com mais")),
};
