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

export { decodeEntities } from "./html-text.js";

/** Elements whose content is never text. */
const DROPPED = new Set([
  "script", "style", "noscript", "template", "svg", "head", "iframe", "object", "canvas", "button", "select", "textarea",
]);
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
 * What one element does to the Markdown. Each part runs only outside page chrome, and only
 * outside a `<pre>` unless `inPre` is set; an element with no rule keeps its text and adds nothing.
 */
interface TagRule {
  /** At its start tag: writes what comes before the content, and notes in `element` what the end needs. */
  readonly open?: (run: Conversion, element: Open, tag: Tag) => void;
  /** At its end: an end tag, an outer element's end tag, or the end of the page. */
  readonly close?: (run: Conversion, element: Open) => void;
  /** A void or self-closed tag (`<br>`, `<img …/>`): no content, no end. */
  readonly alone?: (run: Conversion, tag: Tag) => void;
  /** Also runs inside a `<pre>`, whose markup is otherwise not text. */
  readonly inPre?: boolean;
}

/** Elements that start and end a paragraph (`<pre>`, `<table>` and `<hr>` have rules of their own). */
const PARAGRAPHS = [
  "p", "div", "section", "article", "header", "footer", "main", "nav", "aside", "ul", "ol",
  "blockquote", "figure", "figcaption", "dl", "dt", "dd", "form", "fieldset",
  "address", "details", "summary", "body", "html",
];
/** Inline elements written as a Markdown mark on each side of their text. */
const INLINE_MARKS: Readonly<Record<string, string>> = { em: "*", i: "*", strong: "**", b: "**", code: "`" };

/** The rule of each element that renders as more than its text, by tag name. */
const RULES: ReadonlyMap<string, TagRule> = new Map<string, TagRule>([
  ...["h1", "h2", "h3", "h4", "h5", "h6"].map((name): [string, TagRule] => [name, { open: openHeading, close: closeHeading }]),
  ["pre", { open: openPre, close: closePre, inPre: true }],
  ["a", { open: openLink, close: closeLink }],
  ["table", { open: openTable, close: closeTable }],
  ["tr", { open: openRow, close: closeRow }],
  ["td", { open: openCell, close: closeCell }],
  ["th", { open: openCell, close: closeCell }],
  ["li", { open: openListItem }],
  ...PARAGRAPHS.map((name): [string, TagRule] => [name, { open: breakParagraph, close: breakParagraph }]),
  ...Object.entries(INLINE_MARKS).map(([name, mark]): [string, TagRule] => {
    const write = (run: Conversion) => run.out.push(mark);
    return [name, { open: write, close: write }];
  }),
  ["br", { alone: breakLine, inPre: true }],
  ["hr", { alone: breakParagraph }],
  ["img", { alone: writeImage }],
]);

/**
 * Options of {@link convertHtml}.
 *
 * @example
 * const options: HtmlOptions = { baseUrl: "https://docs.example.com/guide/intro.html" };
 */
interface HtmlOptions {
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
interface HtmlHeading {
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
  start: number;
  /** A link's target; a pre's language; a heading's level as text. */
  data: string | undefined;
  /** A link: the visible-text counter when it opened. A pre nested in a pre: -1. */
  mark: number;
  /** A link: the line-break counter when it opened. */
  breaks: number;
}

/** The state of the outermost table being written. */
interface TableState {
  /** Cells in the row being written; -1 before the first row. */
  cells: number;
  rows: number;
  /** Where the open cell started in the output, or -1. */
  cell: number;
}

/** One page being converted: the output so far and where the walk stands in the page's elements. */
class Conversion {
  readonly out: string[] = [];
  readonly headings: HtmlHeading[] = [];
  /** The fenced `<pre>` blocks, each written in `out` as a placeholder until the text is tidied. */
  readonly blocks: string[] = [];
  readonly stack: Open[] = [];
  readonly openCount = new Map<string, number>();
  /** The stretches of `out` inside `<main>` (or `role="main"`); the end is -1 while one is open. */
  readonly mainRanges: [number, number][] = [];
  mainDepth = 0;
  articleDepth = 0;
  chromeDepth = 0;
  preDepth = 0;
  tableDepth = 0;
  table: TableState | undefined;
  heading: Open | undefined;
  /** Counts visible text pushed, so a link knows whether it got any. */
  visible = 0;
  /** Counts line breaks pushed, so a link knows whether it holds blocks. */
  breaks = 0;
  /** Links open around the text: inside one, a bracket of the text is escaped ("[\\[1\\]](#note-1)"). */
  linkDepth = 0;

