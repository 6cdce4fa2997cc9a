/**
 * The folding stage of the BM25 analysis: lower case, accents removed from Latin, Greek and
 * Cyrillic letters, and nothing else changed. Unlike `normalizeText` (the rule ranking's and the
 * vocabulary's, which removes every mark in U+0300–U+036F after NFD and leaves Hangul decomposed
 * into jamo and kana split from their voicing marks), this keeps kana and Hangul exactly as
 * written: が stays が, 한 stays 한.
 */

/** The combining marks that accent Latin, Greek and Cyrillic letters after NFD. */
const ACCENTS = /[\u0300-\u036f]/g;
/**
 * What NFD splits that must be put back: Hangul conjoining jamo (a syllable decomposed) and the
 * kana voicing marks U+3099/U+309A. Their presence alone calls for the NFC pass, which most
 * texts skip.
 */
const RECOMPOSE = /[\u1100-\u11ff\u3099\u309a]/;
const ASCII = /^[\u0000-\u007f]*$/;
/** Greek final sigma: folded to σ, so "λόγος" and "λογοσ" meet. */
const FINAL_SIGMA = /ς/g;

/**
 * Lower-cases `text` and removes the accents of Latin, Greek and Cyrillic letters (Unicode NFD,
 * marks U+0300–U+036F dropped; Greek final sigma folded to σ); every other character, kana and
 * Hangul included, comes out as it went in (recomposed by NFC where NFD had split it). Idempotent;
 * no locale-dependent step.
 *
 * @example
 * foldText("População Αθήνα"); // => "populacao αθηνα"
 * foldText("がっこう 한국어");    // => "がっこう 한국어"
 */
export function foldText(text: string): string {
  // ASCII has nothing to decompose, recompose or fold but its case: most texts skip three passes.
  if (ASCII.test(text)) return text.toLowerCase();
  const decomposed = text.normalize("NFD").replace(ACCENTS, "");
  const folded = (RECOMPOSE.test(decomposed) ? decomposed.normalize("NFC") : decomposed).toLowerCase();
  return folded.includes("ς") ? folded.replace(FINAL_SIGMA, "σ") : folded;
}
