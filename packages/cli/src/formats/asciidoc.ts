/**
 * AsciiDoc (.adoc, .asciidoc) read as text: its document title (`= Title`) and its section
 * titles (`== Section` … `====== Section`), outside listing and literal blocks. The text itself is
 * kept as written, like Markdown's.
 */

/** A section title's start: one to six `=` and a blank; its text is the rest, trimmed of closing `=`. */
const SECTION = /^(={1,6})[ \t]/;
/** Delimited blocks whose lines are content, not structure: listing, literal, passthrough, comment. */
const BLOCK = /^(-{4,}|\.{4,}|\+{4,}|\/{4,}|`{3,})[ \t]*$/;

/**
 * A heading's text without blanks around it and without the closing marks a symmetric title
 * writes (`== Title ==`).
 *
 * @example
 * trimClosing(" Title == ", "="); // => "Title"
 */
function trimClosing(text: string, mark: string): string {
  let end = text.length;
  while (end > 0 && (text[end - 1] === " " || text[end - 1] === "\t" || text[end - 1] === mark)) end -= 1;
  return text.slice(0, end).trim();
}

/**
 * The title and section headings of an AsciiDoc text: the `=` title, else the first section;
 * the `==`…`======` sections in order.
 *
 * @example
 * readAsciiDoc("= Brewing\n\n== Grinding\n\n----\n== not a title\n----");
 * // => { title: "Brewing", headings: ["Grinding"] }
 */
export function readAsciiDoc(text: string): { title: string | undefined; headings: string[] } {
  let title: string | undefined;
  const headings: string[] = [];
  let fence: string | undefined;
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\r$/, "");
    const block = BLOCK.exec(line);
    if (block !== null) {
      const marker = block[1] as string;
      if (fence === undefined) fence = marker;
      else if (marker === fence) fence = undefined;
      continue;
    }
    if (fence !== undefined || line.startsWith("//")) continue;
    const section = SECTION.exec(line);
    if (section === null) continue;
    const name = trimClosing(line.slice(section[0].length), "=");
    if (name === "") continue;
    if ((section[1] as string).length === 1) title ??= name;
    else headings.push(name);
  }
  return { title: title ?? headings[0], headings };
}
