/**
 * HTML to readable Markdown, in one linear pass: no DOM, no regular expression that can
 * backtrack. Headings become `#` lines, list items `- `, links `[text](href)`, emphasis `*`/`**`;
 * script, style and other non-text elements are dropped with their content; entities are decoded.
 */

/** Elements whose content is never text. */
const DROPPED = new Set(["script", "style", "noscript", "template", "svg", "head", "iframe", "object", "canvas"]);
/** Elements that start and end a paragraph. */
const BLOCKS = new Set([
  "p", "div", "section", "article", "header", "footer", "main", "nav", "aside", "ul", "ol",
  "table", "blockquote", "pre", "figure", "figcaption", "dl", "dt", "dd", "form", "fieldset",
  "address", "details", "summary", "body", "html", "hr",
]);
const INLINE_MARKS: Readonly<Record<string, string>> = { em: "*", i: "*", strong: "**", b: "**", code: "`" };

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
interface Tag {
  readonly name: string;
  readonly closing: boolean;
  readonly end: number;
  readonly raw: string;
}

function readTag(html: string, start: number): Tag | null {
  const end = html.indexOf(">", start);
  if (end === -1) return null;
  const raw = html.slice(start + 1, end);
  const closing = raw.startsWith("/");
  const match = /^\/?([a-zA-Z][a-zA-Z0-9-]*)/.exec(raw);
  return { name: match?.[1]?.toLowerCase() ?? "", closing, end: end + 1, raw };
}

function attribute(raw: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(raw);
  const value = match?.[1] ?? match?.[2] ?? match?.[3];
  return value === undefined ? undefined : decodeEntities(value);
}

/**
 * The text of the first `<title>` element, decoded and with whitespace collapsed, or `undefined`.
 *
 * @example
 * htmlTitle("<html><head><title> Bolo &amp; caf&eacute; </title></head></html>"); // => "Bolo & café"
 */
export function htmlTitle(html: string): string | undefined {
  const lower = html.toLowerCase();
  const open = lower.indexOf("<title");
  if (open === -1) return undefined;
  const start = lower.indexOf(">", open);
  const end = lower.indexOf("</title", start);
  if (start === -1 || end === -1) return undefined;
  const title = decodeEntities(html.slice(start + 1, end)).replace(/\s+/g, " ").trim();
  return title === "" ? undefined : title;
}

/**
 * Converts an HTML document to readable Markdown in linear time.
 *
 * @example
 * htmlToMarkdown("<h1>Café</h1><p>Um <b>bom</b> café.</p><ul><li>água</li></ul>");
 * // => "# Café\n\nUm **bom** café.\n\n- água"
 */
export function htmlToMarkdown(html: string): string {
  const lower = html.toLowerCase();
  const out: string[] = [];
  const links: (string | undefined)[] = [];
  let preDepth = 0;
  let at = 0;
  while (at < html.length) {
    const lt = html.indexOf("<", at);
    const textEnd = lt === -1 ? html.length : lt;
    if (textEnd > at) {
      const text = decodeEntities(html.slice(at, textEnd));
      out.push(preDepth > 0 ? text : text.replace(/\s+/g, " "));
    }
    if (lt === -1) break;
    if (lower.startsWith("<!--", lt)) {
      const close = html.indexOf("-->", lt + 4);
      at = close === -1 ? html.length : close + 3;
      continue;
    }
    const tag = readTag(html, lt);
    if (tag === null) {
      out.push(html.slice(lt).replace(/\s+/g, " "));
      break;
    }
    at = tag.end;
    const { name, closing } = tag;
    if (name === "") continue;
    if (DROPPED.has(name) && !closing && !tag.raw.endsWith("/")) {
      const close = lower.indexOf(`</${name}`, at);
      at = close === -1 ? html.length : (readTag(html, close)?.end ?? html.length);
      continue;
    }
    out.push(renderTag(tag, links));
    if (name === "pre") preDepth = Math.max(0, preDepth + (closing ? -1 : 1));
  }
  return tidy(out.join(""));
}

function renderTag(tag: Tag, links: (string | undefined)[]): string {
  const { name, closing } = tag;
  const heading = /^h([1-6])$/.exec(name);
  if (heading !== null) return closing ? "\n\n" : `\n\n${"#".repeat(Number(heading[1]))} `;
  if (name === "br") return "\n";
  if (name === "li") return closing ? "" : "\n- ";
  if (name === "td" || name === "th") return closing ? " " : "| ";
  if (name === "tr") return closing ? "" : "\n";
  if (BLOCKS.has(name)) return "\n\n";
  const mark = INLINE_MARKS[name];
  if (mark !== undefined) return mark;
  if (name === "a") {
    if (!closing) {
      const href = attribute(tag.raw, "href");
      const usable = href !== undefined && /^(https?:|mailto:)/i.test(href) ? href : undefined;
      links.push(usable);
      return usable === undefined ? "" : "[";
    }
    const href = links.pop();
    return href === undefined ? "" : `](${href})`;
  }
  if (name === "img") {
    const alt = attribute(tag.raw, "alt");
    return alt === undefined || alt === "" ? "" : alt;
  }
  return "";
}

/** Trims each line, keeps at most one blank line in a row, and trims the whole text. */
function tidy(text: string): string {
  const lines: string[] = [];
  let blank = false;
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (trimmed === "") {
      blank = lines.length > 0;
      continue;
    }
    if (blank) lines.push("");
    blank = false;
    lines.push(trimmed);
  }
  return lines.join("\n");
}
