/**
 * The words of a text with their places in it, as each ranking reads them: where a query's terms
 * occur in a result's text (`QueryMatcher.findMatches`), for a snippet that shows the words that
 * ranked. The rankings themselves read texts without places (./rule/definition.ts, ./analysis/); these
 * walks give the same words, each with the span of the text it came from.
 */
import { foldText } from "./analysis/fold.js";
import { forEachWord, SPACELESS_CHAR, type Segmentation } from "./analysis/tokenize.js";
import { forEachTokenOfNormalized } from "./rule/definition.js";

/** The most matches `QueryMatcher.findMatches` returns: enough for any snippet. */
export const MAX_MATCHES = 20_000;

/** Called with a word (or what a caller made of it) and the span of the text it came from; false stops the walk. */
type Visit<T = string> = (word: T, start: number, end: number) => boolean;

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

/** The most distinct words a {@link WordValues} keeps before it starts again. */
const MAX_KEPT_WORDS = 100_000;
/** The most ASCII words of one hash a {@link WordValues} finds by that hash. */
const MAX_SAME_HASH = 8;

/**
 * What a caller of {@link forEachFoldedWord} makes of each folded word (its query term, say),
 * worked out once per distinct word and kept: a text repeats its words, and the texts of one
 * search share most of theirs. One may serve several texts.
 *
 * @example
 * const lengths = new WordValues((word) => word.length);
 * lengths.of("luces"); // => 5
 */
export class WordValues<T> {
  private readonly byWord = new Map<string, T>();
  /**
   * ASCII words by the hash of their lower case, so a word already seen needs no string: the
   * first word of a hash, then the next of the same hash (-1: none), in flat lists.
   */
  private readonly firstOfHash = new Map<number, number>();
  private asciiWords: string[] = [];
  private asciiValues: T[] = [];
  private nextOfHash: number[] = [];

  constructor(private readonly valueOf: (word: string) => T) {}

  /** The value of a folded word. */
  of(word: string): T {
    let value = this.byWord.get(word);
    if (value === undefined && !this.byWord.has(word)) {
      if (this.byWord.size >= MAX_KEPT_WORDS) this.forget();
      this.byWord.set(word, (value = this.valueOf(word)));
    }
    return value as T;
  }

  /** The value of the ASCII word `text[start, end)`, whose lower case hashes to `hash` ({@link hashLowerAscii}). */
  ofAscii(text: string, start: number, end: number, hash: number): T {
    let sameHash = 0;
    for (let known = this.firstOfHash.get(hash) ?? -1; known !== -1; known = this.nextOfHash[known]!) {
      if (sameLowerAscii(text, start, end, this.asciiWords[known]!)) return this.asciiValues[known]!;
      sameHash += 1;
    }
    // Worked out first: it may start the lists again.
    const word = text.slice(start, end).toLowerCase();
    const value = this.of(word);
    // Words made to share a hash ("c0" and "an" do, and so does every word made of them) would
    // make each new one compare with all before it: past a few, they are kept by their string only.
    if (sameHash >= MAX_SAME_HASH) return value;
    this.nextOfHash.push(this.firstOfHash.get(hash) ?? -1);
    this.firstOfHash.set(hash, this.asciiWords.length);
    this.asciiWords.push(word);
    this.asciiValues.push(value);
    return value;
  }

  private forget(): void {
    this.byWord.clear();
    this.firstOfHash.clear();
    this.asciiWords = [];
    this.asciiValues = [];
    this.nextOfHash = [];
  }
}

/**
 * Calls `visit` with the value `values` gives each folded word of `text` as BM25 reads it before
 * any language's filters (`splitWords`), and the span it came from: the word, or in Han, kana,
 * Thai and Lao the segment itself (its run when folding changed the run's length).
 *
 * @example
 * forEachFoldedWord("Las Luces las", "words", new WordValues((word) => word), (word, start, end) => true);
 * // visits "las" 0 3, then "luces" 4 9, then "las" 10 13
 */
export function forEachFoldedWord<T>(text: string, segmentation: Segmentation, values: WordValues<T>, visit: Visit<T>): void {
  // Pieces of ASCII letters and digits and of every other character, as the index's split does
  // (./analysis/tokenize.ts): most pieces of a text that is not all ASCII (one curly quote is
  // enough) are ASCII words, and skip the Unicode pass; a word never spans two pieces. The scan is
  // written by hand, not with a regex: an ASCII word is hashed as it is read and found among the
  // words already seen without building its string. Over the texts of 200 manual pages as PDF
  // (9 KB each): a regex per piece and a string per word, 0.26 to 0.30 ms a text; this scan,
  // 0.20 ms with a WordValues of its own, 0.12 ms with one that has seen the other texts.
  const length = text.length;
  let at = 0;
  while (at < length) {
    let code = text.charCodeAt(at);
    if (!isPieceCode(code)) {
      at += 1;
      continue;
    }
    const start = at;
    let ascii = true;
    let hash = 0;
    for (; at < length; at += 1) {
      code = text.charCodeAt(at);
      if (code >= 128) ascii = false;
      else if (isAsciiWordCode(code)) hash = hashLowerAscii(hash, code);
      else break;
    }
    const go = ascii
      ? at - start < 2 || visit(values.ofAscii(text, start, at, hash), start, at)
      : visitFoldedRuns(text.slice(start, at), start, segmentation, (word, from, to) => visit(values.of(word), from, to));
    if (!go) return;
  }
}

/** True for a code unit of a piece: an ASCII letter or digit, or any code unit above ASCII. */
function isPieceCode(code: number): boolean {
  return code >= 128 || isAsciiWordCode(code);
}

/** True for [A-Za-z0-9]. */
function isAsciiWordCode(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
}

/** The lower case of an ASCII letter or digit. */
function lowerAscii(code: number): number {
  return code >= 65 && code <= 90 ? code + 32 : code;
}

/** `hash` of the characters before, and the lower case of one more; 30 bits, a small integer to V8. */
function hashLowerAscii(hash: number, code: number): number {
  return (Math.imul(hash, 31) + lowerAscii(code)) & 0x3fffffff;
}

/** True when `text[start, end)`, lower-cased, is `word`. */
function sameLowerAscii(text: string, start: number, end: number, word: string): boolean {
  if (word.length !== end - start) return false;
  for (let i = 0; i < word.length; i += 1) if (lowerAscii(text.charCodeAt(start + i)) !== word.charCodeAt(i)) return false;
  return true;
}

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
