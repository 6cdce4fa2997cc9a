/**
 * How a document's title and section headings are read: the first real heading of Markdown or
 * reStructuredText, an HTML page's title rule, the generic headings skipped ("Introduction",
 * "Sumário"), and a heading as clean text. The formats' readers (./registry.ts) share them.
 */
import { normalizeText } from "@sbissoli/mcp-search";
import { splitFrontMatter } from "./front-matter.js";
import { convertHtml } from "./html.js";
import { stripHeadingAnchors, trimWith } from "./html-text.js";
import { stripInlineMarkdown } from "./markdown.js";

/**
 * Options of {@link htmlDocument}.
 *
 * @example
 * const options: HtmlOptions = { url: "https://docs.example.com/guide/intro.html" };
 */
interface HtmlOptions {
  /**
   * The page's public URL (under `--base-url`): its relative links are resolved against it.
   * Without it they are kept as written. @default undefined
   */
  readonly url?: string | undefined;
}

/**
 * An HTML page as Markdown, and its title (undefined when it has none): the first `<h1>` of its
 * content (`<main>`, `role="main"` or `<article>`), else its first `<h1>`, else its `<title>`,
 * else its first heading of any level, skipping generic ones. The binary formats that hold HTML or XML (DOCX, ODT, EPUB) go through it too.
 *
 * @example
 * htmlDocument("<h1>Brewing</h1><p>Hot water.</p>"); // => { title: "Brewing", text: "# Brewing\n\nHot water." }
 */
export function htmlDocument(html: string, options: HtmlOptions = {}): { title: string | undefined; text: string } {
  const page = convertHtml(html, { baseUrl: options.url });
  return { title: htmlPageTitle(page.headings, page.title), text: page.markdown };
}

/** The title rule of an HTML page, over its headings (chrome already dropped) and its `<title>`. */
function htmlPageTitle(headings: readonly { level: number; text: string; content: boolean }[], title: string | undefined): string | undefined {
  const usable = (text: string | undefined) => {
    const clean = text === undefined ? "" : cleanHeading(text);
    return clean === "" || isGenericHeading(clean) ? undefined : clean;
  };
  const firstOf = (keep: (heading: { level: number; content: boolean }) => boolean) => {
    for (const heading of headings) {
      if (!keep(heading)) continue;
      const clean = usable(heading.text);
      if (clean !== undefined) return clean;
    }
    return undefined;
  };
  return firstOf((h) => h.level === 1 && h.content) ?? firstOf((h) => h.level === 1) ?? usable(title) ?? firstOf(() => true);
}

