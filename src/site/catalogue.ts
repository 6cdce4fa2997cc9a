/**
 * A catalogue read from the site itself: parsers that turn the text of `llms.txt` and
 * `sitemap.xml` into index entries, and the merge in which llms.txt wins and the sitemap fills
 * the gaps. The parsers take text, never URLs: fetching and caching stay the server's.
 *
 * Bad input is reported line by line and never costs the good lines.
 */
import {
  Collector,
  elementsOf,
  findBlocks,
  lineFinder,
  oversize,
  parseXml,
  readLink,
  recoverElements,
  settings,
  textOf,
  type Elements,
} from "./catalogue-xml.js";
import type { CatalogueEntry, CatalogueOptions, CatalogueResult, SitemapResult } from "./catalogue-types.js";
import { loadPeer } from "./peers.js";
import { pageKey, withoutWww } from "../ranking/page.js";

/**
 * A readable title from the last segment of a URL's path: decoded, extension dropped, dashes
 * and underscores as spaces, first letter capitalised. The root takes the host name.
 *
 * @example
 * titleFromUrl("https://example.com/research/gamma-flip_explained.html"); // => "Gamma flip explained"
 * titleFromUrl("https://www.example.com/");                               // => "example.com"
 */
export function titleFromUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const segments = parsed.pathname.split("/").filter((s) => s !== "");
  const last = segments[segments.length - 1];
  if (last === undefined) return withoutWww(parsed.hostname);
  let slug = last;
  try {
    slug = decodeURIComponent(last);
  } catch {
    // keep the raw segment
  }
  const words = slug
    .replace(/\.(?:html?|php|aspx?|md|txt)$/i, "")
    // eslint-disable-next-line regexp/no-super-linear-move -- a run is only rescanned from its start: linear (test/regex-safety.test.ts)
    .replace(/(?<!\d)[-_+]+|[-_+]+(?!\d)/g, " ") // "gamma-flip" spaced, "2026-08-24" kept
    .replace(/\s+/g, " ")
    .trim();
  if (words === "") return withoutWww(parsed.hostname);
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// Each `(.*)$` below is dotAll, so it cannot fail and nothing before it backtracks
// (test/regex-safety.test.ts).
// eslint-disable-next-line regexp/no-super-linear-backtracking -- see above
const HEADING = /^(#{1,6})[ \t]+(.*)$/s;
// eslint-disable-next-line regexp/no-super-linear-backtracking -- see above
const LIST_ITEM = /^\s*[-*+]\s+(.*)$/s;

/** A heading's text without the optional closing `#`s, without a backtracking regex. */
function headingText(raw: string): string {
  let text = raw.trimEnd();
  let end = text.length;
  while (end > 0 && text.charAt(end - 1) === "#") end -= 1;
  if (end === 0 || /\s/.test(text.charAt(end - 1))) text = text.slice(0, end);
  return text.trim();
}

/**
 * Reads an llms.txt (llmstxt.org): every list item `- [Title](url): description` becomes an
 * entry with that title and the description as `text`; the `##` (and `###`) headings above it
 * become its keywords, the `## Optional` section included. Prose, the `#` title, the `>` summary
 * and fenced code are skipped. A list item under a section that is not a link, an empty title,
 * a relative or non-http URL, and a repeated page are reported on their line and skipped.
 * Before the first `##`, the format allows free-form details, bullets included: a bullet there
 * that is not a link is prose, skipped without a problem; one that is a link is still an entry,
 * with no keywords.
 *
 * @example
 * const { entries, problems } = parseLlmsTxt(
 *   "# Example\n## Docs\n- [Live](https://example.com/live): the state right now\n- [](https://example.com/x)\n",
 * );
 * entries;  // => [{ id: "page:/live", title: "Live", url: "https://example.com/live", keywords: ["Docs"], text: "the state right now" }]
 * problems; // => [{ line: 4, kind: "empty-title", message: 'linha 4: o link para https://example.com/x não tem título.' }]
 */
export function parseLlmsTxt(text: string, options: CatalogueOptions = {}): CatalogueResult {
  const s = settings(options, "parseLlmsTxt");
  const out = new Collector(s);
  const bytes = oversize(text, s.maxBytes);
  if (bytes !== undefined) {
    out.problem(1, "too-large", s.texts.tooLarge(bytes, s.maxBytes));
    return { entries: [], problems: out.sortedProblems() };
  }
  const sections: string[] = [];
  let fenced = false;
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (/^\s*(?:```|~~~)/.test(raw)) fenced = !fenced;
    if (fenced || /^\s*(?:```|~~~)/.test(raw)) return;
    const heading = HEADING.exec(raw);
    if (heading !== null) {
      const level = (heading[1] ?? "#").length;
      if (level >= 2) {
        sections.length = Math.min(sections.length, level - 2);
        sections.push(headingText(heading[2] ?? ""));
      }
      return;
    }
    const item = LIST_ITEM.exec(raw);
    if (item === null) return;
    const body = (item[1] ?? "").trim();
    const link = readLink(body);
    if (link === null) {
      if (sections.length > 0) out.problem(line, "not-a-link", s.texts.notALink(body));
      return;
    }
    const url = out.url(line, link.url.trim());
    if (url === null) return;
    const title = link.title.trim();
    if (title === "") {
      out.problem(line, "empty-title", s.texts.emptyTitle(url.href));
      return;
    }
    const description = link.rest.trim();
    const keywords = sections.filter((section) => section !== "");
    out.add(line, url, {
      title,
      ...(keywords.length > 0 ? { keywords } : {}),
      ...(description !== "" ? { text: description } : {}),
    });
  });
  return { entries: out.entries, problems: out.sortedProblems() };
}

