/**
 * Private plumbing of src/catalogue.ts: options, URL checks, the per-line collector, the XML
 * walk (and its block-by-block recovery) and the llms.txt link scan. Never re-exported from the
 * package entry.
 */
import { loadPeer } from "./peers.js";
import { checkLocale, localeTexts } from "../locales/index.js";
import type { CatalogueEntry, CatalogueOptions, CatalogueProblem, CatalogueProblemKind } from "./catalogue-types.js";
import { McpSearchError } from "../errors.js";
import { pageKey, trimSlash } from "../ranking/page.js";

const { XMLParser } = loadPeer("fast-xml-parser");

/** `page:/docs/a` for https://example.com/docs/a/ — the seed's namespaced page id. */
function pageId(url: URL): string {
  return `page:${trimSlash(url.pathname)}${url.search}`;
}

/** Reads options once; a bad `baseUrl` is misuse and throws. */
export function settings(options: CatalogueOptions, caller: string) {
  let base: URL | undefined;
  if (options.baseUrl !== undefined) {
    try {
      base = new URL(options.baseUrl);
    } catch {
      throw new McpSearchError(`${caller}: baseUrl ${JSON.stringify(options.baseUrl)} is not an absolute URL.`);
    }
  }
  return {
    texts: localeTexts(checkLocale(options.locale, caller)).catalogue,
    base,
    id: options.id ?? pageId,
    maxProblems: Math.max(0, options.maxProblems ?? DEFAULT_MAX_PROBLEMS),
    maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
  };
}

/** The most problems a parser returns, by default. */
const DEFAULT_MAX_PROBLEMS = 100;
/** The largest text a parser reads, by default: the sitemaps.org limit of one sitemap. */
const DEFAULT_MAX_BYTES = 50 * 1024 * 1024;
/** The longest detail of one problem message, in characters. */
const MAX_DETAIL_CHARS = 200;

/** The text's UTF-8 size when it is over `max`, else `undefined`; linear only near the limit. */
export function oversize(text: string, max: number): number | undefined {
  if (text.length * 3 <= max) return undefined;
  const bytes = Buffer.byteLength(text, "utf8");
  return bytes > max ? bytes : undefined;
}

export type Settings = ReturnType<typeof settings>;

/** Resolves one link; a problem kind instead of a URL when it cannot be used. */
function resolveUrl(raw: string, base: URL | undefined): URL | "missing-url" | "relative-url" | "invalid-url" {
  if (raw === "") return "missing-url";
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    if (!/^[a-z][a-z0-9+.-]*:/i.test(raw)) {
      if (base === undefined) return "relative-url";
      try {
        url = new URL(raw, base);
      } catch {
        return "invalid-url";
      }
    } else {
      return "invalid-url";
    }
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url : "invalid-url";
}

/** Collects entries in order, turning a repeated page or id into a problem on its line. */
export class Collector {
  readonly entries: CatalogueEntry[] = [];
  readonly problems: CatalogueProblem[] = [];
  private readonly keys = new Map<string, number>();
  private readonly ids = new Map<string, number>();

  constructor(private readonly s: Settings) {}

  problem(line: number, kind: CatalogueProblemKind, detail: string): void {
    const capped = detail.length > MAX_DETAIL_CHARS ? detail.slice(0, MAX_DETAIL_CHARS) + this.s.texts.detailCut(detail.length - MAX_DETAIL_CHARS) : detail;
    this.problems.push({ line, kind, message: `${this.s.texts.line(line)}: ${capped}` });
  }

  /**
   * Problems by line (a stable sort keeps the order of two problems on one line), at most
   * `maxProblems`, then one that says how many more were left out.
   */
  sortedProblems(): CatalogueProblem[] {
    const sorted = [...this.problems].sort((a, b) => a.line - b.line);
    const first = sorted[this.s.maxProblems];
    if (first === undefined) return sorted;
    const left = sorted.length - this.s.maxProblems;
    const kept = sorted.slice(0, this.s.maxProblems);
    kept.push({ line: first.line, kind: "more-problems", message: `${this.s.texts.line(first.line)}: ${this.s.texts.moreProblems(left)}` });
    return kept;
  }

