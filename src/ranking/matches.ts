/**
 * The words of a text with their places in it, as each ranking reads them: where a query's terms
 * occur in a result's text (`QueryMatcher.findMatches`), for a snippet that shows the words that
 * ranked. The rankings themselves read texts without places (./rule.ts, ./analysis/); these
 * walks give the same words, each with the span of the text it came from.
 */
import { foldText } from "./analysis/fold.js";
import { forEachWord, SPACELESS_CHAR, type Segmentation } from "./analysis/tokenize.js";
import { forEachTokenOfNormalized } from "./rule.js";

/** The most matches `QueryMatcher.findMatches` returns: enough for any snippet. */
export const MAX_MATCHES = 20_000;

/** Called with a word and the span of the text it came from; false stops the walk. */
type Visit = (word: string, start: number, end: number) => boolean;

// Stryker disable next-line Regex: a shortcut; the Unicode walk gives an ASCII text the same words and spans.
const ASCII = /^[\u0000-\u007f]*$/;
/** A run of ASCII letters and digits: in ASCII text, a word of both rankings (once lower-cased). */
const ASCII_RUN = /[A-Za-z0-9]+/g;
/** A run of letters, marks and digits: a word, or a run of words in a script written without spaces. */
const RUN = /[\p{L}\p{M}\p{N}]+/gu;
const COMBINING_MARKS = /[\u0300-\u036f]/g;

/** Calls `visit` with each run of word characters of `text` and where it starts; false stops. */
function forEachRun(text: string, visit: (run: string, start: number) => boolean): void {
  const pattern = ASCII.test(text) ? ASCII_RUN : RUN;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    if (!visit(match[0], match.index)) break;
  }
  pattern.lastIndex = 0;
}

/**
 * Calls `visit` with each token of `text` as the rule reads it (`forEachToken`: normalised,
 * `[a-z0-9]`, 2 characters or more, no stopword) and the span of the word it came from.
 *
 * @example
 * forEachRuleWord("Soja, milho", (token, start, end) => { console.log(token, start, end); return true; });
 * // soja 0 4, then milho 6 11
 */
export function forEachRuleWord(text: string, visit: Visit): void {
  forEachRun(text, (run, start) => {
    let go = true;
    const normalized = run.normalize("NFD").replace(COMBINING_MARKS, "").toLowerCase();
    forEachTokenOfNormalized(normalized, (token) => {
      if (go) go = visit(token, start, start + run.length);
    });
    return go;
  });
}

/**
 * Calls `visit` with each folded word of `text` as BM25 reads it before any language's filters
 * (`splitWords`) and the span it came from: the word, or in Han, kana, Thai and Lao the segment
 * itself (its run when folding changed the run's length).
 *
 * @example
 * forEachFoldedWord("Las Luces", "words", (word, start, end) => true);
 * // visits "las" 0 3, then "luces" 4 9
 */
export function forEachFoldedWord(text: string, segmentation: Segmentation, visit: Visit): void {
  // An ASCII run of [A-Za-z0-9] folds to its lower case and is one word (two characters or more).
  const visitAscii = (run: string, start: number) => run.length < 2 || visit(run.toLowerCase(), start, start + run.length);
  // Stryker disable next-line ConditionalExpression,BlockStatement: the same shortcut.
  if (ASCII.test(text)) {
    forEachRun(text, visitAscii);
    return;
  }
  // Pieces of ASCII letters and digits and of every other character first, as the index's split
  // does (./analysis/tokenize.ts): most pieces of a text that is not all ASCII (one curly quote is
  // enough) still are, and skip the Unicode pass. Over 400 KB of English text with one curly
  // quote: 36 to 43 ms with the Unicode pass over every word, 12 to 19 ms with it over non-ASCII
  // runs only, 8 to 11 ms with these pieces, as fast as the all-ASCII text. A word never spans two
  // pieces: ASCII's letters and digits are [A-Za-z0-9].
  COARSE.lastIndex = 0;
  for (let piece = COARSE.exec(text); piece !== null; piece = COARSE.exec(text)) {
    const go = ASCII.test(piece[0]) ? visitAscii(piece[0], piece.index) : visitFoldedRuns(piece[0], piece.index, segmentation, visit);
    if (!go) break;
  }
  COARSE.lastIndex = 0;
}

/** A piece of ASCII letters and digits and of non-ASCII characters: a word never spans two. */
const COARSE = /[A-Za-z0-9\u0080-\uffff]+/g;

/** {@link forEachFoldedWord} over one piece that starts at `offset` of its text; false when `visit` stopped. */
function visitFoldedRuns(piece: string, offset: number, segmentation: Segmentation, visit: Visit): boolean {
  let go = true;
  forEachRun(piece, (run, at) => {
    const start = offset + at;
    // Stryker disable next-line ConditionalExpression: the same shortcut.
    if (ASCII.test(run)) return (go = run.length < 2 || visit(run.toLowerCase(), start, start + run.length));
    const folded = foldText(run);
    const spaceless = folded.length === run.length && SPACELESS_CHAR.test(run);
    let cursor = 0;
    forEachWord(folded, segmentation, (word) => {
      if (!go) return;
      let from = start;
      let to = start + run.length;
      if (spaceless) {
        const found = folded.indexOf(word, cursor);
        // Stryker disable next-line ConditionalExpression,EqualityOperator: a segment is always in its run.
        if (found >= 0) {
          from = start + found;
          to = from + word.length;
          cursor = found + 1;
        }
      }
      go = visit(word, from, to);
    });
    return go;
  });
  return go;
}
