/**
 * Org (.org) read as text: its `#+TITLE:` and its outline headings (`* Heading`, `** Sub`),
 * outside `#+BEGIN_…`/`#+END_…` blocks. The text itself is kept as written, like Markdown's.
 */

const HEADING = /^(\*+)[ \t]+(?:(?:TODO|DONE)[ \t]+)?(?:\[#[A-Z]\][ \t]+)?(.*?)(?:[ \t]+:[\w@#%:]+:)?[ \t]*$/;
const TITLE = /^#\+title:[ \t]*(.*\S)/i;

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
    const titled = TITLE.exec(line);
    if (titled !== null) {
      title ??= (titled[1] as string).trim();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading !== null && (heading[2] as string) !== "") headings.push(heading[2] as string);
  }
  if (title !== undefined) return { title, headings };
  return { title: headings[0], headings: headings.slice(1) };
}
