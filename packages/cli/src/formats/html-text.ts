/**
 * The pieces of an HTML page read as text, each in linear time: character references, one tag
 * and its attributes, the `<title>`, and the trims a heading needs. ./html.ts builds the
 * converter on them.
 */
const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", deg: "°", copy: "©", reg: "®",
  mdash: "—", ndash: "–", hellip: "…", laquo: "«", raquo: "»", ldquo: "“", rdquo: "”",
  lsquo: "‘", rsquo: "’", middot: "·", euro: "€", ordf: "ª", ordm: "º", szlig: "ß", times: "×",
};
/** The accented letters of Portuguese, Spanish and French: `&aacute;` … `&Ccedil;`. */
const ACCENTS: Readonly<Record<string, string>> = { acute: "\u0301", grave: "\u0300", circ: "\u0302", tilde: "\u0303", uml: "\u0308", cedil: "\u0327" };

/**
 * Decodes the named, decimal and hexadecimal character references of an HTML text node.
 *
 * @example
 * decodeEntities("caf&eacute; &amp; p&#227;o"); // => "café & pão"
 */
export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,8});/g, (whole, name: string) => {
    if (name.startsWith("#")) {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : whole;
    }
    const named = NAMED_ENTITIES[name];
    if (named !== undefined) return named;
    const accent = ACCENTS[name.slice(1)];
    return accent !== undefined && /^[a-zA-Z]$/.test(name[0] ?? "") ? `${name[0]}${accent}`.normalize("NFC") : whole;
  });
}

/** One tag read at `start` (the `<`): its lower-case name, whether it closes, and where it ends. */
export interface Tag {
  readonly name: string;
  readonly closing: boolean;
  readonly end: number;
  readonly raw: string;
}

/** Reads the tag that starts at `start` (a `<`), or `null` when no `>` closes it. */
export function readTag(html: string, start: number): Tag | null {
  const end = html.indexOf(">", start);
  if (end === -1) return null;
  const raw = html.slice(start + 1, end);
  const closing = raw.startsWith("/");
  const match = /^\/?([a-zA-Z][a-zA-Z0-9-]*)/.exec(raw);
  return { name: match?.[1]?.toLowerCase() ?? "", closing, end: end + 1, raw };
}

/** The decoded value of attribute `name` in a raw tag, or `undefined`. */
export function attribute(raw: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(raw);
  const value = match?.[1] ?? match?.[2] ?? match?.[3];
  return value === undefined ? undefined : decodeEntities(value);
}

/**
 * The text of the first `<title>` element, decoded and with whitespace collapsed, or `undefined`;
 * `lower` is the page lower-cased, already made by the caller.
 *
 * @example
 * const page = "<html><head><title> Bolo &amp; caf&eacute; </title></head></html>";
 * titleOf(page, page.toLowerCase()); // => "Bolo & café"
 */
export function titleOf(html: string, lower: string): string | undefined {
  const open = lower.indexOf("<title");
  if (open === -1) return undefined;
  const start = lower.indexOf(">", open);
  const end = lower.indexOf("</title", start);
  if (start === -1 || end === -1) return undefined;
  const title = decodeEntities(html.slice(start + 1, end)).replace(/\s+/g, " ").trim();
  return title === "" ? undefined : title;
}

/** Symbols that anchor links leave at the end of a heading ("¶" in Sphinx, "§" or "🔗" elsewhere). */
const HEADING_ANCHORS = new Set([" ", "¶", "§", "🔗"]);

/**
 * `text` without the characters `strip` accepts at its start (when `leading`) and at its end: a
 * plain scan, where a regular expression `[…]+$` would be quadratic on a long run.
 *
 * @example
 * trimWith("— Title ¶", (char) => "—¶ ".includes(char)); // => "Title"
 */
export function trimWith(text: string, strip: (char: string) => boolean, leading = true): string {
  const chars = [...text];
  let from = 0;
  let to = chars.length;
  while (leading && from < to && strip(chars[from] ?? "")) from += 1;
  while (to > from && strip(chars[to - 1] ?? "")) to -= 1;
  return from === 0 && to === chars.length ? text : chars.slice(from, to).join("");
}
/**
 * A heading without the anchor symbols pages put after it: "¶", "§", "🔗", and a "#" run after a
 * space (so "C#" stays).
 *
 * @example
 * stripHeadingAnchors("json — JSON encoder ¶"); // => "json — JSON encoder"
 * stripHeadingAnchors("Learn C# #");            // => "Learn C#"
 */
export function stripHeadingAnchors(heading: string): string {
  const last = heading.at(-1) ?? "";
  if (last !== "#" && !HEADING_ANCHORS.has(last) && !/[\uD800-\uDFFF]/.test(last)) return heading;
  const chars = [...heading];
  let end = chars.length;
  for (;;) {
    while (end > 0 && HEADING_ANCHORS.has(chars[end - 1] ?? "")) end -= 1;
    let hashes = end;
    while (hashes > 0 && chars[hashes - 1] === "#") hashes -= 1;
    if (hashes === end || hashes === 0 || chars[hashes - 1] !== " ") break;
    end = hashes;
  }
  return end === chars.length ? heading : chars.slice(0, end).join("");
}
