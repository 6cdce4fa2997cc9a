/**
 * HTML to readable Markdown, in one linear pass: no DOM, no regular expression that can
 * backtrack. Headings become `#` lines, list items `- `, links `[text](href)`, images
 * `![alt](src)`, emphasis `*`/`**`, `<pre>` a fenced code block kept byte for byte, tables
 * Markdown tables with their separator row. Script, style and other non-text elements are
 * dropped with their content, and so is the page chrome: navigation (`<nav>`, the ARIA landmarks
 * navigation, banner, contentinfo, complementary and search), and `<header>`, `<footer>` and
 * `<aside>` outside an `<article>` or `<main>`. When the page has a `<main>` (or
 * `role="main"`) with content, only its content is kept: the rest of the page is chrome by definition.
 */
import { attribute, decodeEntities, readTag, stripHeadingAnchors, titleOf, type Tag } from "./html-text.js";

export { decodeEntities, htmlTitle } from "./html-text.js";

/** Elements whose content is never text. */
const DROPPED = new Set([
  "script", "style", "noscript", "template", "svg", "head", "iframe", "object", "canvas", "button", "select", "textarea",
]);
/** Elements that start and end a paragraph. */
const BLOCKS = new Set([
  "p", "div", "section", "article", "header", "footer", "main", "nav", "aside", "ul", "ol",
  "table", "blockquote", "pre", "figure", "figcaption", "dl", "dt", "dd", "form", "fieldset",
  "address", "details", "summary", "body", "html", "hr",
]);
const INLINE_MARKS: Readonly<Record<string, string>> = { em: "*", i: "*", strong: "**", b: "**", code: "`" };

/** Elements with no content and no end tag: never on the open-element stack. */
const VOID = new Set([
  "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr", "keygen",
]);
/** ARIA landmark roles that are page chrome, not content. */
const CHROME_ROLES = new Set(["navigation", "banner", "contentinfo", "complementary", "search"]);
/** Elements that are page chrome outside an `<article>` or `<main>`, content inside one. */
const CHROME_OUTSIDE_CONTENT = new Set(["header", "footer", "aside"]);
/** Marks a `<pre>` block's place in the text until the whole text is tidied (a private-use character). */
const PLACEHOLDER = "\uE000";
/**
 * Options of {@link convertHtml}.
 *
 * @example
 * const options: HtmlOptions = { baseUrl: "https://docs.example.com/guide/intro.html" };
 */
export interface HtmlOptions {
  /**
   * The document's own public URL: relative link and image targets are resolved against it.
   * Without it they are kept as written. @default undefined
   */
  readonly baseUrl?: string | undefined;
}

/**
 * One heading of a converted page: its level, its Markdown text, and whether it sits in the
 * page's content (`<main>`, `role="main"` or `<article>`).
 *
 * @example
 * const heading: HtmlHeading = { level: 1, text: "json — JSON encoder and decoder", content: true };
 */
export interface HtmlHeading {
  readonly level: number;
  readonly text: string;
  readonly content: boolean;
}

/**
 * A page converted by {@link convertHtml}: its Markdown, its headings in order (chrome excluded),
 * and its `<title>`.
 *
 * @example
 * const page: ConvertedHtml = { markdown: "# Café", headings: [{ level: 1, text: "Café", content: false }], title: undefined };
 */
export interface ConvertedHtml {
  readonly markdown: string;
  readonly headings: readonly HtmlHeading[];
  readonly title: string | undefined;
}

/** An element on the open-element stack, with what its end needs. */
interface Open {
  readonly name: string;
  readonly main: boolean;
  readonly article: boolean;
  readonly chrome: boolean;
  /** Where its rendering started in the output (headings, pre, links, cells). */
  readonly start: number;
  /** A link's target; a pre's language; a heading's level as text. */
  readonly data: string | undefined;
  /** A link: the visible-text counter when it opened. A pre nested in a pre: -1. */
  readonly mark: number;
  /** A link: the line-break counter when it opened. */
  readonly breaks: number;
}

/** The state of the outermost table being written. */
interface TableState {
  /** Cells in the row being written; -1 before the first row. */
  cells: number;
  rows: number;
  /** Where the open cell started in the output, or -1. */
  cell: number;
  header: boolean;
}