/**
 * The shape of a W3C datetime as sitemaps.org allows it: a year, a month, a day, or a day with a
 * time (minutes, optional seconds and fraction) and a zone. The ranges are checked apart.
 */
const LASTMOD =
  /^(?<year>\d{4})(?:-(?<month>\d{2})(?:-(?<day>\d{2})(?:T(?<hour>\d{2}):(?<minute>\d{2})(?::(?<second>\d{2})(?:\.\d+)?)?(?:Z|[+-](?<offsetHour>\d{2}):(?<offsetMinute>\d{2})))?)?)?$/;

/** Days in a month of the Gregorian calendar, leap years included (2028-02 has 29, 2100-02 has 28). */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Whether a `<lastmod>` is a W3C datetime that names a real moment: the shape, then the ranges,
 * month 01–12, a day that the month has, hour 00–23, minute and second 00–59, and a zone offset
 * from 00:00 to 14:00 (the widest in use). "2026-13-45" and "2026-08-03T25:61:00Z" are not.
 *
 * @example
 * isW3cDatetime("2028-02-29T23:59:59-03:00"); // => true
 * isW3cDatetime("2026-02-29");                // => false (2026 is not a leap year)
 */
function isW3cDatetime(value: string): boolean {
  const parts = LASTMOD.exec(value)?.groups;
  if (parts === undefined) return false;
  const number = (name: string): number | undefined => (parts[name] === undefined ? undefined : Number(parts[name]));
  const within = (name: string, low: number, high: number): boolean => {
    const n = number(name);
    return n === undefined || (n >= low && n <= high);
  };
  const year = number("year") ?? 0;
  const month = number("month") ?? 1;
  const offset = (number("offsetHour") ?? 0) * 60 + (number("offsetMinute") ?? 0);
  return (
    within("month", 1, 12) &&
    within("day", 1, daysInMonth(year, month)) &&
    within("hour", 0, 23) &&
    within("minute", 0, 59) &&
    within("second", 0, 59) &&
    within("offsetMinute", 0, 59) &&
    offset <= 14 * 60
  );
}

/**
 * Reads a sitemap.xml (sitemaps.org): every `<url><loc>` becomes an entry titled from its slug
 * (see {@link titleFromUrl}), with `lastmod` when valid. A `<sitemapindex>` is reported and its
 * child sitemaps come back in `sitemaps`. Malformed XML is reported at its line and the
 * readable `<url>` elements are still used: when the parser refuses the whole file (junk after
 * `</urlset>`) or a block is never closed (a truncated file), each `<url>` and `<sitemap>` block
 * is read on its own, and a block that cannot be read, or is never closed, is reported on the
 * line where it opens; a missing, relative or non-http `<loc>`, a repeated page and a
 * `<lastmod>` that is not a real W3C datetime (the shape, then the ranges: month, day in that
 * month with leap years, hour, minute, second, zone offset) are each reported on their line.
 *
 * @example
 * const { entries } = parseSitemap(
 *   '<urlset><url><loc>https://example.com/research/gamma-flip</loc><lastmod>2026-08-24</lastmod></url></urlset>',
 * );
 * entries; // => [{ id: "page:/research/gamma-flip", title: "Gamma flip", url: "https://example.com/research/gamma-flip", lastmod: "2026-08-24" }]
 */
