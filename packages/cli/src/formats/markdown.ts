/**
 * Markdown as plain text, for snippets and titles: what a reader sees, without the marks. Every
 * step is a plain scan or a regular expression with bounded backtracking, so the whole text is
 * read in linear time.
 */
import { splitFrontMatter } from "./front-matter.js";
import { decodeEntities } from "./html-text.js";

const HTML_TAG = /<\/?[a-zA-Z][^<>]*>/g;
const IMG_TAG = /<img\b[^<>]*>/gi;
const IMAGE = /!\[([^[\]]*)\](?:\([^()]*\)|\[[^[\]]*\])/g;
const LINK = /\[([^[\]]*)\](?:\([^()]*\)|\[[^[\]]*\])/g;
/** An Obsidian-style embed, `![[picture.png]]`: dropped, as an image is. */
const WIKI_EMBED = /!\[\[[^[\]\n]*\]\]/g;
/** A wiki link, `[[Target]]` or `[[Target|shown text]]`: the text a reader sees. */
const WIKI_LINK = /\[\[([^[\]|\n]*)(?:\|([^[\]\n]*))?\]\]/g;
const ESCAPE = /\\([!-/:-@[-`{-~])/g;
/** An escaped bracket, `\[` or `\]`: text, even inside a link's text ("[\[1\]](#note-1)"). */
const ESCAPED_BRACKET = /\\([[\]])/g;
/** Stand for escaped brackets while links are read (private-use characters). */
const OPEN_BRACKET = "\uE003";
const CLOSE_BRACKET = "\uE004";
/** Marks a backslash-escaped character until emphasis is stripped (a private-use character). */
const ESCAPED = "\uE001";
/** Stands for an escaped table pipe, `\|`, while the row's pipes are dropped. */
const PIPE = "\uE002";
const FENCE = /^ {0,3}(?:`{3,}|~{3,})/;
const REFERENCE_DEFINITION = /^ {0,3}\[[^[\]]+\]:[ \t]/;
/** A table separator row, a thematic break or a setext underline, once the line is known to hold a "-". */
const TABLE_SEPARATOR = /^[\s|:-]+$/;
const SETEXT_UNDERLINE = /^ {0,3}(?:=+|-+)[ \t]*$/;
const LINE_MARKS = /^ {0,3}(?:#{1,6}[ \t]+|>[ \t]?|[-*+][ \t]+|\d{1,9}[.)][ \t]+)/;
/**
 * A line that is one link to a place in the same page, as a list item (a README's contents) or
 * alone (a Word document's, converted from HTML): an entry of a table of contents.
 */
const CONTENTS_ENTRY = /^[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?\[[^[\]\n]*\]\(#[^()\s]*\)[ \t]*$/;


/** True for a letter or a digit, in any script. */
function isWordChar(char: string | undefined): boolean {
  return char !== undefined && /[\p{L}\p{N}]/u.test(char);
}

/**
 * Drops emphasis marks (`*`, `_`, `~` runs) that touch a non-word character on one side, so
 * `**bold**` loses them and `snake_case` keeps its underscore. A plain scan over the runs.
 *
 * @example
 * stripEmphasis("**bold** and snake_case"); // => "bold and snake_case"
 */
function stripEmphasis(text: string): string {
  if (!/[*_~\uE001]/.test(text)) return text;
  const chars = [...text];
  const kept: string[] = [];
  for (let index = 0; index < chars.length; ) {
    const char = chars[index] as string;
    if (char === ESCAPED) {
      kept.push(chars[index + 1] ?? "");
      index += 2;
      continue;
    }
    if (char !== "*" && char !== "_" && char !== "~") {
      kept.push(char);
      index += 1;
      continue;
    }
    let end = index;
    while (end < chars.length && (chars[end] === "*" || chars[end] === "_" || chars[end] === "~")) end += 1;
    if (isWordChar(chars[index - 1]) && isWordChar(chars[end])) kept.push(...chars.slice(index, end));
    index = end;
  }
  return kept.join("");
}

/**
 * One line of Markdown (or of HTML inside Markdown) as text: images, badges and embeds dropped,
 * links (wiki links too) keep the text a reader sees, tags, escapes, code and emphasis marks
 * removed, entities decoded, spaces collapsed.
 * `onImage` sees each image's alt text (a title made only of a logo uses it).
 *
 * @example
 * stripInlineMarkdown("is-glob [![NPM](https://x/b.svg)](https://x) `fast` <b>glob</b>"); // => "is-glob fast glob"
 * stripInlineMarkdown("See [[Weekly plan]] and [[Books 2026|my books]] ![[cover.png]]"); // => "See Weekly plan and my books"
 */
export function stripInlineMarkdown(line: string, onImage?: (alt: string) => void): string {
  if (!/[<[!\\`*_~&]/.test(line)) return line.replace(/[ \t]+/g, " ").trim();
  const image = (alt: string | undefined) => {
    const clean = (alt ?? "").replace(/\s+/g, " ").trim();
    if (clean !== "") onImage?.(clean);
    return " ";
  };
  const text = line
    .replace(ESCAPED_BRACKET, (_, bracket: string) => (bracket === "[" ? OPEN_BRACKET : CLOSE_BRACKET))
    .replace(IMG_TAG, (tag: string) => image(/\salt\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(tag)?.slice(1).find((value) => value !== undefined)))
    .replace(HTML_TAG, " ")
    .replace(IMAGE, (_, alt: string) => image(alt))
    .replace(WIKI_EMBED, " ")
    .replace(WIKI_LINK, (_, target: string, shown: string | undefined) => shown ?? target)
    .replace(LINK, "$1")
    .replaceAll(ESCAPED, "")
    .replace(ESCAPE, `${ESCAPED}$1`)
    .replaceAll("`", "");
  return decodeEntities(stripEmphasis(text)).replaceAll(OPEN_BRACKET, "[").replaceAll(CLOSE_BRACKET, "]").replace(/[ \t]+/g, " ").trim();
}

/**
 * Markdown (or Markdown converted from HTML) as plain text: no YAML front matter
 * (./front-matter.ts), badge, image, link target, HTML tag or comment, heading or quote mark, list
 * bullet, table pipe or separator row, code fence or reference definition. Code inside fences stays, as text. Line breaks are kept. With
 * `contents: false` (what a snippet shows), the entries of a table of contents are left out too:
 * a line (a list item, or a line of its own) that is only a link to a place in the same page
 * names a section that the text holds further on, and a snippet belongs there.
 *
 * @example
 * markdownToText("# Café [![CI](https://x/ci.svg)](https://x)\n\n| a | b |\n| --- | --- |\n| 1 | 2 |");
 * // => "Café\n\na b\n1 2"
 * markdownToText("- [Grinding](#grinding)\n\n## Grinding\n\nJust before brewing.", { contents: false });
 * // => "Grinding\n\nJust before brewing."
 */
export function markdownToText(markdown: string, { contents = true }: { readonly contents?: boolean } = {}): string {
  const lines: string[] = [];
  let fence = false;
  const front = splitFrontMatter(markdown);
  const body = front === undefined ? markdown : markdown.slice(front.bodyStart);
  for (const raw of withoutComments(body).split("\n")) {
    if (FENCE.test(raw)) {
      fence = !fence;
      continue;
    }
    if (fence) {
      lines.push(raw);
      continue;
    }
    if (REFERENCE_DEFINITION.test(raw) || SETEXT_UNDERLINE.test(raw) || (raw.includes("-") && TABLE_SEPARATOR.test(raw))) continue;
    if (!contents && raw.includes("](#") && CONTENTS_ENTRY.test(raw)) continue;
    let line = stripInlineMarkdown(raw.replace(LINE_MARKS, "").replaceAll("\\|", PIPE));
    if (line.includes("|")) line = line.replaceAll("|", " ");
    line = line.replaceAll(PIPE, "|");
    lines.push(line.replace(/[ \t]+/g, " ").trim());
  }
  return lines.join("\n").replace(/\n{3,}/g, "\n\n").trim();
}

/** The text without its HTML comments, in one pass. */
function withoutComments(text: string): string {
  if (!text.includes("<!--")) return text;
  const parts: string[] = [];
  let at = 0;
  for (let open = text.indexOf("<!--"); open !== -1; open = text.indexOf("<!--", at)) {
    parts.push(text.slice(at, open));
    const close = text.indexOf("-->", open + 4);
    at = close === -1 ? text.length : close + 3;
  }
  parts.push(text.slice(at));
  return parts.join("");
}
