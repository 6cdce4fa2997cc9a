/**
 * Snippets centred on the match. The window is placed where it covers the most distinct query
 * terms, then the most occurrences; a document whose match is in the middle shows the middle,
 * not its first lines. The matches come from the index's own analysis of the query
 * (`QueryMatcher.findMatches` of the library: a stemmed "runs" for "running"), see
 * {@link makeSnippetAt}; or, where the index's words do not occur in the text (a document found
 * through the vocabulary's translations, which it holds as keywords), from the vocabulary's rule:
 * a pattern at the start of a word, in every script ("сеть" in "Сеть и", not in "подсеть"); in
 * Han, kana, Thai and Lao, written without spaces, anywhere ("東京" in "東京の地下鉄"), see
 * {@link makeSnippet}.
 */
import type { TextMatch } from "@sbissoli/mcp-search";

/**
 * A text normalised character by character, with the position in the original text of every
 * normalised character, so a match found in the normalised text maps back to the original. It is
 * built by {@link prepareSnippetSource}; keep it to make many snippets of one text.
 *
 * @example
 * const source: SnippetSource = prepareSnippetSource("O CAFÉ", normalizeChar);
 * source.normalised; // => "o cafe"
 */
export interface SnippetSource {
  readonly text: string;
  readonly normalised: string;
  /** Where each normalised character came from; `undefined` when positions are one to one. */
  readonly origin: Int32Array | undefined;
}

type MappedText = Omit<SnippetSource, "text">;

const NON_ASCII = /[^\u0000-\u007f]/g;
const SPACES_AND_DASHES = /[\s\u2010-\u2014-]/g;

/**
 * The fast path: when lower-casing keeps the length and every non-ASCII character normalises to
 * exactly one character (or is dropped as a lone mark, replaced by a space), the normalised text
 * keeps every position of the original, with native string operations only.
 */
function mapTextInPlace(text: string, normalizeOne: (char: string) => string): MappedText | undefined {
  const lower = text.toLowerCase();
  if (lower.length !== text.length) return undefined;
  let exact = true;
  const normalised = lower.replace(SPACES_AND_DASHES, " ").replace(NON_ASCII, (char) => {
    const piece = normalizeOne(char);
    if (piece.length === 1) return piece;
    if (piece === "" && /\p{M}/u.test(char)) return " ";
    exact = false;
    return char;
  });
  return exact ? { normalised, origin: undefined } : undefined;
}

/** ASCII whitespace: space, \t, \n, \v, \f, \r. */
function isAsciiSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}

const utf16 = new TextDecoder("utf-16le");
/** Normalised non-ASCII characters, per normaliser: a text repeats the same few accents. */
const charCaches = new WeakMap<(char: string) => string, Map<string, string>>();

/**
 * Normalises a text like the vocabulary (no accents, lower case, dashes and whitespace runs as
 * one space) while remembering where each character came from: the work of a snippet that
 * depends on the text alone, to do once per text. ASCII, the bulk of most texts, is handled
 * inline on typed arrays; `normalizeChar` handles other code points one at a time.
 *
 * @example
 * const source = prepareSnippetSource(document.text, (char) => vocabulary.normalize(char));
 * makeSnippet(source, [["cafe"]], { maxChars: 240, normalizeChar });
 */
export function prepareSnippetSource(text: string, normalizeChar: (char: string) => string): SnippetSource {
  return { text, ...mapText(text, normalizeChar) };
}