export function parseSitemap(text: string, options: CatalogueOptions = {}): SitemapResult {
  const s = settings(options, "parseSitemap");
  const out = new Collector(s);
  const bytes = oversize(text, s.maxBytes);
  if (bytes !== undefined) {
    out.problem(1, "too-large", s.texts.tooLarge(bytes, s.maxBytes));
    return { entries: [], problems: out.sortedProblems(), sitemaps: [] };
  }
  const xml = text.replace(/^\uFEFF/, "");
  const lineAt = lineFinder(xml);
  const verdict = loadPeer("fast-xml-parser").XMLValidator.validate(xml);
  // A block that is never closed (a truncated sitemap) would come out of the lenient full parse
  // as a half-read entry, or as "missing URL" on the wrong line: read block by block instead.
  const blocks = verdict === true ? undefined : findBlocks(xml);
  let elements: Elements | undefined;
  let parseError: unknown;
  if (blocks === undefined || blocks.unclosed.length === 0) {
    try {
      elements = elementsOf(parseXml(xml));
    } catch (error) {
      parseError = error;
    }
  }
  elements ??= recoverElements(xml, blocks);
  const unclosedLines = new Set(elements.unclosed.map((block) => lineAt(block.start)));
  if (verdict !== true) {
    // fast-xml-parser names tags left open at the end of the text at line 1, column 1: the
    // unclosed blocks below say it on their own lines.
    const unlocated = verdict.err.line === 1 && verdict.err.col === 1 && unclosedLines.size > 0;
    if (!unlocated && !unclosedLines.has(verdict.err.line)) {
      out.problem(verdict.err.line, "malformed-xml", s.texts.malformedXml(verdict.err.msg));
    }
  } else if (parseError !== undefined) {
    out.problem(1, "malformed-xml", s.texts.malformedXml(String(parseError)));
  }
  const reported = new Set(out.problems.map((p) => p.line));
  for (const { name, start } of elements.unclosed) {
    const line = lineAt(start);
    if (!reported.has(line)) out.problem(line, "malformed-xml", s.texts.unclosedElement(name));
    reported.add(line);
  }
  for (const start of elements.unreadable) {
    const line = lineAt(start);
    if (!reported.has(line)) out.problem(line, "malformed-xml", s.texts.unreadableElement);
    reported.add(line);
  }

  const sitemaps: string[] = [];
  const children = elements.sitemap;
  for (const child of children) {
    const line = lineAt(child.start);
    const url = out.url(line, textOf(child.node, "loc"));
    if (url !== null && !sitemaps.includes(url.href)) sitemaps.push(url.href);
  }
  if (children.length > 0) {
    const line = lineAt(xml.search(/<([\w-]+:)?sitemapindex[\s>]/));
    out.problem(line, "sitemap-index", s.texts.sitemapIndex(sitemaps.length));
  }

  const urls = elements.url;
  for (const { node, start } of urls) {
    const line = lineAt(start);
    const url = out.url(line, textOf(node, "loc"));
    if (url === null) continue;
    const lastmod = textOf(node, "lastmod");
    const validLastmod = lastmod !== "" && isW3cDatetime(lastmod);
    if (lastmod !== "" && !validLastmod) {
      out.problem(line, "invalid-lastmod", s.texts.invalidLastmod(lastmod));
    }
    out.add(line, url, {
      title: titleFromUrl(url.href),
      ...(validLastmod ? { lastmod } : {}),
    });
  }
  if (urls.length === 0 && children.length === 0 && verdict === true) {
    out.problem(1, "not-a-sitemap", s.texts.notASitemap);
  }
  return { entries: out.entries, problems: out.sortedProblems(), sitemaps };
}

/**
 * Merges the two sources: every llms.txt entry, in its order, then every sitemap page that
 * llms.txt does not name, in the sitemap's order. Pages are compared ignoring scheme, `www.`,
 * trailing slash and fragment. llms.txt wins on title, text and keywords; the sitemap only
 * adds its `lastmod`. The result has unique ids and unique pages (the first one wins), so it
 * can go straight into `createIndex`.
 *
 * @example
 * const merged = mergeCatalogues(parseLlmsTxt(llms).entries, parseSitemap(xml).entries);
 * merged.map((e) => e.title); // => ["Live", "Gamma flip"] (curated titles first, slugs fill the gaps)
 */
export function mergeCatalogues(
  llms: readonly CatalogueEntry[],
  sitemap: readonly CatalogueEntry[],
): CatalogueEntry[] {
  const lastmods = new Map<string, string>();
  for (const entry of sitemap) {
    const key = keyOf(entry.url);
    if (entry.lastmod !== undefined && !lastmods.has(key)) lastmods.set(key, entry.lastmod);
  }
  const keys = new Set<string>();
  const ids = new Set<string>();
  const merged: CatalogueEntry[] = [];
  for (const entry of [...llms, ...sitemap]) {
    const key = keyOf(entry.url);
    if (keys.has(key) || ids.has(entry.id)) continue;
    keys.add(key);
    ids.add(entry.id);
    const lastmod = entry.lastmod ?? lastmods.get(key);
    merged.push(lastmod === undefined || entry.lastmod !== undefined ? entry : { ...entry, lastmod });
  }
  return merged;
}

function keyOf(url: string): string {
  try {
    return pageKey(new URL(url));
  } catch {
    return url;
  }
}
