/**
 * The lines of a table of contents: an entry, its leader dots, and the page it names
 * ("2.1 Grinding the beans . . . . . . 12", as a PDF's text gives them), and an entry without
 * dots beside one ("Part I Brewing 2"). A query that names a
 * section matches its entry in the contents as well as the section itself; the entry points at
 * another page, so the search leaves such matches out when it places a result's snippet and
 * chooses the page it cites, unless they are the only ones.
 */
import type { TextMatch } from "@sbissoli/mcp-search";

/** The fewest leader dots that make a contents line (an ellipsis "…" counts three). */
const MIN_LEADER_DOTS = 3;
/** The longest page number a contents line ends with: 5 digits, or 8 roman numerals ("xxxviii"). */
const MAX_DIGITS = 5;
const MAX_ROMAN = 8;

/**
 * `matches` without those on a contents line of `text`; `matches` itself when every one is on
 * such a line (a document that names the query in its contents only still shows it there).
 *
 * @example
 * const text = "1 Grinding . . . . 3\n\nGrinding\n\nGrind just before brewing.";
 * outsideContentsLines([{ start: 2, end: 10, term: 0 }, { start: 22, end: 30, term: 0 }], text); // => [{ start: 22, end: 30, term: 0 }]
 */
export function outsideContentsLines(matches: readonly TextMatch[], text: string): readonly TextMatch[] {
  const kept: TextMatch[] = [];
  let lineEnd = -1;
  let contents = false;
  for (const match of matches) {
    if (match.start > lineEnd) {
      // The matches come in order, so each line is looked at once.
      const from = text.lastIndexOf("\n", match.start - 1) + 1;
      const to = text.indexOf("\n", match.start);
      lineEnd = to < 0 ? text.length : to;
      contents = isContentsLine(text, from, lineEnd);
    }
    if (!contents) kept.push(match);
  }
  return kept.length > 0 ? kept : matches;
}

/**
 * True when `text[from…to)` is an entry of a table of contents: some words, leader dots and a page
 * number (arabic or roman); or some words and a page number, without dots, beside such an entry
 * (a part or a chapter, which LaTeX and others set without leader dots, above its sections). Read
 * from its end, each character at most once: a line of a million dots costs one pass, where a
 * regular expression tried from each position would cost its square.
 *
 * @example
 * isContentsLine("Grinding the beans . . . . 12", 0, 29); // => true
 * isContentsLine("It costs 12", 0, 11);                   // => false
 * isContentsLine("Part I Brewing 2\n1.1 Grinding . . . . 2", 0, 16); // => true
 */
export function isContentsLine(text: string, from: number, to: number): boolean {
  const dots = leaderDots(text, from, to);
  if (dots !== 0) return dots !== undefined && dots >= MIN_LEADER_DOTS;
  const dotted = (start: number, end: number) => (leaderDots(text, start, end) ?? 0) >= MIN_LEADER_DOTS;
  // The line before it, then the line after it.
  if (from > 0 && text.charCodeAt(from - 1) === 0x0a && dotted(text.lastIndexOf("\n", from - 2) + 1, from - 1)) return true;
  if (to >= text.length) return false;
  const next = text.indexOf("\n", to + 1);
  return dotted(to + 1, next < 0 ? text.length : next);
}

/**
 * The leader dots (an ellipsis "…" counts three) between the words of `text[from…to)` and the
 * page number that ends it; undefined when the line does not end with a page number of its own
 * (at most 5 digits or 8 roman numerals, not glued to a word) after some words.
 */
function leaderDots(text: string, from: number, to: number): number | undefined {
  let at = skipBlanks(text, from, to);
  const number = at;
  while (at > from && number - at < MAX_DIGITS && isDigit(text.charCodeAt(at - 1))) at -= 1;
  if (at === number) while (at > from && number - at < MAX_ROMAN && isRoman(text.charCodeAt(at - 1))) at -= 1;
  if (at === number || (at > from && isWordChar(text.charCodeAt(at - 1)))) return undefined;
  let dots = 0;
  for (at = skipBlanks(text, from, at); at > from; at -= 1) {
    const code = text.charCodeAt(at - 1);
    if (code === 0x2e) dots += 1;
    else if (code === 0x2026) dots += 3;
    else if (code !== 0x20 && code !== 0x09) break;
  }
  return skipBlanks(text, from, at) > from ? dots : undefined;
}

/** The position before the blanks (spaces, tabs, a carriage return) that end `text[from…to)`. */
function skipBlanks(text: string, from: number, to: number): number {
  let at = to;
  while (at > from) {
    const code = text.charCodeAt(at - 1);
    if (code !== 0x20 && code !== 0x09 && code !== 0x0d) break;
    at -= 1;
  }
  return at;
}

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;
/** i, v, x, l, c, d, m, either case. */
const isRoman = (code: number) => "ivxlcdmIVXLCDM".includes(String.fromCharCode(code));
/** A letter or digit glued to the page number ("v12", "page12"): not a contents line's number. */
const isWordChar = (code: number) => isDigit(code) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
