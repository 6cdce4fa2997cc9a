/**
 * The tolerant resolver behind `SearchIndex.resolve`: what a model hands back to `fetch` (the
 * id, the citation URL with or without scheme, `www.` or trailing slash, a bare path, the id
 * without its `prefix:` namespace, any of them with extra whitespace, lower-case percent escapes,
 * or wrapped in `<…>` or backticks) mapped to one entry's id, or null. Every lookup map is built
 * once; a call does a fixed number of map reads and at most two URL parses per spelling it tries
 * (the text, then each layer inside its wrappers). Private: the public face is `SearchIndex.resolve` in
 * src/ranking/create-index.ts.
 */
import { siteOf, sortedQuery, trimSlash } from "./page.js";

/** A map value for a key that two or more entries share: the resolver never picks one. */
const AMBIGUOUS = -1;

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const NAMESPACE = /^[^\s:/]+:/;
const WHITESPACE_RUNS = /\s+/g;
const PLACEHOLDER_ORIGIN = "http://resolve.invalid";
const PERCENT_ESCAPE = /%[0-9a-f]{2}/gi;

/**
 * Percent escapes in upper case, the one spelling RFC 3986 (6.2.2.1) recommends: "%c3%a3" and
 * "%C3%A3" are the same bytes, so they name the same id and the same page. Nothing is decoded:
 * "%2F" and "/" stay apart.
 */
function upperEscapes(text: string): string {
  return text.includes("%") ? text.replace(PERCENT_ESCAPE, (escape) => escape.toUpperCase()) : text;
}