const ATX = /^ {0,3}#{1,6}[ \t]+/;
const SETEXT_MARKDOWN = /^ {0,3}(=+|-{2,})[ \t]*$/;
const SETEXT_H2 = /^ {0,3}-{2,}[ \t]*$/;
/** A list item or a quote: a line under it made of dashes is a thematic break, not an underline. */
const BLOCK_MARK = /^ {0,3}(?:[-*+>]|\d{1,9}[.)])(?:[ \t]|$)/;
const SETEXT_RST = /^([=\-~^"'`#*+:.])\1+[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HTML_HEADING = /^ {0,3}<h([1-6])(?=[\s>])/i;

/** The longest title, in characters; a longer one is cut at a word and ends with "…". */
export const MAX_TITLE_CHARS = 100;
/** The most characters of a heading read to make a title: a title is short, and this bounds the work. */
const MAX_HEADING_SOURCE = 600;

/**
 * Headings that name a part every document has, not the document, in English, Portuguese and
 * Spanish, normalised (lower case, no accents).
 */
const GENERIC_HEADINGS: ReadonlySet<string> = new Set([
  // English
  "introduction", "overview", "installation", "install", "installing", "getting started", "quick start", "quickstart", "usage", "how to use",
  "table of contents", "contents", "toc", "on this page", "in this article", "keyboard shortcuts", "shortcuts",
  "navigation", "menu", "search", "search results", "skip to content", "license", "licence", "changelog",
  "change log", "release notes", "contributing", "contributors", "contribute", "authors", "credits",
  "acknowledgements", "acknowledgments", "requirements", "prerequisites", "dependencies", "setup", "set up",
  "configuration", "features", "example", "examples", "api", "api reference", "reference", "documentation",
  "docs", "faq", "support", "readme", "index", "home", "related", "related topics", "see also", "next steps",
  "previous topic", "next topic", "this page", "quick links", "links", "tests", "testing", "build", "building",
  "development", "security", "sponsors", "backers", "donate", "status", "badges",
  // Portuguese
  "introducao", "visao geral", "instalacao", "instalando", "como instalar", "primeiros passos", "comecando", "comece aqui", "inicio rapido",
  "uso", "como usar", "modo de uso", "sumario", "indice", "conteudo", "tabela de conteudo",
  "tabela de conteudos", "nesta pagina", "neste artigo", "atalhos de teclado", "atalhos", "navegacao",
  "busca", "pesquisa", "pular para o conteudo", "licenca", "historico de mudancas", "notas de versao",
  "contribuindo", "como contribuir", "contribuicao", "autores", "creditos", "agradecimentos", "requisitos",
  "pre requisitos", "pre-requisitos", "dependencias", "configuracao", "recursos", "funcionalidades",
  "exemplo", "exemplos", "referencia", "documentacao", "perguntas frequentes", "suporte", "inicio",
  "pagina inicial", "veja tambem", "proximos passos", "testes", "seguranca", "patrocinadores",
  // Spanish
  "introduccion", "descripcion general", "instalacion", "primeros pasos", "ejemplos", "ejemplo", "contenido",
  "tabla de contenidos", "indice", "licencia", "creditos", "vease tambien", "requisitos", "configuracion",
]);

/**
 * True for a heading that names a part of any document ("Installation", "Table of contents",
 * "Keyboard shortcuts", "Sumário", "Atalhos de teclado"…) rather than the document itself.
 *
 * @example
 * isGenericHeading("Table of Contents:"); // => true
 * isGenericHeading("Instalação");         // => true
 * isGenericHeading("Pour-over brewing");  // => false
 */
export function isGenericHeading(heading: string): boolean {
  const key = trimWith(normalizeText(heading), (char) => !/[a-z0-9]/.test(char));
  return GENERIC_HEADINGS.has(key) || GENERIC_HEADINGS.has(key.replace(/^\d+(?:\.\d+)*\.?\s+/, ""));
}

/**
 * A heading as clean text: images and badges dropped (an image-only heading gives the image's
 * alt text), links and code keep their text, HTML tags, emphasis marks, escapes and trailing
 * anchor symbols removed, whitespace collapsed, and the result capped at
 * {@link MAX_TITLE_CHARS} characters.
 *
 * @example
 * cleanHeading("is-extglob [![NPM version](https://img.shields.io/npm/v/is-extglob.svg)](https://npm.im/is-extglob)");
 * // => "is-extglob"
 * cleanHeading("The `json` module: **fast** [docs](https://x.org)"); // => "The json module: fast docs"
 */
export function cleanHeading(heading: string): string {
  const source = heading.length > MAX_HEADING_SOURCE ? heading.slice(0, MAX_HEADING_SOURCE) : heading;
  let alt = "";
  const spaced = stripInlineMarkdown(source, (text) => {
    if (alt === "") alt = text;
  }).replace(/\s+/g, " ");
  const decoded = stripHeadingAnchors(trimWith(spaced, (char) => " |·•:,;–—-".includes(char)));
  return capTitle(decoded === "" ? alt : decoded);
}

/** Cuts a title longer than {@link MAX_TITLE_CHARS} at its last space in the second half, with "…". */
function capTitle(title: string): string {
  const chars = [...title];
  if (chars.length <= MAX_TITLE_CHARS) return title;
  const head = chars.slice(0, MAX_TITLE_CHARS - 1).join("");
  const space = head.lastIndexOf(" ");
  return `${(space > MAX_TITLE_CHARS / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}

/** The lines of `text` after its YAML front matter (./front-matter.ts), which holds no heading. */
function bodyLines(text: string): string[] {
  return text.slice(splitFrontMatter(text)?.bodyStart ?? 0).split("\n");
}

/**
 * A reader of consecutive lines that answers, for each, whether it is code: a fence line itself,
 * or a line inside a block opened by a fence of the same character (backticks or tildes).
 */
function codeFenceTracker(): (line: string) => boolean {
  let fence: string | undefined;
  return (line) => {
    const fenceMatch = FENCE.exec(line);
    if (fenceMatch !== null) {
      const marker = fenceMatch[1]?.[0] ?? "`";
      if (fence === undefined) fence = marker;
      else if (marker === fence) fence = undefined;
      return true;
    }
    return fence !== undefined;
  };
}

/**
 * The first real heading of a Markdown text (`# Title`, a line underlined with `===`/`---`, or
 * an HTML `<h1>`…`<h6>` block as READMEs write it), or, with `rst`, a reStructuredText title
 * underlined with any punctuation; as clean text ({@link cleanHeading}), skipping generic ones
 * ({@link isGenericHeading}). Code fences and YAML front matter are skipped.
 *
 * @example
 * firstHeading("---\ntitle: x\n---\nIntro\n\n## Steps ##"); // => "Steps"
 * firstHeading("## Table of contents\n\n# Chalk");           // => "Chalk"
 */
