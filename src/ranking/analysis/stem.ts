/**
 * The stemming stage of the BM25 analysis: plural folding per language, on folded words
 * (./fold.ts: lower case, no accents). Each rule only removes or rewrites a plural ending, so the
 * result is the singular, a real word ("botoes" → "botao", "ciudades" → "ciudad",
 * "libraries" → "library"), never a truncated stem; the property tests check every output against
 * the Debian word lists of the language (wbrazilian, wspanish, wamerican).
 *
 * Hand-written rather than a Snowball stemmer: the relevance bench measured both
 * (docs/performance.md, "Languages").
 */
import type { Language } from "./language.js";

const VOWELS = "aeiou";
const isVowel = (char: string | undefined) => char !== undefined && VOWELS.includes(char);
const hasDigit = /\d/;

/**
 * Folds a Portuguese plural to its singular: -ões/-ães/-ãos → -ão, -ns → -m, -res/-zes → -r/-z,
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
 * Folds a Spanish plural to its singular: -Vces → -z, -ns → -n (borrowed "tokens"), -Vdes/-Vles/-Vnes/-Vres/-yes (V a vowel) and
 * -eses/-aises → drop -es, else a final -s after a vowel dropped. Words under 4 letters, with a
 * digit, or ending in -us, -is, -ss are unchanged.
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
 * Folds an English plural to its singular: -ies → -y, -sses/-xes/-ches/-shes/-zes → drop -es,
 * else a final -s dropped. Words under 4 letters, with a digit, or ending in -ss, -us, -is are
 * unchanged ("status", "class", "analysis", "gas").
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

/** Each language's plural folding. */
export const PLURAL_FOLDING: Readonly<Record<Language, (word: string) => string>> = {
  pt: foldPluralPt,
  es: foldPluralEs,
  en: foldPluralEn,
};