  constructor(
    readonly html: string,
    readonly lower: string,
    readonly baseUrl: string | undefined,
  ) {}

  /** Text between two tags: white space collapsed, except inside a `<pre>`. */
  text(raw: string): void {
    const text = decodeEntities(raw).replaceAll(PLACEHOLDER, "");
    let piece = this.preDepth > 0 ? text : text.replace(/\s+/g, " ");
    if (this.linkDepth > 0) piece = piece.replace(/[[\]]/g, "\\$&");
    if (piece.trim() !== "") this.visible += 1;
    this.out.push(piece);
  }

  open(tag: Tag): void {
    const { name, raw } = tag;
    const role = raw.includes("role") ? attribute(raw, "role")?.toLowerCase() : undefined;
    const chrome =
      name === "nav" ||
      (role !== undefined && CHROME_ROLES.has(role)) ||
      (CHROME_OUTSIDE_CONTENT.has(name) && this.mainDepth === 0 && this.articleDepth === 0);
    const main = !chrome && this.chromeDepth === 0 && (name === "main" || role === "main");
    const article = !chrome && this.chromeDepth === 0 && (name === "article" || role === "article");
    const element: Open = { name, main, article, chrome, start: this.out.length, data: undefined, mark: 0, breaks: this.breaks };
    if (chrome) this.chromeDepth += 1;
    else if (this.chromeDepth === 0) {
      const rule = RULES.get(name);
      if (rule?.open !== undefined && (this.preDepth === 0 || rule.inPre === true)) rule.open(this, element, tag);
    }
    if (main) {
      if (this.mainDepth === 0) this.mainRanges.push([this.out.length, -1]);
      this.mainDepth += 1;
    }
    if (article) this.articleDepth += 1;
    this.stack.push(element);
    this.openCount.set(name, (this.openCount.get(name) ?? 0) + 1);
  }

  close(element: Open): void {
    this.openCount.set(element.name, (this.openCount.get(element.name) ?? 1) - 1);
    if (element.chrome) {
      this.chromeDepth -= 1;
      return;
    }
    if (element.main) {
      this.mainDepth -= 1;
      if (this.mainDepth === 0) {
        const range = this.mainRanges[this.mainRanges.length - 1];
        if (range !== undefined) range[1] = this.out.length;
      }
    }
    if (element.article) this.articleDepth -= 1;
    if (this.chromeDepth > 0) return;
    const rule = RULES.get(element.name);
    // A heading is never open in a <pre>: one opened before it closes after it.
    if (rule?.close !== undefined && (this.preDepth === 0 || rule.inPre === true)) rule.close(this, element);
  }

  /** Closes the open elements down to the nearest one named `name`; nothing if none is open. */
  closeTo(name: string): void {
    if ((this.openCount.get(name) ?? 0) === 0) return;
    for (let element = this.stack.pop(); element !== undefined; element = this.stack.pop()) {
      this.close(element);
      if (element.name === name) return;
    }
  }

  alone(tag: Tag): void {
    if (this.chromeDepth > 0) return;
    const rule = RULES.get(tag.name);
    if (rule?.alone !== undefined && (this.preDepth === 0 || rule.inPre === true)) rule.alone(this, tag);
  }

  /** Writes the open table cell as `| text `. */
  closeCell(): void {
    const { table } = this;
    if (table === undefined || table.cell === -1) return;
    const text = this.out.splice(table.cell).join("").replace(/\s+/g, " ").trim().replaceAll("|", "\\|");
    this.out.push(`| ${text} `);
    table.cell = -1;
    table.cells += 1;
  }

  /** Ends the open table row, and writes the separator row after the first. */
  closeRow(): void {
    const { table } = this;
    if (table === undefined || table.cells < 0) return;
    this.closeCell();
    if (table.cells === 0) {
      table.cells = -1;
      return;
    }
    this.out.push("|\n");
    if (table.rows === 0) this.out.push(`${"| --- ".repeat(table.cells)}|\n`);
    table.rows += 1;
    table.cells = -1;
  }