export function firstHeading(text: string, rst = false): string | undefined {
  const lines = bodyLines(text);
  const inCode = codeFenceTracker();
  const real = (raw: string) => {
    const title = cleanHeading(raw);
    return title === "" || isGenericHeading(title) ? undefined : title;
  };
  for (let index = 0; index < lines.length; index += 1) {
    const line = (lines[index] ?? "").replace(/\r$/, "");
    if (inCode(line)) continue;
    const atx = ATX.exec(line);
    if (atx !== null) {
      const title = real(stripClosingHashes(line.slice(atx[0].length)));
      if (title !== undefined) return title;
      continue;
    }
    const html = rst ? null : HTML_HEADING.exec(line);
    if (html !== null) {
      const [block, end] = htmlHeadingBlock(lines, index, html[1] ?? "1");
      index = end;
      const title = real(block);
      if (title !== undefined) return title;
      continue;
    }
    const next = (lines[index + 1] ?? "").replace(/\r$/, "");
    const underline = rst ? SETEXT_RST.exec(next) : SETEXT_MARKDOWN.exec(next);
    if (underline === null) continue;
    const title = real(line);
    if (title !== undefined && (!rst || next.trim().length >= title.length)) return title;
  }
  return undefined;
}

/** The most section headings {@link sectionHeadings} keeps of one document. */
const MAX_SECTION_HEADINGS = 200;

/**
 * The section headings of a Markdown text (or of an HTML page converted to Markdown), level 2 and
 * below (`##`…`######`, or a line underlined with `---`), as clean text ({@link cleanHeading}),
 * in order, at most 200. Code fences and YAML front matter are skipped. The folder server gives them to BM25 as the
 * document's keywords: a page's headings name what it covers, in fewer words than its text.
 *
 * @example
 * sectionHeadings("# json\n\n## Basic Usage\n\n```\n## not a heading\n```\n\nCommand line\n---");
 * // => ["Basic Usage", "Command line"]
 */
export function sectionHeadings(text: string): string[] {
  const headings: string[] = [];
  const lines = bodyLines(text);
  const inCode = codeFenceTracker();
  for (let index = 0; index < lines.length && headings.length < MAX_SECTION_HEADINGS; index += 1) {
    const line = (lines[index] ?? "").replace(/\r$/, "");
    if (inCode(line)) continue;
    const atx = ATX.exec(line);
    let heading: string | undefined;
    if (atx !== null) {
      if (!atx[0].trimStart().startsWith("##")) continue;
      heading = stripClosingHashes(line.slice(atx[0].length));
    } else if (line.trim() !== "" && !BLOCK_MARK.test(line) && SETEXT_H2.test((lines[index + 1] ?? "").replace(/\r$/, ""))) {
      heading = line;
      index += 1;
    }
    if (heading === undefined) continue;
    const clean = cleanHeading(heading);
    if (clean !== "") headings.push(clean);
  }
  return headings;
}

/** The inside of an HTML heading that starts on line `from`, up to its end tag (at most 20 lines on), and its last line. */
function htmlHeadingBlock(lines: readonly string[], from: number, level: string): [string, number] {
  const close = `</h${level}`;
  const parts: string[] = [];
  let size = 0;
  for (let index = from; index < Math.min(lines.length, from + 20); index += 1) {
    const line = lines[index] ?? "";
    parts.push(line);
    size += line.length;
    const end = line.toLowerCase().indexOf(close);
    if (end !== -1 || size > MAX_HEADING_SOURCE) {
      parts[parts.length - 1] = end === -1 ? line : line.slice(0, end);
      return [parts.join(" ").replace(/^\s*<h[1-6][^<>]*>/i, ""), index];
    }
  }
  return [parts.join(" ").replace(/^\s*<h[1-6][^<>]*>/i, ""), Math.min(lines.length, from + 20) - 1];
}

function stripClosingHashes(line: string): string {
  let end = line.length;
  while (end > 0 && (line[end - 1] === " " || line[end - 1] === "\t")) end -= 1;
  let hashes = end;
  while (hashes > 0 && line[hashes - 1] === "#") hashes -= 1;
  return hashes < end && (hashes === 0 || line[hashes - 1] === " " || line[hashes - 1] === "\t") ? line.slice(0, hashes) : line.slice(0, end);
}
