/**
 * Org (.org) read as text: its `#+TITLE:` and its outline headings (`* Heading`, `** Sub`),
 * outside `#+BEGIN_…`/`#+END_…` blocks. The text itself is kept as written, like Markdown's.
 */

/** A heading's start: stars and a blank. */
const STARS = /^\*+[ \t]/;
/** A heading's trailing tags, `:tag:other:`, as its last word. */
const TAGS = /^:[\w@#%:]+:$/;

/** A heading's words without its TODO keyword, priority cookie and tags. */
function headingText(rest: string): string {
  const words = rest.trim().split(/[ \t]+/);
  if (words[0] === "TODO" || words[0] === "DONE") words.shift();
  if (/^\[#[A-Z]\]$/.test(words[0] ?? "")) words.shift();
  if (words.length > 0 && TAGS.test(words[words.length - 1] ?? "")) words.pop();
  return words.join(" ");
}

/**
 * The title and section headings of an Org text: `#+TITLE:`, else the first heading; every
 * heading in order (keywords, priorities and tags left out) except the one taken as title.
 *
 * @example
 * readOrg("#+TITLE: Garden log\n* TODO Tomatoes :summer:\n#+BEGIN_SRC\n* not a heading\n#+END_SRC");
 * // => { title: "Garden log", headings: ["Tomatoes"] }
 */
export function readOrg(text: string): { title: string | undefined; headings: string[] } {
  let title: string | undefined;
  const headings: string[] = [];
  let inBlock = false;
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\r$/, "");
    const lower = line.trimStart().toLowerCase();
    if (lower.startsWith("#+begin_")) inBlock = true;
    else if (lower.startsWith("#+end_")) inBlock = false;
    if (inBlock) continue;
    if (lower.startsWith("#+title:")) {
      const value = line.trimStart().slice("#+title:".length).trim();
      if (value !== "") title ??= value;
      continue;
    }
    const stars = STARS.exec(line);
    if (stars === null) continue;
    const heading = headingText(line.slice(stars[0].length));
    if (heading !== "") headings.push(heading);
  }
  if (title !== undefined) return { title, headings };
  return { title: headings[0], headings: headings.slice(1) };
}