  /** Closes what is still open, and keeps only the `<main>` content when there is some. */
  finish(): ConvertedHtml {
    while (this.stack.length > 0) this.close(this.stack.pop() as Open);
    const { out, mainRanges, blocks, headings } = this;
    const last = mainRanges[mainRanges.length - 1];
    if (last !== undefined && last[1] === -1) last[1] = out.length;
    let kept = mainRanges.length === 0 ? "" : tidy(mainRanges.flatMap(([from, to]) => out.slice(from, Math.max(from, to))).join(""));
    // An empty <main> (filled by a script in the browser) does not hide the rest of the page.
    const onlyMain = kept !== "";
    if (!onlyMain) kept = tidy(out.join(""));
    const markdown = kept.replace(new RegExp(`${PLACEHOLDER}(\\d+)${PLACEHOLDER}`, "g"), (_, index: string) => blocks[Number(index)] ?? "");
    const content = onlyMain ? headings.filter((one) => one.content) : headings;
    return { markdown, headings: content, title: titleOf(this.html, this.lower) };
  }
}

/** `<h1>`…`<h6>`: closes a heading still open, then collects the text up to its end. */
function openHeading(run: Conversion, element: Open): void {
  if (run.heading !== undefined) run.closeTo(run.heading.name);
  element.start = run.out.length;
  element.data = element.name[1];
  run.heading = element;
}

/** Writes the heading as a `#` line and keeps it, unless it has no text. */
function closeHeading(run: Conversion, element: Open): void {
  if (element !== run.heading) return;
  run.heading = undefined;
  const text = stripHeadingAnchors(run.out.splice(element.start).join("").replace(/\s+/g, " ").trim());
  if (text === "") return;
  run.breaks += 1;
  run.out.push(`\n\n${"#".repeat(Number(element.data))} ${text}\n\n`);
  run.headings.push({ level: Number(element.data), text, content: run.mainDepth > 0 || run.articleDepth > 0 });
}

/** `<pre>`: its text is kept as it is; the language comes from its class or its `<code>`'s. */
function openPre(run: Conversion, element: Open, tag: Tag): void {
  if (run.preDepth > 0) {
    element.mark = -1;
    return;
  }
  run.preDepth += 1;
  element.data = language(tag.raw) ?? language(nextCodeTag(run.html, run.lower, tag.end) ?? "");
}

/** Sets the code aside as a fenced block longer than any run of backticks in it. */
function closePre(run: Conversion, element: Open): void {
  if (element.mark === -1) return;
  run.preDepth -= 1;
  const code = run.out.splice(element.start).join("").replace(/^\r?\n/, "").trimEnd();
  let longest = 0;
  let backticks = 0;
  for (const char of code) {
    backticks = char === "`" ? backticks + 1 : 0;
    longest = Math.max(longest, backticks);
  }
  const fence = "`".repeat(Math.max(3, longest + 1));
  run.blocks.push(`${fence}${element.data ?? ""}\n${code}\n${fence}`);
  run.breaks += 1;
  run.out.push(`\n\n${PLACEHOLDER}${run.blocks.length - 1}${PLACEHOLDER}\n\n`);
}

/**
 * `<a href>` (not a script): `[` now, the target at its end. A link to a place in the same page
 * (`#…`) keeps its target as written, so that a line that is only such a link reads as an entry
 * of a table of contents, which a snippet skips (./markdown.ts); inside a heading it is the
 * heading's own anchor ("¶"), and only its text stays.
 */
function openLink(run: Conversion, element: Open, tag: Tag): void {
  const href = attribute(tag.raw, "href");
  if (href === undefined || href === "" || href === "#" || /^(javascript|data|vbscript):/i.test(href)) return;
  if (href.startsWith("#") && run.heading !== undefined) return;
  element.data = href.startsWith("#") ? href : resolveHref(href, run.baseUrl);
  element.mark = run.visible;
  element.breaks = run.breaks;
  run.linkDepth += 1;
  run.out.push("[");
}

/** A link with no visible text goes; one around blocks (a card) keeps its text, unlinked. */
function closeLink(run: Conversion, element: Open): void {
  if (element.data === undefined) return;
  run.linkDepth -= 1;
  if (run.visible === element.mark) run.out.splice(element.start);
  else if (run.breaks !== element.breaks) run.out[element.start] = "";
  else run.out.push(`](${element.data})`);
}

/** The outermost `<table>` becomes a Markdown table; a table inside a cell, text with spaces. */
function openTable(run: Conversion): void {
  run.tableDepth += 1;
  if (run.tableDepth > 1) {
    run.out.push(" ");
    return;
  }
  run.table = { cells: -1, rows: 0, cell: -1 };
  run.out.push("\n\n");
}

function closeTable(run: Conversion): void {
  if (run.tableDepth === 1) {
    run.closeRow();
    run.table = undefined;
  }
  run.tableDepth -= 1;
  run.out.push(run.tableDepth > 0 ? " " : "\n");
}

function openRow(run: Conversion): void {
  if (run.tableDepth > 1) run.out.push(" ");
  else if (run.table !== undefined) {
    run.closeRow();
    run.table.cells = 0;
  }
}

function closeRow(run: Conversion): void {
  if (run.tableDepth > 1) run.out.push(" ");
  else run.closeRow();
}

function openCell(run: Conversion): void {
  if (run.tableDepth > 1) run.out.push(" ");
  else if (run.table !== undefined) {
    if (run.table.cells < 0) run.table.cells = 0;
    run.closeCell();
    run.table.cell = run.out.length;
  }
}

function closeCell(run: Conversion): void {
  if (run.tableDepth > 1) run.out.push(" ");
  else run.closeCell();
}

function openListItem(run: Conversion): void {
  run.breaks += 1;
  run.out.push("\n- ");
}

function breakParagraph(run: Conversion): void {
  run.breaks += 1;
  run.out.push("\n\n");
}

function breakLine(run: Conversion): void {
  run.breaks += 1;
  run.out.push("\n");
}

function writeImage(run: Conversion, tag: Tag): void {
  const image = renderImage(tag.raw, run.baseUrl);
  if (image === "") return;
  run.visible += 1;
  run.out.push(image);
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
  const run = new Conversion(html, lower, options.baseUrl);
  let at = 0;
  while (at < html.length) {
    const lt = html.indexOf("<", at);
    const textEnd = lt === -1 ? html.length : lt;
    if (textEnd > at && run.chromeDepth === 0) run.text(html.slice(at, textEnd));
    if (lt === -1) break;
    if (lower.startsWith("<!--", lt)) {
      const close = html.indexOf("-->", lt + 4);
      at = close === -1 ? html.length : close + 3;
      continue;
    }
    const tag = readTag(html, lt);
    if (tag === null) {
      // A "<" that starts no tag: the rest of the page is text.
      if (run.chromeDepth === 0) run.out.push(html.slice(lt).replace(/\s+/g, " "));
      break;
    }
    at = tag.end;
    const { name } = tag;
    if (name === "") continue;
    if (DROPPED.has(name)) {
      if (!tag.closing && !tag.raw.endsWith("/")) {
        const close = lower.indexOf(`</${name}`, at);
        at = close === -1 ? html.length : (readTag(html, close)?.end ?? html.length);
      }
      continue;
    }
    if (tag.closing) run.closeTo(name);
    else if (VOID.has(name) || tag.raw.endsWith("/")) run.alone(tag);
    else run.open(tag);
  }
  return run.finish();
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
function renderImage(raw: string, baseUrl: string | undefined): string {
  const alt = (attribute(raw, "alt") ?? "").replace(/\s+/g, " ").replaceAll("]", "").trim();
  const src = attribute(raw, "src");
  if (src === undefined || src === "" || /^(data|javascript):/i.test(src)) return alt;
  return `![${alt}](${resolveHref(src, baseUrl)})`;
}

/** A link or image target resolved against the page's URL; as written without one, or when it does not parse. */
function resolveHref(href: string, baseUrl: string | undefined): string {
  if (baseUrl === undefined) return href;
  try {
    return new URL(href, baseUrl).href;
  } catch {
    return href;
  }
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