/** A wrapper's character, as written or percent-encoded in a URL. */
const WRAPPER_CHARACTER = /[<>`]|%3c|%3e|%60/i;

/** The ways a model wraps an id or a URL it quotes: Markdown's autolink and code span. */
const WRAPPERS: readonly (readonly [string, string])[] = [["<", ">"], ["`", "`"]];

/**
 * The most layers of wrappers read: ```` ``<https://…>`` ```` is three. A cap, so that a text of
 * nested brackets costs a few readings, never one per bracket.
 */
const MAX_WRAPPER_LAYERS = 4;

/**
 * What lies inside the wrappers a model puts around an id or a URL it pastes, one layer at a
 * time, outermost first, each trimmed: `<https://…>`, `` `page:/live` ``, ```` ``page:/live`` ````,
 * `` `<https://…>` ``. Empty when the text is not wrapped.
 */
function unwrapLayers(text: string): string[] {
  const layers: string[] = [];
  let inner = text;
  while (layers.length < MAX_WRAPPER_LAYERS) {
    const wrapper = WRAPPERS.find(([open, close]) => inner.length > 2 && inner.startsWith(open) && inner.endsWith(close));
    if (wrapper === undefined) return layers;
    inner = inner.slice(1, -1).trim();
    layers.push(inner);
  }
  return layers;
}

/** Where a URL points once scheme, `www.`, trailing slash and fragment are dropped. */
interface Page {
  /** `example.com` (lower case, no `www.`, with the port), or null for a site-relative path. */
  readonly host: string | null;
  readonly path: string;
  /** The query's parameters, sorted, so `?b=2&a=1` and `?a=1&b=2` meet; "" without one. */
  readonly query: string;
}

/** A URL as a page (see ./page.ts for when two URLs are the same page). */
function pageOf(url: URL, withHost: boolean): Page {
  return { host: withHost ? siteOf(url) : null, path: upperEscapes(trimSlash(url.pathname)), query: sortedQuery(url) };
}

/** An absolute URL, with or without its scheme: "https://example.com/a", "example.com/a", "//example.com/a". */
function parseAbsolute(text: string): Page | null {
  if (text.startsWith("/") && !text.startsWith("//")) return null;
  const candidate = SCHEME.test(text) ? text : text.startsWith("//") ? `https:${text}` : `https://${text}`;
  try {
    const url = new URL(candidate);
    return url.host === "" ? null : pageOf(url, true);
  } catch {
    return null;
  }
}

/** A site-relative path, with or without its leading slash: "docs/a", "/docs/a/?x=1#top". */
function parsePath(text: string): Page | null {
  if (SCHEME.test(text) || text.startsWith("//")) return null;
  try {
    return pageOf(new URL(text.startsWith("/") ? text : `/${text}`, PLACEHOLDER_ORIGIN), false);
  } catch {
    return null;
  }
}

/** Sets `key` to `entry`, or to AMBIGUOUS once a second entry claims it. */
function claim(map: Map<string, number>, key: string, entry: number): void {
  const current = map.get(key);
  map.set(key, current === undefined || current === entry ? entry : AMBIGUOUS);
}

/**
 * Pages and the entries at them. The query counts only where the catalogue needs it: a page
 * held by one entry answers whatever query comes with it; a page held by several (they differ
 * only by query) answers only the exact query of one of them.
 */
class PageTable {
  private readonly pages = new Map<string, number>();
  private readonly queried = new Map<string, number>();

  /** Fills the table from every entry's page; two passes so only shared pages keep queries. */
  constructor(
    pages: readonly (Page | null)[],
    private readonly key: (page: Page) => string,
  ) {
    pages.forEach((page, entry) => {
      if (page !== null) claim(this.pages, key(page), entry);
    });
    pages.forEach((page, entry) => {
      if (page === null) return;
      const at = key(page);
      if (this.pages.get(at) === AMBIGUOUS) claim(this.queried, `${at}?${page.query}`, entry);
    });
  }

  /** The entry at `page`, undefined when no entry is there, AMBIGUOUS when it cannot choose. */
  find(page: Page | null): number | undefined {
    if (page === null) return undefined;
    const at = this.key(page);
    const entry = this.pages.get(at);
    if (entry !== AMBIGUOUS) return entry;
    return this.queried.get(`${at}?${page.query}`) ?? AMBIGUOUS;
  }
}

/** Host and path ("example.com/docs"), and the path alone ("/docs"): the two ways a page is asked for. */
const siteKey = (page: Page): string => `${page.host ?? ""}${page.path}`;
const pathKey = (page: Page): string => page.path;

/**
 * An entry's url as a page: absolute when it parses as one, else site-relative when it starts
 * with "/". Read by `new URL` alone: a hand-written fast path for plain urls saved about 10% of
 * the first `resolve` on 100k entries (~330 ms against ~350 ms), not worth a second URL reader.
 */
function entryPage(url: string): Page | null {
  const text = url.trim();
  return parseAbsolute(text) ?? (text.startsWith("/") ? parsePath(text) : null);
}

/**
 * Builds `resolve(ref)` over the index's ids and urls (same order, ids unique).
 *
 * An exact id wins outright: first verbatim, then with its whitespace trimmed and collapsed,
 * then with its percent escapes in either case. Otherwise every tolerant reading is tried (the
 * id after a namespace, an absolute URL, a bare path), of the text and, when it is wrapped in
 * `<…>` or backticks, of the text inside too; the answer is the one entry they all point to.
 * Two candidates, or a reading that itself cannot choose, give null: so accepting a spelling can
 * never turn an ambiguous id into a guess.
 */
export function createResolver(ids: readonly string[], urls: readonly string[]): (ref: string) => string | null {
  const exact = new Map<string, number>();
  const loose = new Map<string, number>();
  const escaped = new Map<string, number>();
  const bare = new Map<string, number>();
  ids.forEach((id, entry) => {
    exact.set(id, entry);
    const collapsed = id.trim().replace(WHITESPACE_RUNS, " ");
    if (collapsed !== id) claim(loose, collapsed, entry);
    if (collapsed.includes("%")) claim(escaped, upperEscapes(collapsed), entry);
    const namespace = NAMESPACE.exec(collapsed);
    if (namespace !== null && collapsed.length > namespace[0].length) {
      claim(bare, upperEscapes(collapsed.slice(namespace[0].length).trim()), entry);
    }
  });
  const pages = urls.map(entryPage);
  const sites = new PageTable(pages, siteKey);
  const paths = new PageTable(pages, pathKey);
  // A text that starts with "<" or "`" puts that character in its namespace, its host or its
  // path's first segment (percent-encoded there), so it names an entry only if some id or url
  // holds one too: otherwise its tolerant readings (URL parses, linear in its length) are
  // skipped, and a text of a million brackets costs a few map reads, not a few URL parses.
  const wrappersInKeys = ids.some((id) => WRAPPER_CHARACTER.test(id)) || urls.some((url) => WRAPPER_CHARACTER.test(url));

  /** The id `text` spells: verbatim, collapsed, or with its escapes in another case. */
  const direct = (text: string): number | undefined =>
    exact.get(text) ?? loose.get(text) ?? (text.includes("%") ? escaped.get(upperEscapes(text)) : undefined);

  /** The entry every tolerant reading of `text` points to; AMBIGUOUS when they disagree. */
  const tolerant = (text: string): number | undefined => {
    if (!wrappersInKeys && (text.startsWith("<") || text.startsWith("`"))) return undefined;
    let found: number | undefined;
    for (const entry of [bare.get(upperEscapes(text)), sites.find(parseAbsolute(text)), paths.find(parsePath(text))]) {
      if (entry === undefined) continue;
      if (entry === AMBIGUOUS || (found !== undefined && found !== entry)) return AMBIGUOUS;
      found = entry;
    }
    return found;
  };

  return (ref) => {
    if (typeof ref !== "string") return null;
    if (exact.has(ref)) return ref;
    const text = ref.trim().replace(WHITESPACE_RUNS, " ");
    if (text === "") return null;
    const spelled = direct(text);
    if (spelled !== undefined) return spelled === AMBIGUOUS ? null : (ids[spelled] ?? null);

    let found = tolerant(text);
    // Each layer inside a wrapper is read like a text of its own (its exact id wins within it),
    // and every layer that names an entry must name the same one: "`<a>`" is null when both the
    // id "<a>" and the id "a" exist.
    for (const layer of unwrapLayers(text)) {
      if (found === AMBIGUOUS) break;
      const within = direct(layer) ?? tolerant(layer);
      if (within !== undefined && found !== undefined && within !== found) found = AMBIGUOUS;
      else found ??= within;
    }
    return found === undefined || found === AMBIGUOUS ? null : (ids[found] ?? null);
  };
}