/**
 * Converts an HTML page to readable Markdown in linear time, keeping its headings for the title
 * rules of ./documents.ts.
 *
 * @example
 * convertHtml('<nav><h2>Menu</h2></nav><main><h1>Café</h1><pre>def f():\n    return 1</pre></main>').markdown;
 * // => "# Café\n\n```\ndef f():\n    return 1\n```"
 */
export function convertHtml(html: string, options: HtmlOptions = {}): ConvertedHtml {
  const lower = html.toLowerCase();
  const out: string[] = [];
  const headings: HtmlHeading[] = [];
  const blocks: string[] = [];
  const stack: Open[] = [];
  const openCount = new Map<string, number>();
  const mainRanges: [number, number][] = [];
  let mainDepth = 0;
  let articleDepth = 0;
  let chromeDepth = 0;
  let preDepth = 0;
  let tableDepth = 0;
  let table: TableState | undefined;
  let heading: Open | undefined;
  /** Counts visible text pushed, so a link knows whether it got any. */
  let visible = 0;
  /** Counts line breaks pushed, so a link knows whether it holds blocks. */
  let breaks = 0;
  const resolve = (href: string): string => {
    if (options.baseUrl === undefined) return href;
    try {
      return new URL(href, options.baseUrl).href;
    } catch {
      return href;
    }
  };
  const emit = (piece: string) => {
    if (chromeDepth === 0) out.push(piece);
  };

  const closeCell = () => {
    if (table === undefined || table.cell === -1) return;
    const text = out.splice(table.cell).join("").replace(/\s+/g, " ").trim().replaceAll("|", "\\|");
    out.push(`| ${text} `);
    table.cell = -1;
    table.cells += 1;
  };
  const closeRow = () => {
    if (table === undefined || table.cells < 0) return;
    closeCell();
    if (table.cells === 0) {
      table.cells = -1;
      return;
    }
    out.push("|\n");
    if (table.rows === 0) out.push(`${"| --- ".repeat(table.cells)}|\n`);
    table.rows += 1;
    table.cells = -1;
  };

  const closeElement = (element: Open) => {
    const count = (openCount.get(element.name) ?? 1) - 1;
    openCount.set(element.name, count);
    if (element.chrome) {
      chromeDepth -= 1;
      return;
    }
    if (element.main) {
      mainDepth -= 1;
      if (mainDepth === 0) {
        const range = mainRanges[mainRanges.length - 1];
        if (range !== undefined) range[1] = out.length;
      }
    }
    if (element.article) articleDepth -= 1;
    if (chromeDepth > 0) return;
    const { name } = element;
    if (element === heading) {
      heading = undefined;
      const text = stripHeadingAnchors(out.splice(element.start).join("").replace(/\s+/g, " ").trim());
      if (text !== "") {
        breaks += 1;
        out.push(`\n\n${"#".repeat(Number(element.data))} ${text}\n\n`);
        headings.push({ level: Number(element.data), text, content: mainDepth > 0 || articleDepth > 0 });
      }
      return;
    }
    if (name === "pre") {
      if (element.mark === -1) return;
      preDepth -= 1;
      const code = out.splice(element.start).join("").replace(/^\r?\n/, "").trimEnd();
      let longest = 0;
      let run = 0;
      for (const char of code) {
        run = char === "`" ? run + 1 : 0;
        longest = Math.max(longest, run);
      }
      const fence = "`".repeat(Math.max(3, longest + 1));
      blocks.push(`${fence}${element.data ?? ""}\n${code}\n${fence}`);
      breaks += 1;
      out.push(`\n\n${PLACEHOLDER}${blocks.length - 1}${PLACEHOLDER}\n\n`);
      return;
    }
    if (preDepth > 0) return;
    if (name === "a") {
      if (element.data === undefined) return;
      if (visible === element.mark) out.splice(element.start);
      else if (breaks !== element.breaks) out[element.start] = ""; // a link around blocks (a card): its text stays, unlinked
      else out.push(`](${element.data})`);
      return;
    }
    if (tableDepth > 1 && (name === "td" || name === "th" || name === "tr" || name === "table")) {
      if (name === "table") tableDepth -= 1;
      out.push(" ");
      return;
    }
    if (name === "td" || name === "th") return closeCell();
    if (name === "tr") return closeRow();
    if (name === "table") {
      closeRow();
      table = undefined;
      tableDepth -= 1;
      out.push("\n");
      return;
    }
    if (name === "li" || name === "br") return;
    if (BLOCKS.has(name)) {
      breaks += 1;
      out.push("\n\n");
    } else {
      const mark = INLINE_MARKS[name];
      if (mark !== undefined) out.push(mark);
    }
  };

  const closeTo = (name: string) => {
    if ((openCount.get(name) ?? 0) === 0) return;
    for (let element = stack.pop(); element !== undefined; element = stack.pop()) {
      closeElement(element);
      if (element.name === name) return;
    }
  };

  const openElement = (tag: Tag) => {
    const { name, raw } = tag;
    const role = raw.includes("role") ? attribute(raw, "role")?.toLowerCase() : undefined;
    const chrome =
      name === "nav" ||
      (role !== undefined && CHROME_ROLES.has(role)) ||
      (CHROME_OUTSIDE_CONTENT.has(name) && mainDepth === 0 && articleDepth === 0);
    const main = !chrome && chromeDepth === 0 && (name === "main" || role === "main");
    const article = !chrome && chromeDepth === 0 && (name === "article" || role === "article");
    let start = out.length;
    let data: string | undefined;
    let mark = 0;
    const level = name.length === 2 && name[0] === "h" && name[1] !== undefined && name[1] >= "1" && name[1] <= "6" ? name[1] : undefined;
    if (chrome) chromeDepth += 1;
    else if (chromeDepth > 0) {
      // inside chrome: only the stack is kept
    } else if (level !== undefined && preDepth === 0) {
      if (heading !== undefined) closeTo(heading.name);
      start = out.length;
      data = level;
    } else if (name === "pre") {
      if (preDepth > 0) mark = -1;
      else {
        preDepth += 1;
        data = language(raw) ?? language(nextCodeTag(html, lower, tag.end) ?? "");
        start = out.length;
      }
    } else if (preDepth > 0) {
      // inside <pre>: markup is not text
    } else if (name === "a") {
      const href = attribute(raw, "href");
      if (href !== undefined && href !== "" && !href.startsWith("#") && !/^(javascript|data|vbscript):/i.test(href)) {
        data = resolve(href);
        mark = visible;
        start = out.length;
        out.push("[");
      }
    } else if (name === "table") {
      tableDepth += 1;
      if (tableDepth === 1) {
        table = { cells: -1, rows: 0, cell: -1, header: false };
        out.push("\n\n");
      } else out.push(" ");
    } else if (name === "tr") {
      if (tableDepth > 1) out.push(" ");
      else if (table !== undefined) {
        closeRow();
        table.cells = 0;
      }
    } else if (name === "td" || name === "th") {
      if (tableDepth > 1) out.push(" ");
      else if (table !== undefined) {
        if (table.cells < 0) table.cells = 0;
        closeCell();
        table.cell = out.length;
      }
    } else if (name === "li" || BLOCKS.has(name)) {
      breaks += 1;
      out.push(name === "li" ? "\n- " : "\n\n");
    }
    else {
      const inline = INLINE_MARKS[name];
      if (inline !== undefined) out.push(inline);
    }
    if (main) {
      if (mainDepth === 0) mainRanges.push([out.length, -1]);
      mainDepth += 1;
    }
    if (article) articleDepth += 1;
    const element: Open = { name, main, article, chrome, start, data, mark, breaks };
    if (level !== undefined && data !== undefined) heading = element;
    stack.push(element);
    openCount.set(name, (openCount.get(name) ?? 0) + 1);
  };

  let at = 0;
  while (at < html.length) {
    const lt = html.indexOf("<", at);
    const textEnd = lt === -1 ? html.length : lt;
    if (textEnd > at && chromeDepth === 0) {
      const text = decodeEntities(html.slice(at, textEnd)).replaceAll(PLACEHOLDER, "");
      const piece = preDepth > 0 ? text : text.replace(/\s+/g, " ");
      if (piece.trim() !== "") visible += 1;
      out.push(piece);
    }
    if (lt === -1) break;
    if (lower.startsWith("<!--", lt)) {
      const close = html.indexOf("-->", lt + 4);
      at = close === -1 ? html.length : close + 3;
      continue;
    }
    const tag = readTag(html, lt);
    if (tag === null) {
      emit(html.slice(lt).replace(/\s+/g, " "));
      break;
    }
    at = tag.end;
    const { name, closing } = tag;
    if (name === "") continue;
    if (DROPPED.has(name)) {
      if (!closing && !tag.raw.endsWith("/")) {
        const close = lower.indexOf(`</${name}`, at);
        at = close === -1 ? html.length : (readTag(html, close)?.end ?? html.length);
      }
      continue;
    }
    if (closing) {
      closeTo(name);
      continue;
    }
    if (VOID.has(name) || tag.raw.endsWith("/")) {
      if (chromeDepth > 0) continue;
      if (name === "br") {
        breaks += 1;
        out.push("\n");
      } else if (name === "hr" && preDepth === 0) {
        breaks += 1;
        out.push("\n\n");
      }
      else if (name === "img" && preDepth === 0) {
        const image = renderImage(tag.raw, resolve);
        if (image !== "") {
          visible += 1;
          out.push(image);
        }
      }
      continue;
    }
    openElement(tag);
  }
  while (stack.length > 0) closeElement(stack.pop() as Open);
  const last = mainRanges[mainRanges.length - 1];
  if (last !== undefined && last[1] === -1) last[1] = out.length;
  let kept = mainRanges.length === 0 ? "" : tidy(mainRanges.flatMap(([from, to]) => out.slice(from, Math.max(from, to))).join(""));
  // An empty <main> (filled by a script in the browser) does not hide the rest of the page.
  const onlyMain = kept !== "";
  if (!onlyMain) kept = tidy(out.join(""));
  const markdown = kept.replace(new RegExp(`${PLACEHOLDER}(\\d+)${PLACEHOLDER}`, "g"), (_, index: string) => blocks[Number(index)] ?? "");
  const content = onlyMain ? headings.filter((one) => one.content) : headings;
  return { markdown, headings: content, title: titleOf(html, lower) };
}

