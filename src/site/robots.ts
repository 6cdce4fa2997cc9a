/**
 * `robots.txt` as RFC 9309 reads it, turned into one question: may this path be fetched? A site
 * keeps there the routes that run work (an export, a recomputation), so a `fetch` callback that
 * asks before it reads never reaches them.
 *
 * The rules, from RFC 9309 (the Robots Exclusion Protocol, September 2022):
 * - a group is one or more `user-agent` lines followed by `allow`/`disallow` lines; the groups
 *   that name the crawler's product token (case-insensitively) are merged, and when none does,
 *   the `*` groups are used; with neither, everything may be fetched (§2.2.1);
 * - a rule matches a path by prefix, `*` matches any run of characters, and a `$` at the end of
 *   a rule anchors it at the end of the path (§2.2.3);
 * - the longest matching rule, in octets, wins; between an `allow` and a `disallow` of the same
 *   length, `allow` wins; a `disallow` with no value blocks nothing (§2.2.2), and a value that
 *   starts with neither `/` nor `*` is not a path pattern, so it is skipped;
 * - `/robots.txt` itself is always allowed (§2.2.2), and only the first 500 KiB are read: the
 *   RFC asks crawlers to read at least that much (§2.5);
 * - rules and paths are compared in one spelling (§2.2.2): a percent-encoded `*` or `$` in a rule
 *   matches that character verbatim (§2.2.3's own examples), and a path's dot segments are
 *   resolved, whether it comes as a path or inside a URL, so `/a/../export/run` is `/export/run`.
 *
 * Matching never backtracks: a rule is cut at its `*`s into literal pieces, each found with
 * `indexOf` after the previous one, leftmost first (for patterns whose only wildcard is `*`, the
 * leftmost placement of each piece is never worse). So a hostile file costs time in proportion
 * to its size, and a check in proportion to the rules times the path.
 */
import { optionNames, unknownOption, unknownOptionMessage } from "../contract/option-names.js";
import { McpSearchError } from "../errors.js";

/**
 * Options of {@link parseRobotsTxt}.
 *
 * @example
 * parseRobotsTxt(text, { userAgent: "ExampleBot", maxBytes: 1024 * 1024 } satisfies RobotsOptions);
 */
export interface RobotsOptions {
  /**
   * The product token whose group applies (letters, digits, `-` and `_`, matched
   * case-insensitively), or `"*"` for the rules every crawler obeys. A server that keeps its
   * Disallow list as the routes `fetch` must never reach reads the `*` group.
   * @default "*"
   */
  readonly userAgent?: string;
  /**
   * The most UTF-8 bytes read; the rest is ignored, from the last line that fits, and
   * `truncated` says so. RFC 9309 asks for at least 500 KiB.
   * @default 512000
   */
  readonly maxBytes?: number;
}

/**
 * One `allow` or `disallow` line of the group that applies: its value as written and its line
 * (1-based).
 *
 * @example
 * const rule: RobotsRule = { allow: false, pattern: "/export/", line: 3 };
 */
export interface RobotsRule {
  /** `true` for an `allow` line, `false` for a `disallow` one. */
  readonly allow: boolean;
  /** The rule's path pattern as written, with its `*` and `$`. */
  readonly pattern: string;
  /** The 1-based line of the rule in the file. */
  readonly line: number;
}

/**
 * The rules of a robots.txt for one crawler.
 *
 * @example
 * const robots: RobotsRules = parseRobotsTxt("User-agent: *\nDisallow: /export/\n");
 * robots.isAllowed("/export/all.csv"); // => false
 */
export interface RobotsRules {
  /**
   * Whether a path (`/docs/a?x=1`) or an absolute URL (its path and query are read) may be
   * fetched. A string that is neither is read as a path from the root. Both forms are read the
   * same way: dot segments resolved (`/a/%2e%2e/export` is `/export`), the fragment dropped.
   */
  isAllowed(pathOrUrl: string): boolean;
  /** The rule that decides for a path or URL, or `null` when none matches (then it is allowed). */
  match(pathOrUrl: string): RobotsRule | null;
  /** The rules of the group that applies, in file order. */
  readonly rules: readonly RobotsRule[];
  /** Whether the text was longer than `maxBytes` and its tail ignored. */
  readonly truncated: boolean;
}

/** Every option of {@link parseRobotsTxt}; the compiler keeps it equal to the type's fields. */
const OPTION_NAMES = optionNames<RobotsOptions>()(["userAgent", "maxBytes"]);

/** RFC 9309 §2.5: crawlers parse at least 500 kibibytes. */
const DEFAULT_MAX_BYTES = 500 * 1024;
/** RFC 9309 §2.2.1: `product-token = identifier / "*"`, `identifier = 1*(%x2D / %x41-5A / %x5F / %x61-7A)`; digits are accepted too. */
const PRODUCT_TOKEN = /^[\w-]+$/;

