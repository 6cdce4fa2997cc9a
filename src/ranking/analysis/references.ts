/**
 * The cross-reference stage of the BM25 analysis: a numbered cross-reference names another
 * section, so its words are not the subject of the text that cites it.
 *
 * Manuals built with DocBook (the Debian Reference, the GIMP manual, and many PDFs and HTML
 * books) write each link to another section as its number, then its title between quotes: "see
 * Section 1.1.6, “Virtual consoles”". A section that many others cite held their titles' words
 * too, and a search for "Virtual consoles" ranked the citing sections beside, or above, the one
 * that explains them. Only the quoted title goes; the rest of the sentence stays.
 */

/**
 * A quoted title (up to 80 characters, on one line) right after a number and a comma, or a
 * number and a counter word (节, 節, 章: Chinese and Japanese write "第 1.1.6 节 “…”"), then at
 * most three spaces of one line. Quotes of every language the analysis knows: “…” and „…“, «…»,
 * 「…」 and 『…』. A quote after a word ("the « Print » dialog"), after a bare number ("Debian 12
 * “bookworm”") or on the next line is not a reference. Linear: each opening quote looks back at
 * most a few characters and ahead at most 81. The quote comes first and the number is looked
 * back for, so the pattern is only tried at quotes: over 10 MB of manuals and READMEs, 6 ms,
 * against 41 ms with the look-behind first.
 */
const NUMBERED_QUOTED_TITLE = /[«“„「『](?<=\d(?:,|[^\S\n]{0,3}[章节節])[^\S\n]{0,3}.)[^\n«»“”„「」『』]{1,80}[»“”」』]/gu;

/**
 * Where `text` quotes the title of a numbered cross-reference: each span `[start, end)`, quotes
 * included, in order. The words in them are the ones {@link withoutCrossReferences} drops.
 *
 * @example
 * crossReferenceSpans("see Section 2, «Layers»."); // => [[15, 23]]
 */
export function crossReferenceSpans(text: string): [number, number][] {
  return Array.from(text.matchAll(NUMBERED_QUOTED_TITLE), (match) => [match.index, match.index + match[0].length]);
}

/**
 * `text` with the quoted title of each numbered cross-reference replaced by a space.
 *
 * @example
 * withoutCrossReferences("Use Alt-F2 (see Section 1.1.6, “Virtual consoles”) to log in.");
 * // => "Use Alt-F2 (see Section 1.1.6,  ) to log in."
 * withoutCrossReferences("Open the « Print » dialog."); // => "Open the « Print » dialog."
 */
export function withoutCrossReferences(text: string): string {
  return text.replace(NUMBERED_QUOTED_TITLE, " ");
}