/**
 * Converts an HTML document to readable Markdown in linear time: {@link convertHtml}'s Markdown.
 *
 * @example
 * htmlToMarkdown("<h1>Café</h1><p>Um <b>bom</b> café.</p><ul><li>água</li></ul>");
 * // => "# Café\n\nUm **bom** café.\n\n- água"
 */
export function htmlToMarkdown(html: string, options: HtmlOptions = {}): string {
  return convertHtml(html, options).markdown;
}

/** The language of a `class="language-python"` (or `lang-`, `highlight-`) attribute, if any. */
function language(raw: string): string | undefined {
  if (!raw.includes("class")) return undefined;
  const classes = attribute(raw, "class") ?? "";
  for (const name of classes.split(/\s+/)) {
    const match = /^(?:language|lang|highlight)-([a-z0-9+#-]{1,20})$/i.exec(name);
    if (match?.[1] !== undefined) return match[1].toLowerCase();
  }
  return undefined;
}

/** The raw `<code …>` tag right after a `<pre>` tag, which often names the language. */
function nextCodeTag(html: string, lower: string, at: number): string | undefined {
  let start = at;
  while (start < html.length && start < at + 64 && /\s/.test(html[start] ?? "")) start += 1;
  if (!lower.startsWith("<code", start)) return undefined;
  return readTag(html, start)?.raw;
}

/** `![alt](src)` for an image with a usable source, its alt text for an inline data image. */
function renderImage(raw: string, resolve: (href: string) => string): string {
  const alt = (attribute(raw, "alt") ?? "").replace(/\s+/g, " ").replaceAll("]", "").trim();
  const src = attribute(raw, "src");
  if (src === undefined || src === "" || /^(data|javascript):/i.test(src)) return alt;
  return `![${alt}](${resolve(src)})`;
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