  /** Resolves `raw`, checks it, and returns the URL to build an entry from, or null. */
  url(line: number, raw: string): URL | null {
    const url = resolveUrl(raw, this.s.base);
    if (typeof url !== "string") return url;
    const texts = this.s.texts;
    const detail = url === "missing-url" ? texts.missingUrl : url === "relative-url" ? texts.relativeUrl(raw) : texts.invalidUrl(raw);
    this.problem(line, url, detail);
    return null;
  }

  add(line: number, url: URL, entry: Omit<CatalogueEntry, "id" | "url">): void {
    const key = pageKey(url);
    const seenAt = this.keys.get(key);
    if (seenAt !== undefined) {
      this.problem(line, "duplicate-url", this.s.texts.duplicateUrl(url.href, seenAt));
      return;
    }
    const id = this.s.id(url);
    const idAt = this.ids.get(id);
    if (idAt !== undefined) {
      this.problem(line, "duplicate-id", this.s.texts.duplicateId(id, idAt));
      return;
    }
    this.keys.set(key, line);
    this.ids.set(id, line);
    this.entries.push({ id, url: url.href, ...entry });
  }
}

const METADATA = XMLParser.getMetaDataSymbol() as unknown as symbol;

export type XmlNode = { readonly [key: string]: unknown };

/** Maps a character offset to its 1-based line (binary search over the line starts). */
export function lineFinder(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset) => {
    let at = Math.max(0, offset);
    while (at < text.length && /\s/.test(text.charAt(at))) at += 1; // to the tag itself
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts[mid] ?? 0) <= at) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
}

/** Every node under `name` anywhere in the tree, in document order, with its start offset. */
function collect(node: unknown, name: string, parentStart: number, found: { node: unknown; start: number }[]): void {
  if (node === null || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const child of node) collect(child, name, parentStart, found);
    return;
  }
  const meta = (node as Record<symbol, { startIndex?: number } | undefined>)[METADATA];
  const start = meta?.startIndex ?? parentStart;
  for (const [key, value] of Object.entries(node as XmlNode)) {
    if (key === name) {
      for (const item of Array.isArray(value) ? value : [value]) {
        const itemStart = (item as Record<symbol, { startIndex?: number } | undefined> | null)?.[METADATA]?.startIndex;
        found.push({ node: item, start: itemStart ?? start });
        collect(item, name, itemStart ?? start, found);
      }
    } else {
      collect(value, name, start, found);
    }
  }
}

export function textOf(node: unknown, key: string): string {
  if (node === null || typeof node !== "object") return "";
  const value = (node as XmlNode)[key];
  return typeof value === "string" || typeof value === "number" ? String(value).trim() : "";
}

/** One element found in the XML: the parsed node and the offset where its tag starts. */
export interface Located {
  readonly node: unknown;
  readonly start: number;
}

/** The elements a sitemap is read from, and the ones that could not be read. */
export interface Elements {
  readonly url: Located[];
  readonly sitemap: Located[];
  /** Offsets of `<url>`/`<sitemap>` blocks that could not be read on their own. */
  readonly unreadable: number[];
  /** `<url>`/`<sitemap>` blocks with no closing tag (a truncated text), by name and offset. */
  readonly unclosed: Block[];
}

/** The one way every sitemap text is parsed; throws on XML fast-xml-parser cannot read at all. */
export function parseXml(xml: string): unknown {
  return new XMLParser({
    captureMetaData: true,
    parseTagValue: false,
    removeNSPrefix: true,
    ignoreAttributes: true,
  }).parse(xml);
}

/** Every `<url>` and `<sitemap>` of a parsed tree, in document order. */
export function elementsOf(tree: unknown): Elements {
  const url: Located[] = [];
  const sitemap: Located[] = [];
  collect(tree, "url", 0, url);
  collect(tree, "sitemap", 0, sitemap);
  return { url, sitemap, unreadable: [], unclosed: [] };
}

/** A closing `</url>`/`</sitemap>` or an opening `<url`/`<sitemap`, with or without a namespace prefix. */
const TAG = /<(?:\/(?:[\w.-]+:)?(?<close>url|sitemap)\s*>|(?:[\w.-]+:)?(?<open>url|sitemap)(?=[\s/>]))/g;

