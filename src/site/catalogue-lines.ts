/**
 * Private plumbing of the catalogue parsers that needs no parser of its own: options, URL checks,
 * the per-line collector and the llms.txt link scan. Shared by llms.txt (./catalogue.ts) and the
 * sitemap (./sitemap.ts); never re-exported from a package entry. The XML walk lives apart, in
 * ./catalogue-xml.ts, so that importing the llms.txt parser never loads fast-xml-parser.
 */
import { checkLocale, localeTexts } from "../locales/index.js";
import type { CatalogueEntry, CatalogueOptions, CatalogueProblem, CatalogueProblemKind } from "./catalogue-types.js";
import { McpSearchError } from "../errors.js";
import { pageKey, trimSlash } from "../ranking/page.js";

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
  const bytes = utf8Length(text);
  return bytes > max ? bytes : undefined;
}

/**
 * The UTF-8 size of a string, counted from its UTF-16 code units, so that it runs where Node's
 * `Buffer` does not (a Cloudflare Worker without `nodejs_compat`). A lone surrogate counts as
 * the 3 bytes of U+FFFD, as the encoder would write it.
 */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

type Settings = ReturnType<typeof settings>;

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

/** A list item's link: its title, its URL and the text after the link. */
interface Link {
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
