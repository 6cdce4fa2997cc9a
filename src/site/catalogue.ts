/**
 * A catalogue read from the site itself: the parser that turns the text of `llms.txt` into index
 * entries, and the merge in which llms.txt wins and the sitemap (./sitemap.ts) fills the gaps.
 * The parsers take text, never URLs: fetching and caching stay the server's. Nothing here needs
 * a parser package.
 *
 * Bad input is reported line by line and never costs the good lines.
 */
import { Collector, oversize, readLink, settings } from "./catalogue-lines.js";
import type { CatalogueEntry, CatalogueOptions, CatalogueResult } from "./catalogue-types.js";
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
    // eslint-disable-next-line regexp/no-super-linear-move -- a run is only rescanned from its start: linear (test/extra/regex-safety.test.ts)
    .replace(/(?<!\d)[-_+]+|[-_+]+(?!\d)/g, " ") // "gamma-flip" spaced, "2026-08-24" kept
    .replace(/\s+/g, " ")
    .trim();
  if (words === "") return withoutWww(parsed.hostname);
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// Each `(.*)$` below is dotAll, so it cannot fail and nothing before it backtracks
// (test/extra/regex-safety.test.ts).
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