/** A rule ready to match: its literal pieces between `*`s, and whether `$` ends it. */
interface Compiled {
  readonly rule: RobotsRule;
  /** The normalised pattern's length: RFC 9309 compares matches by their octets. */
  readonly length: number;
  readonly pieces: readonly string[];
  readonly anchored: boolean;
}

/**
 * Reads a robots.txt and returns the rules that apply to `userAgent`.
 *
 * @example
 * const robots = parseRobotsTxt([
 *   "User-agent: *",
 *   "Disallow: /export/",
 *   "Allow: /export/readme.html",
 *   "Disallow: /*.csv$",
 * ].join("\n"));
 * robots.isAllowed("/export/run");                  // => false
 * robots.isAllowed("/export/readme.html");          // => true (the longer rule wins)
 * robots.isAllowed("https://example.com/data.csv"); // => false
 * robots.isAllowed("/data.csv?page=2");             // => true ($ ends the path)
 */
export function parseRobotsTxt(text: string, options: RobotsOptions = {}): RobotsRules {
  if (typeof text !== "string") throw new McpSearchError(`parseRobotsTxt: the text must be a string (got ${typeof text}).`);
  if (typeof options !== "object" || options === null) throw new McpSearchError("parseRobotsTxt: options must be an object.");
  const unknown = unknownOption(options, OPTION_NAMES);
  if (unknown !== undefined) throw new McpSearchError(`parseRobotsTxt: ${unknownOptionMessage(unknown, OPTION_NAMES)}`);
  const agent = options.userAgent ?? "*";
  if (typeof agent !== "string" || (agent !== "*" && !PRODUCT_TOKEN.test(agent))) {
    throw new McpSearchError(
      `parseRobotsTxt: userAgent must be a product token such as "ExampleBot" (letters, digits, "-" and "_") or "*" (got ${JSON.stringify(agent)}).`,
    );
  }
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
    throw new McpSearchError(`parseRobotsTxt: maxBytes must be a positive integer (got ${String(maxBytes)}).`);
  }
  const { head, truncated } = firstBytes(text, maxBytes);
  const rules = groupRules(head, agent.toLowerCase());
  const compiled = rules.map(compile).sort((a, b) => b.length - a.length || Number(b.rule.allow) - Number(a.rule.allow));
  const match = (pathOrUrl: string): RobotsRule | null => {
    if (typeof pathOrUrl !== "string") throw new McpSearchError(`parseRobotsTxt: isAllowed and match take a path or URL string (got ${typeof pathOrUrl}).`);
    const path = pathOf(pathOrUrl);
    if (path === "/robots.txt") return null;
    for (const candidate of compiled) if (matches(candidate, path)) return candidate.rule;
    return null;
  };
  return {
    isAllowed: (pathOrUrl) => match(pathOrUrl)?.allow !== false,
    match,
    rules,
    truncated,
  };
}

/** The text up to `maxBytes` UTF-8 bytes, cut at the last line break that fits when longer. */
function firstBytes(text: string, maxBytes: number): { head: string; truncated: boolean } {
  if (text.length * 3 <= maxBytes) return { head: text, truncated: false };
  let bytes = 0;
  let end = 0;
  for (; end < text.length; end += 1) {
    const code = text.charCodeAt(end);
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code >= 0xd800 && code <= 0xdbff ? 4 : 3;
    if (bytes + size > maxBytes) break;
    bytes += size;
    if (size === 4) end += 1;
  }
  if (end >= text.length) return { head: text, truncated: false };
  const lastBreak = Math.max(text.lastIndexOf("\n", end - 1), text.lastIndexOf("\r", end - 1));
  return { head: text.slice(0, Math.max(0, lastBreak)), truncated: true };
}

/**
 * The rules of the groups that name `agent` (lower-cased), merged in file order, or of the `*`
 * groups when none does. One pass over the lines; a group starts at a `user-agent` line that
 * follows a rule (or the start), and consecutive `user-agent` lines share one group.
 */
function groupRules(text: string, agent: string): RobotsRule[] {
  const named: RobotsRule[] = [];
  const star: RobotsRule[] = [];
  let namesAgent = false;
  let namesStar = false;
  let inAgents = false;
  let anyNamed = false;
  let line = 0;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    line += 1;
    const hash = raw.indexOf("#");
    const content = hash === -1 ? raw : raw.slice(0, hash);
    const colon = content.indexOf(":");
    if (colon === -1) continue;
    const key = content.slice(0, colon).trim().toLowerCase();
    const value = content.slice(colon + 1).trim();
    if (key === "user-agent") {
      if (!inAgents) {
        namesAgent = false;
        namesStar = false;
        inAgents = true;
      }
      const token = productToken(value);
      if (token === "*") namesStar = true;
      else if (agent !== "*" && token === agent) {
        namesAgent = true;
        anyNamed = true;
      }
      continue;
    }
    if (key !== "allow" && key !== "disallow") continue; // sitemap, crawl-delay…: not rules
    inAgents = false;
    if (value === "" || !(value.startsWith("/") || value.startsWith("*"))) continue; // blocks nothing
    const rule: RobotsRule = { allow: key === "allow", pattern: value, line };
    if (namesAgent) named.push(rule);
    if (namesStar) star.push(rule);
  }
  return anyNamed ? named : star;
}