function mapText(text: string, normalizeChar: (char: string) => string): MappedText {
  let cache = charCaches.get(normalizeChar);
  if (cache === undefined) {
    cache = new Map();
    charCaches.set(normalizeChar, cache);
  }
  const known = cache;
  const normalizeOne = (char: string) => {
    let piece = known.get(char);
    if (piece === undefined) {
      piece = normalizeChar(char);
      if (known.size < 65_536) known.set(char, piece);
    }
    return piece;
  };
  const inPlace = mapTextInPlace(text, normalizeOne);
  if (inPlace !== undefined) return inPlace;
  let codes = new Uint16Array(text.length + 16);
  let origin = new Int32Array(text.length + 16);
  let size = 0;
  let lastSpace = true;
  const push = (code: number, from: number) => {
    if (code === 32) {
      if (lastSpace) return;
      lastSpace = true;
    } else {
      lastSpace = false;
    }
    if (size === codes.length) {
      const grownCodes = new Uint16Array(codes.length * 2);
      grownCodes.set(codes);
      codes = grownCodes;
      const grownOrigin = new Int32Array(origin.length * 2);
      grownOrigin.set(origin);
      origin = grownOrigin;
    }
    codes[size] = code;
    origin[size] = from;
    size += 1;
  };
  for (let index = 0; index < text.length; ) {
    const code = text.charCodeAt(index);
    if (code < 128) {
      push(isAsciiSpace(code) || code === 45 ? 32 : code >= 65 && code <= 90 ? code + 32 : code, index);
      index += 1;
      continue;
    }
    const point = text.codePointAt(index) ?? code;
    const char = String.fromCodePoint(point);
    if ((point >= 0x2010 && point <= 0x2014) || /\s/u.test(char)) {
      push(32, index);
    } else {
      const piece = normalizeOne(char);
      for (let unit = 0; unit < piece.length; unit += 1) push(piece.charCodeAt(unit), index);
    }
    index += char.length;
  }
  return { normalised: utf16.decode(codes.subarray(0, size)), origin: origin.subarray(0, size) };
}

/** True for a UTF-16 code in [a-z0-9]. */
function isWordCode(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
}

/** A letter, digit or mark, and the scripts written without spaces between words. */
const LETTER = /[\p{L}\p{N}\p{M}]/u;
const SPACELESS = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}]/u;

/**
 * True when the character before `at` continues a word, so a match there is not at a word start:
 * [a-z0-9], and any letter, digit or mark of a script written with spaces (Cyrillic, Greek,
 * Hangul, Arabic…). In Han, kana, Thai and Lao, which have no spaces, a match may start anywhere.
 */
function continuesWord(normalised: string, at: number): boolean {
  const code = normalised.charCodeAt(at - 1);
  if (code < 128) return isWordCode(code);
  const char = String.fromCodePoint(normalised.codePointAt(code >= 0xdc00 && code <= 0xdfff && at >= 2 ? at - 2 : at - 1)!);
  return LETTER.test(char) && !SPACELESS.test(char);
}

/** Where a term occurs, in the text the window is placed on. */
type Occurrence = TextMatch;

/** The most occurrences looked at in one document; enough for any window. */
const MAX_OCCURRENCES = 20_000;

function findOccurrences(normalised: string, terms: readonly (readonly string[])[]): Occurrence[] {
  const found: Occurrence[] = [];
  terms.forEach((patterns, term) => {
    for (const pattern of patterns) {
      if (pattern === "") continue;
      for (let at = normalised.indexOf(pattern); at !== -1 && found.length < MAX_OCCURRENCES; at = normalised.indexOf(pattern, at + 1)) {
        if (at === 0 || !continuesWord(normalised, at)) found.push({ start: at, end: at + pattern.length, term });
      }
    }
  });
  return found.sort((a, b) => a.start - b.start || a.term - b.term);
}

/** The occurrences [first, last] that one window of `width` characters covers best. */
function bestWindow(found: readonly Occurrence[], termCount: number, width: number): [number, number] {
  const counts = new Array<number>(termCount).fill(0);
  let distinct = 0;
  let best: [number, number] = [0, 0];
  let bestScore = -1;
  let left = 0;
  for (let right = 0; right < found.length; right += 1) {
    const entering = found[right] as Occurrence;
    if ((counts[entering.term] = (counts[entering.term] ?? 0) + 1) === 1) distinct += 1;
    while (entering.end - (found[left] as Occurrence).start > width && left < right) {
      const leaving = (found[left] as Occurrence).term;
      if ((counts[leaving] = (counts[leaving] ?? 0) - 1) === 0) distinct -= 1;
      left += 1;
    }
    const score = distinct * (MAX_OCCURRENCES + 1) + (right - left + 1);
    if (score > bestScore) {
      bestScore = score;
      best = [left, right];
    }
  }
  return best;
}

/**
 * Options of {@link makeSnippet}.
 *
 * @example
 * const options: SnippetOptions = { maxChars: 240, normalizeChar: (c) => vocab.normalize(c) };
 */
interface SnippetOptions extends SnippetAtOptions {
  /** Normalises one non-ASCII character; pass the vocabulary's `normalize`. Unused for a prepared source. */
  readonly normalizeChar: (char: string) => string;
}

/**
 * Options of {@link makeSnippetAt}.
 *
 * @example
 * const options: SnippetAtOptions = { maxChars: 240 };
 */
