/**
 * The folding stage of the BM25 analysis: lower case, accents removed from Latin, Greek and
 * Cyrillic letters (but not from the Cyrillic letters that are letters of their own, й and ї),
 * and nothing else changed. Unlike `normalizeText` (the rule ranking's and the
 * vocabulary's, which removes every mark in U+0300–U+036F after NFD and leaves Hangul decomposed
 * into jamo and kana split from their voicing marks), this keeps kana and Hangul exactly as
 * written: が stays が, 한 stays 한.
 */

/** The combining marks that accent Latin, Greek and Cyrillic letters after NFD. */
const ACCENTS = /[\u0300-\u036f]/g;
/**
 * The two Cyrillic letters NFD splits although they are letters of their own, not accented ones:
 * й (и and a breve) and ї (і and a diaeresis). Folded to и and і, they broke Snowball's Russian
 * and Ukrainian stemmers, whose endings spell й ("новый" reached "новы", "новые" "нов"). ё still
 * folds to е, as Russian writers mostly do themselves.
 */
const OWN_LETTERS = /[йЙїЇ]|[иИ]\u0306|[іІ]\u0308/;
/** {@link ACCENTS}, with the split letters of {@link OWN_LETTERS} matched first, whole. */
const ACCENTS_BESIDE_OWN_LETTERS = /[иИ]\u0306|[іІ]\u0308|[\u0300-\u036f]/g;
/** What {@link ACCENTS_BESIDE_OWN_LETTERS} puts back for each letter of its own. */
const LETTERS_OF_THEIR_OWN: Readonly<Record<string, string>> = { "и\u0306": "й", "И\u0306": "Й", "і\u0308": "ї", "І\u0308": "Ї" };
const unaccent = (match: string): string => LETTERS_OF_THEIR_OWN[match] ?? "";
/**
 * What NFD splits that must be put back: Hangul conjoining jamo (a syllable decomposed) and the
 * kana voicing marks U+3099/U+309A. Their presence alone calls for the NFC pass, which most
 * texts skip.
 */
const RECOMPOSE = /[\u1100-\u11ff\u3099\u309a]/;
// Stryker disable next-line Regex: a shortcut; the full fold gives an ASCII text the same result.
const ASCII = /^[\u0000-\u007f]*$/;
/** Greek final sigma: folded to σ, so "λόγος" and "λογοσ" meet. */
const FINAL_SIGMA = /ς/g;

/**
 * Lower-cases `text` and removes the accents of Latin, Greek and Cyrillic letters (Unicode NFD,
 * marks U+0300–U+036F dropped, except from й and ї; Greek final sigma folded to σ); every
 * other character, kana and Hangul included, comes out as it went in (recomposed by NFC where NFD had split it). Idempotent;
 * no locale-dependent step.
 *
 * @example
 * foldText("População Αθήνα"); // => "populacao αθηνα"
 * foldText("Новый ёж, її");    // => "новый еж, її"
 * foldText("がっこう 한국어");    // => "がっこう 한국어"
 */
export function foldText(text: string): string {
  // ASCII has nothing to decompose, recompose or fold but its case: most texts skip three passes.
  // Stryker disable next-line ConditionalExpression: the same shortcut.
  if (ASCII.test(text)) return text.toLowerCase();
  // The replacement by callback costs 3 to 8 times the plain removal (Portuguese, French and
  // Russian prose, V8): texts without й or ї keep the plain one.
  const decomposed = OWN_LETTERS.test(text) ? text.normalize("NFD").replace(ACCENTS_BESIDE_OWN_LETTERS, unaccent) : text.normalize("NFD").replace(ACCENTS, "");
  const folded = (RECOMPOSE.test(decomposed) ? decomposed.normalize("NFC") : decomposed).toLowerCase();
  // Stryker disable next-line StringLiteral,ConditionalExpression: a shortcut; the replace alone gives the same.
  return folded.includes("ς") ? folded.replace(FINAL_SIGMA, "σ") : folded;
}
