/**
 * The one text normalisation shared by the rule ranking and the vocabulary, so both sides of
 * every comparison meet. Private: the public name is re-exported by the module that owns ranking.
 *
 * Other scripts: Greek and Cyrillic lose their accents as Latin does; kana are left split from
 * their voicing marks (が → か + U+3099) and Hangul syllables decomposed into jamo, on both sides
 * alike, so they still meet. The rule ranking then keeps only [a-z0-9] tokens (the original's
 * rule, kept exactly), so it finds no word of a script other than Latin. BM25 has its own folding,
 * which spares kana and Hangul (./analysis/fold.ts).
 */

const COMBINING_MARKS = /[\u0300-\u036f]/g;
/**
 * Every whitespace run that is not already one plain space: same output as `/\s+/g` → " ", but
 * single spaces (most of real text) are left alone, which halves the cost on large documents.
 */
const WHITESPACE_RUNS = /\s{2,}|[^\S ]/g;

/**
 * Unicode NFD, combining marks U+0300–U+036F removed, lower case, whitespace runs collapsed to
 * one space, trimmed. Idempotent; no locale-dependent step.
 *
 * @example
 * normalizeText("  População   Residente ") // => "populacao residente"
 */
export function normalizeText(text: string): string {
  return text
    .normalize("NFD")
    .replace(COMBINING_MARKS, "")
    .toLowerCase()
    .replace(WHITESPACE_RUNS, " ")
    .trim();
}
