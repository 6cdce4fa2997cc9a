/**
 * The tokenising stage of the BM25 analysis: words of every script. A word is a run of letters
 * (`\p{L}`), digits (`\p{N}`) and the marks that follow them (`\p{M}`: Devanagari's vowel signs,
 * Arabic's harakat, Thai's tone marks). Runs of the scripts written without spaces between words
 * (Han, Hiragana, Katakana, Thai, Lao) are cut again, as `segmentation` says:
 *
 * - `"words"` (BM25's default): the dictionary segmentation of ICU, which Node ships whole,
 *   through `Intl.Segmenter` ("東京の地下鉄" gives "東京", "の", "地下鉄").
 * - `"bigrams"`: every two neighbouring characters, as Lucene's CJKAnalyzer does ("地下鉄" gives
 *   "地下", "下鉄"); a lone character is a word of its own.
 * - `"both"`: the words, then the bigrams, indexed together.
 *
 * bench/cjk-segmentation.ts measures the three, and kuromoji, on every Japanese and Chinese corpus
 * (docs/performance.md, "Languages"): words scored best on five of six, "both" 0.002 MRR@10 above
 * them on the sixth (the Chinese Debian Reference). The segmentation depends on Node's ICU data, so an index snapshot is only
 * read back by the same analysis (its settings say which).
 */

/** What separates words: anything but letters, digits and marks; in ASCII text, anything but [a-z0-9]. */
const NOT_WORD = /[^\p{L}\p{M}\p{N}]+/u;
/** ASCII separators: anything ASCII but [a-z0-9]; every other character stays in the piece. */
const NOT_ASCII_WORD_NOR_OTHER = /[^a-z0-9\u0080-\uffff]+/;
const NON_ASCII = /[^\u0000-\u007f]/;
const ASCII = /^[\u0000-\u007f]*$/;
/** Marks at the start of a piece: a word starts with a letter or a digit. */
const LEADING_MARKS = /^\p{M}+/u;
/** The scripts written without spaces between words (Han, kana, Thai, Lao), inside a character class. */
const SPACELESS_SCRIPTS = String.raw`\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\u30fc`;
/** A run of those scripts, with their marks. */
const SPACELESS = new RegExp(`[${SPACELESS_SCRIPTS}][${SPACELESS_SCRIPTS}\\p{M}]*`, "gu");
/** A quick test: any character at or above U+0E00 (Thai and after) may belong to those scripts. */
const MAYBE_SPACELESS = /[\u0e00-\u0eff\u2e80-\u9fff\uf900-\ufaff\uff66-\uff9f\u{20000}-\u{3ffff}]/u;

/** A character of the scripts written without spaces between words (Han, kana, Thai, Lao). */
export const SPACELESS_CHAR = new RegExp(`[${SPACELESS_SCRIPTS}]`, "u");

/**
 * True when `word`, a word {@link forEachWord} gave, is of a script written without spaces
 * (Han, kana, Thai, Lao): cut by the segmentation, such words are short. Such a word is all of
 * that script, and no other word holds any of it (see `visitSpaceless`), so one character tells.
 *
 * @example
 * isSpacelessWord("地下鉄"); // => true
 * isSpacelessWord("metro"); // => false
 */
export function isSpacelessWord(word: string): boolean {
  // Every such script is at U+0E00 or above: Latin, Greek and Cyrillic words stop at the first test.
  return word.charCodeAt(0) >= 0xe00 && SPACELESS_CHAR.test(word);
}

/** How runs of Han, kana, Thai and Lao are cut into words: `"both"` gives the words, then the bigrams. */
export type Segmentation = "bigrams" | "words" | "both";

let segmenter: Intl.Segmenter | undefined;

/** The words of a run of a spaceless script. */
function segmentRun(run: string, segmentation: Segmentation, visit: (word: string) => void): void {
  if (segmentation !== "bigrams") {
    segmenter ??= new Intl.Segmenter("ja", { granularity: "word" });
    for (const part of segmenter.segment(run)) if (part.isWordLike === true) visit(part.segment);
    if (segmentation === "words") return;
  }
  const chars = [...run];
  if (chars.length === 1) {
    // With "both", the lone character is already the word segmentation gave.
    if (segmentation === "bigrams") visit(run);
    return;
  }
  for (let i = 1; i < chars.length; i++) visit(chars[i - 1]! + chars[i]!);
}

/**
 * Calls `visit` with each word of `text` (already folded, see ./fold.ts), in order: runs of a
 * space-delimited script of 2 characters or more whole, runs of Han, kana, Thai and Lao cut by
 * `segmentation`. Single letters of space-delimited scripts ("a", "x") are not words.
 *
 * @example
 * const words: string[] = [];
 * forEachWord("東京の地下鉄 metro", "bigrams", (word) => words.push(word));
 * words; // => ["東京", "京の", "の地", "地下", "下鉄", "metro"]
 */
export function forEachWord(text: string, segmentation: Segmentation, visit: (word: string) => void): void {
  const spaceless = !ASCII.test(text) && MAYBE_SPACELESS.test(text);
  // A split on ASCII separators first, then, in the few pieces with other characters, a split on
  // what is not a letter, digit or mark: the Unicode split alone took 4 times as long on the
  // relevance corpora (V8), most of whose pieces are ASCII.
  for (const coarse of text.split(NOT_ASCII_WORD_NOR_OTHER)) {
    if (!NON_ASCII.test(coarse)) {
      if (coarse.length >= 2) visit(coarse);
      continue;
    }
    for (const piece of coarse.split(NOT_WORD)) {
      // A word starts with a letter or a digit: a piece that starts with marks loses them.
      const word = piece.charCodeAt(0) >= 0x300 ? piece.replace(LEADING_MARKS, "") : piece;
      if (spaceless) visitSpaceless(word, segmentation, visit);
      else if (word.length >= 2) visit(word);
    }
  }
}

/** The words of one piece that may hold runs of a spaceless script, each run cut by `segmentation`. */
function visitSpaceless(word: string, segmentation: Segmentation, visit: (word: string) => void): void {
  if (word === "") return;
  // Beside a run of a spaceless script, a letter or digit of another is a word of its own ("東京2").
  let from = 0;
  for (const match of word.matchAll(SPACELESS)) {
    if (match.index > from) visit(word.slice(from, match.index));
    segmentRun(match[0], segmentation, visit);
    from = match.index + match[0].length;
  }
  if (from === 0) {
    if (word.length >= 2) visit(word);
  } else if (from < word.length) visit(word.slice(from));
}