/** A user-agent line's product token, lower-cased: the value up to its first character outside a token. */
function productToken(value: string): string {
  if (value.startsWith("*")) return "*";
  let end = 0;
  while (end < value.length && /[\w-]/.test(value.charAt(end))) end += 1;
  return value.slice(0, end).toLowerCase();
}

function compile(rule: RobotsRule): Compiled {
  let pattern = canonical(rule.pattern, true);
  const anchored = pattern.endsWith("$");
  if (anchored) pattern = pattern.slice(0, -1);
  return { rule, length: pattern.length + (anchored ? 1 : 0), pieces: pattern.split("*"), anchored };
}

/**
 * Whether a compiled rule matches a normalised path: the first piece is a prefix, each next one
 * is found after the previous (leftmost), and an anchored rule's last piece must end the path.
 */
function matches({ pieces, anchored }: Compiled, path: string): boolean {
  const first = pieces[0] ?? "";
  if (!path.startsWith(first)) return false;
  if (pieces.length === 1) return !anchored || path.length === first.length;
  let at = first.length;
  const last = pieces.length - 1;
  for (let i = 1; i < last; i += 1) {
    const piece = pieces[i] ?? "";
    const found = path.indexOf(piece, at);
    if (found === -1) return false;
    at = found + piece.length;
  }
  const tail = pieces[last] ?? "";
  if (!anchored) return path.indexOf(tail, at) !== -1;
  return path.length - tail.length >= at && path.endsWith(tail);
}

/** Where a path from the root is placed to be parsed as a URL; the host never reaches a rule. */
const PATH_BASE = "http://robots.invalid";

/**
 * The path and query of a path or URL, its dot segments resolved, in one spelling (see
 * {@link canonical}). Both forms go through the WHATWG URL parser, so `/a/../export/run`,
 * `/a/%2e%2e/export/run` and `https://example.com/a/../export/run` all become `/export/run`: a
 * path form is parsed as a path on a placeholder host. A string that is neither a path nor an
 * absolute URL is read as a path from the root.
 */
function pathOf(pathOrUrl: string): string {
  const asPath = pathOrUrl.startsWith("/") ? pathOrUrl : undefined;
  for (const candidate of asPath === undefined ? [pathOrUrl, `${PATH_BASE}/${pathOrUrl}`] : [PATH_BASE + asPath]) {
    try {
      const url = new URL(candidate);
      return canonical(`${url.pathname}${url.search}`, false);
    } catch {
      // not an absolute URL: read it as a path from the root
    }
  }
  return canonical(asPath ?? `/${pathOrUrl}`, false);
}

/** RFC 3986's unreserved characters: one spelling whether written or percent-encoded. */
const UNRESERVED = /[\w.~-]/;
/** The characters kept as written; every other one is percent-encoded (`*` and `$` are handled apart). */
const KEPT = /[\w.~!&'()+,;=:@/?-]/;
const HEX = /^[\da-f]{2}$/i;

/**
 * One spelling per path, for rules and paths alike (RFC 9309 §2.2.2 and §2.2.3):
 * - a percent-encoded unreserved character is decoded (`%62` is `b`), and other escapes are
 *   upper-cased (`%2f` is `%2F`);
 * - characters outside US-ASCII are percent-encoded as UTF-8, and so is every ASCII character
 *   that is neither unreserved nor a delimiter (a space is `%20`; a `%` that starts no escape is
 *   `%25`);
 * - a literal `*` or `$` is written `%2A` or `%24`, so that a rule that percent-encodes them
 *   matches them verbatim (§2.2.3: `/path/file-with-a-%2A.html` matches
 *   `/path/file-with-a-*.html`, `/path/foo-%24` matches `/path/foo-$`). In a path both are
 *   literal; in a rule (`rule` true) `*` stays the wildcard and a final `$` the end anchor.
 */
function canonical(text: string, rule: boolean): string {
  let out = "";
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charAt(i);
    const code = text.charCodeAt(i);
    if (char === "%" && HEX.test(text.slice(i + 1, i + 3))) {
      const hex = text.slice(i + 1, i + 3).toUpperCase();
      const decoded = String.fromCharCode(Number.parseInt(hex, 16));
      out += UNRESERVED.test(decoded) ? decoded : `%${hex}`;
      i += 2;
    } else if (char === "*") {
      out += rule ? "*" : "%2A";
    } else if (char === "$") {
      out += rule && i === text.length - 1 ? "$" : "%24";
    } else if (code < 0x80) {
      out += KEPT.test(char) ? char : `%${code.toString(16).toUpperCase().padStart(2, "0")}`;
    } else {
      const pair = code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
      const unit = pair ? text.slice(i, i + 2) : code >= 0xd800 && code <= 0xdfff ? "\ufffd" : char;
      out += encodeURIComponent(unit);
      if (pair) i += 1;
    }
  }
  return out;
}
