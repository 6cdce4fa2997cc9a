/**
 * The shapes of a catalogue read from the site: its entries, its problems and the parsers'
 * options. Apart from the parsers so that their XML helpers (./catalogue-xml.ts) and the
 * parsers (./catalogue.ts) both read them without importing each other.
 */
import type { Locale } from "../locales/index.js";
import type { IndexEntry } from "../ranking/create-index.js";

/**
 * An index entry read from a catalogue; `lastmod` is the sitemap's `<lastmod>`, when it gave one.
 *
 * @example
 * const entry: CatalogueEntry = {
 *   id: "page:/live",
 *   title: "Live",
 *   url: "https://example.com/live",
 *   lastmod: "2026-08-24",
 * };
 */
export interface CatalogueEntry extends IndexEntry {
  /** The sitemap's `<lastmod>`, a valid W3C datetime as written; absent when it gave none. */
  readonly lastmod?: string;
}

/**
 * What went wrong on one line; `message` already names the line, in the chosen language.
 *
 * @example
 * const kind: CatalogueProblemKind = "relative-url";
 */
export type CatalogueProblemKind =
  | "malformed-xml"
  | "not-a-sitemap"
  | "sitemap-index"
  | "missing-url"
  | "relative-url"
  | "invalid-url"
  | "duplicate-url"
  | "duplicate-id"
  | "empty-title"
  | "not-a-link"
  | "invalid-lastmod"
  | "more-problems"
  | "too-large";

/**
 * One problem found while reading a catalogue. The line is 1-based.
 *
 * @example
 * const problem: CatalogueProblem = {
 *   line: 7,
 *   kind: "relative-url",
 *   message: 'linha 7: a URL "/docs" é relativa; use uma URL absoluta (https://…) ou passe baseUrl.',
 * };
 */
export interface CatalogueProblem {
  /** The 1-based line of the text the problem is on. */
  readonly line: number;
  /** What went wrong, as a stable code to branch on. */
  readonly kind: CatalogueProblemKind;
  /** The problem in a sentence, in the chosen locale, starting with its line. */
  readonly message: string;
}

/**
 * The entries that were read, and one problem per bad line.
 *
 * @example
 * const { entries, problems }: CatalogueResult = parseLlmsTxt(text);
 */
export interface CatalogueResult {
  /** The entries read, in the file's order, with unique ids and unique pages. */
  readonly entries: CatalogueEntry[];
  /** One problem per bad line, by line, capped at `maxProblems`. */
  readonly problems: CatalogueProblem[];
}

/**
 * A sitemap's result. `sitemaps` lists the child sitemaps of a `<sitemapindex>` (reported as a
 * problem too): fetch each one and parse it in turn.
 *
 * @example
 * const { entries, sitemaps }: SitemapResult = parseSitemap(xml);
 */
export interface SitemapResult extends CatalogueResult {
  /** The absolute URLs of a `<sitemapindex>`'s child sitemaps, without repeats; empty for a `<urlset>`. */
  readonly sitemaps: string[];
}

/**
 * Options shared by {@link parseLlmsTxt} and `parseSitemap` (from `@sbissoli/mcp-search/site/sitemap`).
 *
 * @example
 * parseLlmsTxt(text, { locale: "en", baseUrl: "https://example.com/" } satisfies CatalogueOptions);
 */
export interface CatalogueOptions {
  /** Language of the problem messages. @default "pt-BR" */
  readonly locale?: Locale;
  /**
   * Absolute URL against which relative links are resolved (usually where the file was
   * fetched). Without it a relative link is reported and skipped.
   * @default undefined
   */
  readonly baseUrl?: string;
  /**
   * The id of the entry for a URL.
   * @default (url) => `page:${path}`, the path without a trailing slash, plus the query
   */
  readonly id?: (url: URL) => string;
  /**
   * The most problems returned; past it, one last `"more-problems"` problem says how many were
   * left out. Each problem's message is capped too (at 200 characters of detail).
   * @default 100
   */
  readonly maxProblems?: number;
  /**
   * The largest text read, in UTF-8 bytes; a larger one gives no entries and one `"too-large"`
   * problem. Parsing holds the whole text and its tree in memory, about 25 times the text's
   * size at peak (a 99 MB sitemap peaked at 2.4 GB).
   * @default 52428800 (50 MiB, the sitemaps.org limit for one sitemap)
   */
  readonly maxBytes?: number;
}
