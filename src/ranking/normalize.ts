/**
 * The one text normalisation shared by ranking and vocabulary, so both sides of every
 * comparison meet. Private: the public name is re-exported by the module that owns ranking.
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
