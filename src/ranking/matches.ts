/**
 * The words of a text with their places in it, as each ranking reads them: where a query's terms
 * occur in a result's text (`QueryMatcher.findMatches`), for a snippet that shows the words that
 * ranked. The rankings themselves read texts without places (./rule.ts, ./analysis/); these
 * walks give the same words, each with the span of the text it came from.
 */
import { foldText } from "./analysis/fold.js";
import { forEachWord, type Segmentation } from "./analysis/tokenize.js";
import { forEachTokenOfNormalized } from "./rule.js";

/** The most matches `QueryMatcher.findMatches` returns: enough for any snippet. */
export const MAX_MATCHES = 20_000;

/** Called with a word and the span of the text it came from; false stops the walk. */
type Visit = (word: string, start: number, end: number) => boolean;

const ASCII = /^[\u0000-\u007f]*$/;
/** A run of ASCII letters and digits: in ASCII text, a word of both rankings (once lower-cased). */
const ASCII_RUN = /[A-Za-z0-9]+/g;
/** A run of letters, marks and digits: a word, or a run of words in a script written without spaces. */
const RUN = /[\p{L}\p{M}\p{N}]+/gu;
const COMBINING_MARKS = /[\u0300-\u036f]/g;
/** A character of the scripts written without spaces between words (./analysis/tokenize.ts). */
const SPACELESS = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\u30fc]/u;

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
  if (ASCII.test(text)) {
    // An ASCII run of [A-Za-z0-9] folds to its lower case and is one word (two characters or more).
    forEachRun(text, (run, start) => run.length < 2 || visit(run.toLowerCase(), start, start + run.length));
    return;
  }
  forEachRun(text, (run, start) => {
    // Most runs of a text that is not all ASCII still are: they fold to their lower case alone.
    if (ASCII.test(run)) return run.length < 2 || visit(run.toLowerCase(), start, start + run.length);
    let go = true;
    const folded = foldText(run);
    const spaceless = folded.length === run.length && SPACELESS.test(run);
    let cursor = 0;
    forEachWord(folded, segmentation, (word) => {
      if (!go) return;
      let from = start;
      let to = start + run.length;
      if (spaceless) {
        const at = folded.indexOf(word, cursor);
        if (at >= 0) {
          from = start + at;
          to = from + word.length;
          cursor = at + 1;
        }
      }
      go = visit(word, from, to);
    });
    return go;
  });
}
