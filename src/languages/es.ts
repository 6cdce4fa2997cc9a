/**
 * Spanish: its stopwords, its two plural rules and its detection markers. Each part of the
 * library takes its own from here (see ./types.ts).
 */
import { wordSet, words, type LanguageRules } from "./types.js";

/**
 * The Spanish function words every part drops: articles, prepositions and their contractions,
 * conjunctions, "que" and "sobre". The vocabulary keeps them out of a query's AND; BM25 drops
 * them and more.
 */
const FUNCTION_WORDS = words("el la los las lo un una unos unas de del al a en y e o u por para con sin que sobre");

/** BM25's stopwords beyond the function words: pronouns, the commonest auxiliaries and adverbs. */
const MORE_BM25_STOPWORDS = words(
  "se su sus es son le les como pero mas muy este esta estos estas ese esa cuando donde hasta desde entre si ya " +
    "tambien no ni fue ser hay era usted",
);

const VOWELS = "aeiou";
const isVowel = (char: string | undefined) => char !== undefined && VOWELS.includes(char);
const hasDigit = /\d/;

/**
 * BM25's folding of a Spanish plural: -Vces → -z, -ns → -n (borrowed "tokens"),
 * -Vdes/-Vles/-Vnes/-Vres/-yes (V a vowel) and -eses/-aises → drop -es, else a final -s after a
 * vowel dropped. Words under 4 letters, with a digit, or ending in -us, -is, -ss are unchanged.
 *
 * @example
 * foldPluralEs("ciudades"); // => "ciudad"
 * foldPluralEs("luces");    // => "luz"
 * foldPluralEs("clases");   // => "clase"
 */
export function foldPluralEs(word: string): string {
  const n = word.length;
  if (n < 4 || word[n - 1] !== "s" || hasDigit.test(word)) return word;
  // -ces → -z only in short words ("luces", "veces", "cruces", "raices"): the long ones are mostly
  // compounds whose singular keeps -ces ("cascanueces").
  if (n >= 5 && n <= 7 && word.endsWith("ces") && isVowel(word[n - 4]) && word !== "fauces") return `${word.slice(0, -3)}z`;
  if (word.endsWith("ns")) return word.slice(0, -1);
  if (n >= 5 && word.endsWith("es")) {
    const consonant = word[n - 3]!;
    if ("dlnr".includes(consonant) && isVowel(word[n - 4]) && !word.endsWith("lles")) return word.slice(0, -2);
    if (consonant === "y" || word.endsWith("eses") || word.endsWith("aises")) return word.slice(0, -2);
  }
  const before = word[n - 2];
  return isVowel(before) && before !== "u" && before !== "i" ? word.slice(0, -1) : word;
}

/**
 * The short nouns and adjectives in -z whose plural ends in -ces ("luz", "luces"). Spelling alone
 * cannot tell "luces" (luz) from "doces" (doce) or "seces" (sece), so the -z rule of
 * {@link singularEs} fires only on these stems; every other "-ces" keeps a part that both
 * readings share.
 */
const SHORT_Z = new Set([
  "luz", "voz", "pez", "vez", "nuez", "cruz", "raiz", "maiz", "paz", "haz", "hez", "tez", "coz", "hoz",
  "faz", "fez", "diez", "juez", "prez", "soez",
]);

const VOWEL_END = /[aeiou]$/;
const CONSONANT_ES = /[^aeiou]es$/;

/**
 * The vocabulary's singular of a normalised (accentless, lower-case) Spanish word, as a pattern
 * that only ever keeps a prefix of a real word:
 * - "-ces": "luces" to "luz" for the short -z words above; after a vowel and a stem of four or
 *   more letters, the stem both readings share ("actrices" and "índices" to "actri", "indi",
 *   which reach "actriz" and "índice"); otherwise "-es" goes ("dulces" to "dulc", "entonces" to "entonc");
 * - "-es" after a consonant: "ciudades" to "ciudad", "leyes" to "ley" (four letters or fewer
 *   stay as written, so "tres" is not cut to "tr");
 * - "-íes", "-úes": "-es" goes ("rubíes" to "rubi", "bloques" to "bloqu", which reaches "bloque");
 * - plain "-s" otherwise: "casas" to "casa", "héroes" to "heroe".
 *
 * @example
 * singularEs("luces");  // => "luz"
 * singularEs("indices"); // => "indi"
 */
export function singularEs(word: string): string {
  const n = word.length;
  if (n > 4 && word.endsWith("ces")) {
    const stem = word.slice(0, -3);
    if (SHORT_Z.has(`${stem}z`)) return `${stem}z`;
    if (stem.length >= 4 && VOWEL_END.test(stem)) return stem;
    return word.slice(0, -2);
  }
  if (CONSONANT_ES.test(word)) return n > 4 ? word.slice(0, -2) : word;
  if (n > 4 && (word.endsWith("ies") || word.endsWith("ues"))) return word.slice(0, -2);
  if (n > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

/** Spanish. */
export const es: LanguageRules = {
  script: "latin",
  stopwords: wordSet(FUNCTION_WORDS, MORE_BM25_STOPWORDS),
  vocabularyStopwords: FUNCTION_WORDS,
  foldPlural: foldPluralEs,
  singular: singularEs,
  reachesLongerWords: false,
  markers: wordSet(words("el la los del al en un una las lo es son pero muy esto hay con tambien")),
};