/** One `<url>` or `<sitemap>` block of the text: its name and the offset of its opening tag. */
export interface Block {
  readonly name: "url" | "sitemap";
  readonly start: number;
}

/** The blocks of a text: the closed ones with their end, and the ones never closed. */
export interface Blocks {
  readonly closed: (Block & { readonly end: number })[];
  readonly unclosed: Block[];
}

/**
 * One pass over the tags pairs each opening `<url>`/`<sitemap>` tag with the closing tag that
 * follows it; an opening tag with another one before its close, or none before the end of the
 * text (a truncated sitemap), is unclosed. Linear in the text.
 */
export function findBlocks(xml: string): Blocks {
  const found: Blocks = { closed: [], unclosed: [] };
  let open: Block | undefined;
  for (const match of xml.matchAll(TAG)) {
    const { open: opening, close } = match.groups ?? {};
    if (opening !== undefined) {
      if (open !== undefined) found.unclosed.push(open); // opened again before closing
      open = { name: opening === "url" ? "url" : "sitemap", start: match.index };
      continue;
    }
    if (open === undefined || open.name !== close) continue;
    found.closed.push({ ...open, end: match.index + match[0].length });
    open = undefined;
  }
  if (open !== undefined) found.unclosed.push(open);
  return found;
}

/**
 * For XML the full parse cannot be trusted with (refused outright, as with junk after
 * `</urlset>`, or holding a block that is never closed): every closed `<url>…</url>` and
 * `<sitemap>…</sitemap>` block is parsed on its own, so one broken spot never costs the readable
 * entries. A closed block that still cannot be read is unreadable; an unclosed one is reported
 * apart. Each block is parsed once, so the work is linear in the text.
 */
export function recoverElements(xml: string, blocks: Blocks = findBlocks(xml)): Elements {
  const found: Elements = { url: [], sitemap: [], unreadable: [], unclosed: blocks.unclosed };
  for (const { name, start, end } of blocks.closed) {
    const located: Located[] = [];
    try {
      collect(parseXml(xml.slice(start, end)), name, 0, located);
    } catch {
      // reported below as unreadable
    }
    const node = located[0];
    if (node === undefined) found.unreadable.push(start);
    else found[name].push({ node: node.node, start });
  }
  return found;
}

/** A list item's link: its title, its URL and the text after the link. */
export interface Link {
  readonly title: string;
  readonly url: string;
  readonly rest: string;
}

const isSpace = (char: string): boolean => /^\s$/.test(char);

/**
 * Reads `[title](url "optional title")`, then an optional `: description` (or `-`, `–`, `—`),
 * with a hand scan that moves forward only, so it is linear in the line. The URL may be wrapped
 * in `<…>`, and may hold balanced parentheses, as CommonMark allows:
 * `https://en.wikipedia.org/wiki/Python_(programming_language)`. Null when the item does not
 * start with such a link.
 */
export function readLink(body: string): Link | null {
  if (body.charAt(0) !== "[") return null;
  const close = body.indexOf("]");
  if (close < 0 || body.charAt(close + 1) !== "(") return null;
  const title = body.slice(1, close);
  let at = close + 2;
  const skipSpaces = (): void => {
    while (at < body.length && isSpace(body.charAt(at))) at += 1;
  };
  skipSpaces();
  let url: string;
  if (body.charAt(at) === "<") {
    const end = body.indexOf(">", at + 1);
    if (end < 0) return null;
    url = body.slice(at + 1, end);
    at = end + 1;
  } else {
    const start = at;
    let depth = 0;
    for (; at < body.length; at += 1) {
      const char = body.charAt(at);
      if (isSpace(char)) break;
      if (char === "(") depth += 1;
      else if (char === ")") {
        if (depth === 0) break;
        depth -= 1;
      }
    }
    url = body.slice(start, at);
  }
  skipSpaces();
  const quote = body.charAt(at);
  if (quote === '"' || quote === "'") {
    const end = body.indexOf(quote, at + 1);
    if (end < 0) return null;
    at = end + 1;
    skipSpaces();
  }
  if (body.charAt(at) !== ")") return null;
  at += 1;
  skipSpaces();
  if (at < body.length && ":-–—".includes(body.charAt(at))) {
    at += 1;
    skipSpaces();
  }
  return { title, url, rest: body.slice(at) };
}
