/**
 * EPUB: the container names the package file, whose spine orders the chapters; each chapter's
 * XHTML goes through the folder's HTML converter and keeps its own heading, and the chapters
 * follow one another in the text. Everything is read within the unzipped-size cap (./zip.ts).
 */
import { posix } from "node:path";
import { htmlDocument, sectionHeadings } from "./titles.js";
import { capText, FormatError, type FormatLimits, type FormatOutput } from "./types.js";
import { elementText, tagsNamed, withoutDoctype } from "./xml.js";
import { entryText, unzipWithin } from "./zip.js";

/**
 * Reads an EPUB file: its package's `dc:title`, and its chapters in reading order.
 *
 * @example
 * const { title, text } = await readEpub(bytes, limits); // title => "The Lighthouse Keeper"
 */
export async function readEpub(bytes: Uint8Array, limits: FormatLimits): Promise<FormatOutput> {
  const files = unzipWithin(bytes, limits.maxUnzippedBytes, (name) => /\.(?:xml|opf|x?html?)$/i.test(name));
  const container = entryText(files, "META-INF/container.xml");
  const opfPath = tagsNamed(container, "rootfile", ["full-path"])[0]?.["full-path"];
  if (opfPath === undefined) throw new FormatError("corrupt", "no package file named in META-INF/container.xml");
  const opf = entryText(files, opfPath);
  const base = posix.dirname(opfPath);
  const manifest = new Map(tagsNamed(opf, "item", ["id", "href", "media-type"]).map((item) => [item["id"] ?? "", item]));
  const chapters: string[] = [];
  const read = new Set<string>();
  let chars = 0;
  let firstTitle: string | undefined;
  for (const { idref } of tagsNamed(opf, "itemref", ["idref"])) {
    // Past the text cap, another chapter would only be cut away.
    if (chars > limits.maxTextChars) break;
    const item = manifest.get(idref ?? "");
    const href = item?.["href"];
    if (href === undefined || !/html/i.test(item?.["media-type"] ?? href)) continue;
    const name = posix.normalize(posix.join(base, decodeHref(href.split("#")[0] ?? "")));
    // A chapter the spine lists again is read once: its text is already there.
    if (read.has(name) || !files.has(name)) continue;
    read.add(name);
    const chapter = htmlDocument(withoutDoctype(entryText(files, name)));
    if (chapter.text.trim() === "") continue;
    firstTitle ??= chapter.title;
    chapters.push(chapter.text);
    chars += chapter.text.length + 2;
  }
  const { text, truncated } = capText(chapters.join("\n\n"), limits.maxTextChars);
  // Each chapter opens with its own level-1 heading: read as a section too, it names the chapter.
  const headings = sectionHeadings(text.replace(/^# /gm, "## "));
  return { title: elementText(opf, "dc:title") ?? firstTitle, text, headings, truncated };
}

/**
 * A manifest href with its escapes decoded: each run of `%XX` escapes that is not valid UTF-8,
 * and a `%` that starts no escape, is taken as written, so one bad escape costs that one name,
 * not the book.
 */
function decodeHref(href: string): string {
  return href.replace(/(?:%[\dA-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}