interface SnippetAtOptions {
  /** The longest snippet, ellipses included. @default 240 */
  readonly maxChars?: number;
}

/**
 * A snippet of `text` centred on the query's matches. `terms` holds, for each query term, its
 * normalised patterns (the term, its translations, its singular). The window covers as many
 * distinct terms, then as many occurrences, as fit; it is widened to whole words and marked with
 * "…" where it cuts the text. With no match, the snippet is the start of the text. `text` may be
 * a {@link SnippetSource} prepared earlier, which skips normalising it again.
 *
 * @example
 * makeSnippet(longText, [["sour"], ["coffee", "cafe"]], { maxChars: 80, normalizeChar: vocab.normalize });
 * // => "…Under-extraction tastes sour and thin; over-extraction tastes bitter…"
 */
export function makeSnippet(source: string | SnippetSource, terms: readonly (readonly string[])[], options: SnippetOptions): string {
  const mapped = typeof source === "string" ? prepareSnippetSource(source, options.normalizeChar) : source;
  const at = (position: number) => (mapped.origin === undefined ? position : (mapped.origin[position] ?? 0));
  // The occurrences in the normalised text, mapped back to the text's positions.
  const found = findOccurrences(mapped.normalised, terms).map(({ start, end, term }) => ({ start: at(start), end: at(end - 1) + 1, term }));
  return makeSnippetAt(mapped.text, found, terms.length, options);
}

/**
 * A snippet of `text` centred on `matches` (in text order, as `QueryMatcher.findMatches` gives
 * them, over `termCount` query terms): the window covers as many distinct terms, then as many
 * matches, as fit; it is widened to whole words and marked with "…" where it cuts the text.
 * With no match, the snippet is the start of the text.
 *
 * @example
 * const { matcher } = index.searchWithMatcher("running");
 * makeSnippetAt(text, matcher.findMatches(text, id), matcher.terms.length, { maxChars: 80 });
 * // => "…She runs every morning…"
 */
export function makeSnippetAt(text: string, matches: readonly TextMatch[], termCount: number, options: SnippetAtOptions = {}): string {
  const maxChars = Math.max(20, Math.floor(options.maxChars ?? 240));
  const width = maxChars - 2;
  const found = matches;
  let from = 0;
  let to = Math.min(text.length, width);
  if (found.length > 0) {
    const [first, last] = bestWindow(found, termCount, width);
    const matchStart = (found[first] as Occurrence).start;
    const matchEnd = (found[last] as Occurrence).end;
    const middle = Math.floor((matchStart + matchEnd) / 2);
    from = Math.max(0, Math.min(middle - Math.floor(width / 2), text.length - width, matchStart));
    to = Math.min(text.length, from + width);
    [from, to] = snapToWords(text, from, to, matchStart, matchEnd, Math.floor(width / 6));
  }
  const body = text.slice(from, to).replace(/\s+/g, " ").trim();
  return `${from > 0 ? "…" : ""}${body}${to < text.length ? "…" : ""}`;
}

/** Moves the cut points inward to whitespace, by at most `slack`, never into the match. */
function snapToWords(text: string, from: number, to: number, matchStart: number, matchEnd: number, slack: number): [number, number] {
  let start = from;
  if (start > 0 && !/\s/.test(text[start - 1] ?? " ")) {
    let moved = false;
    for (let at = start; at < Math.min(matchStart, start + slack); at += 1) {
      if (/\s/.test(text[at] ?? "")) {
        start = at + 1;
        moved = true;
        break;
      }
    }
    for (let at = start - 1; !moved && at >= Math.max(0, from - slack); at -= 1) {
      if (at === 0 || /\s/.test(text[at - 1] ?? "")) {
        start = at;
        moved = true;
      }
    }
  }
  let end = to;
  if (end < text.length && !/\s/.test(text[end] ?? " ")) {
    let moved = false;
    for (let at = end - 1; at > Math.max(matchEnd, end - slack); at -= 1) {
      if (/\s/.test(text[at] ?? "")) {
        end = at;
        moved = true;
        break;
      }
    }
    for (let at = end; !moved && at <= Math.min(text.length, to + slack); at += 1) {
      if (at === text.length || /\s/.test(text[at] ?? "")) {
        end = at;
        moved = true;
      }
    }
  }
  return [start, end];
}
