/**
 * `@sbissoli/mcp-search/site/sitemap`: the parser that turns the text of a `sitemap.xml` into
 * index entries. The one part of the catalogue that needs a parser package (fast-xml-parser, an
 * optional peer dependency), so it has a subpath of its own: `./site` never loads it.
 *
 * Bad input is reported line by line and never costs the good lines.
 */
import { Collector, oversize, settings } from "./catalogue-lines.js";
import { elementsOf, findBlocks, lineFinder, parseXml, recoverElements, textOf, type Elements } from "./catalogue-xml.js";
import { titleFromUrl } from "./catalogue.js";
import type { CatalogueOptions, SitemapResult } from "./catalogue-types.js";
import { XMLValidator } from "fast-xml-parser";

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
  const verdict = XMLValidator.validate(xml);
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

  // A Set, not a list search per child: an index of 40,000 sitemaps took seconds.
  const sitemaps = new Set<string>();
  const children = elements.sitemap;
  for (const child of children) {
    const line = lineAt(child.start);
    const url = out.url(line, textOf(child.node, "loc"));
    if (url !== null) sitemaps.add(url.href);
  }
  if (children.length > 0) {
    const line = lineAt(xml.search(/<([\w-]+:)?sitemapindex[\s>]/));
    out.problem(line, "sitemap-index", s.texts.sitemapIndex(sitemaps.size));
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
  return { entries: out.entries, problems: out.sortedProblems(), sitemaps: [...sitemaps] };
}


export type {
  CatalogueEntry,
  CatalogueOptions,
  CatalogueProblem,
  CatalogueProblemKind,
  CatalogueResult,
  SitemapResult,
} from "./catalogue-types.js";
