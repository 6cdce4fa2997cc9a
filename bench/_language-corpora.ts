/**
 * Known-item corpora in eleven languages and four scripts, installed from Debian at bench time
 * (never committed), and the one table of their roles (CORPORA below).
 *
 * Every query is written by the text's own authors: a heading or a page title, cut out of the
 * document it names. What a query is, per kind of corpus:
 *
 * - debian-reference-* (the Debian Reference, DocBook HTML) and developers-reference-* (Sphinx
 *   HTML): each section (an h2, h3 or h4 and the text up to the next heading) is one document;
 *   the query is the section's heading without its number, the answer the section. Only the
 *   content is read: not the navigation bars, nor Sphinx's sidebar, whose own headings ("Table of
 *   Contents") would be sections listing the page's every title.
 * - gimp-help-* (the GIMP manual, DocBook HTML): each page is one document, its title and first
 *   heading cut out; the query is the page's title.
 * - libreoffice-help-* (LibreOffice's help, HTML): each page is one document, its title and first
 *   heading cut out; the query is the page's title.
 * - gnome-user-docs (GNOME Help and the GNOME system administration guide, Mallard XML, every
 *   language under /usr/share/help): each page is one document, its title cut out; the query is
 *   the page's title. Editors' notes (<comment>, which Yelp does not show and the translations
 *   do not carry) are left out.
 * - readmes-npm (674 READMEs of npm packages, the archive ../shared/repro/posting-cut-short/
 *   holds, not a Debian package): each section of a README (a Markdown heading and the text up to
 *   the next) is one document, as written; the query is the heading, its Markdown removed.
 * - readme-openings-npm (the same READMEs): each README is one document; the query is its first
 *   sentence of prose (the author's own summary of the package, most often), cut from the text,
 *   its Markdown and the package name's words removed.
 *
 * A title or heading that the corpus repeats is not a query (the answer would not be one
 * document). In a translation, a page whose title is still the English one (the same file in
 * the English package has the same title) stays a document but is not a query, so that no
 * query is an English sentence. More than MAX_QUERIES queries are thinned evenly, in file order.
 * Documents are `.txt` files named by number, so that no engine sees the answer in a file name.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { dropNameWords, type KnownItemQuery, type RelevanceCorpus } from "./_relevance-corpora.js";

/** A language of the bench, by its ISO 639-1 code. */
export type BenchLanguage = "en" | "pt" | "es" | "ru" | "uk" | "ja" | "zh" | "de" | "fr" | "it" | "el";

/**
 * `development`: the one corpus of its language that a ranking choice may be fitted on.
 * `test`: never fitted on; a choice is judged there.
 */
export type CorpusRole = "development" | "test";

type Kind = "debian-reference" | "developers-reference" | "gimp-help" | "libreoffice-help" | "gnome-help" | "system-admin-guide" | "readmes" | "readme-openings";

interface CorpusSpec {
  readonly name: string;
  readonly language: BenchLanguage;
  readonly role: CorpusRole;
  readonly kind: Kind;
  /** The folder's language part: "pt-br" for the Debian Reference, "pt_BR" for GIMP and GNOME. */
  readonly source: string;
  /** The Debian package that holds it ("" for the READMEs, which come from an archive). */
  readonly package: string;
}

const spec = (language: BenchLanguage, role: CorpusRole, kind: Kind, source: string, pkg: string, name = `${kind}-${source.toLowerCase().replace("_", "-")}`): CorpusSpec =>
  ({ name, language, role, kind, source, package: pkg });

/**
 * The roles, in one table: per language, ONE development corpus (the only one a ranking choice
 * may be fitted on) and test corpora of other kinds. The development corpora of en, pt, es, ja,
 * zh and ru are the ones the ranking was already fitted on (the Debian Reference, and the GIMP
 * manual in Russian); for uk and el, which had none, the GIMP manual. Fit nothing on a test
 * corpus: a choice that wins there and was chosen there proves nothing.
 */
export const CORPORA: readonly CorpusSpec[] = [
  spec("en", "development", "debian-reference", "en", "debian-reference-en"),
  spec("en", "test", "libreoffice-help", "en-US", "libreoffice-help-en-us"),
  spec("en", "test", "gnome-help", "C", "gnome-user-docs", "gnome-help-en"),
  spec("en", "test", "readmes", "npm", ""),
  spec("en", "test", "readme-openings", "npm", ""),
  spec("pt", "development", "debian-reference", "pt-br", "debian-reference-pt-br"),
  spec("pt", "test", "libreoffice-help", "pt-BR", "libreoffice-help-pt-br"),
  spec("pt", "test", "gnome-help", "pt_BR", "gnome-user-docs"),
  spec("es", "development", "debian-reference", "es", "debian-reference-es"),
  spec("es", "test", "libreoffice-help", "es", "libreoffice-help-es"),
  spec("es", "test", "gnome-help", "es", "gnome-user-docs"),
  spec("ru", "development", "gimp-help", "ru", "gimp-help-ru"),
  spec("ru", "test", "libreoffice-help", "ru", "libreoffice-help-ru"),
  spec("ru", "test", "gnome-help", "ru", "gnome-user-docs"),
  spec("ru", "test", "developers-reference", "ru", "developers-reference-ru"),
  spec("uk", "development", "gimp-help", "uk", "gimp-help-uk"),
  spec("uk", "test", "gnome-help", "uk", "gnome-user-docs"),
  spec("uk", "test", "system-admin-guide", "uk", "gnome-user-docs"),
  spec("ja", "development", "debian-reference", "ja", "debian-reference-ja"),
  spec("ja", "test", "libreoffice-help", "ja", "libreoffice-help-ja"),
  spec("ja", "test", "gnome-help", "ja", "gnome-user-docs"),
  spec("zh", "development", "debian-reference", "zh-cn", "debian-reference-zh-cn"),
  spec("zh", "test", "libreoffice-help", "zh-CN", "libreoffice-help-zh-cn"),
  spec("zh", "test", "gnome-help", "zh_CN", "gnome-user-docs"),
  spec("de", "development", "debian-reference", "de", "debian-reference-de"),
  spec("de", "test", "libreoffice-help", "de", "libreoffice-help-de"),
  spec("de", "test", "gnome-help", "de", "gnome-user-docs"),
  spec("fr", "development", "debian-reference", "fr", "debian-reference-fr"),
  spec("fr", "test", "libreoffice-help", "fr", "libreoffice-help-fr"),
  spec("fr", "test", "gnome-help", "fr", "gnome-user-docs"),
  spec("it", "development", "debian-reference", "it", "debian-reference-it"),
  spec("it", "test", "libreoffice-help", "it", "libreoffice-help-it"),
  spec("it", "test", "gnome-help", "it", "gnome-user-docs"),
  spec("el", "development", "gimp-help", "el", "gimp-help-el"),
  spec("el", "test", "libreoffice-help", "el", "libreoffice-help-el"),
  spec("el", "test", "gnome-help", "el", "gnome-user-docs"),
];

/** A corpus, its language, its role and where it comes from. */
export interface LanguageCorpus extends RelevanceCorpus {
  readonly language: BenchLanguage;
  readonly role: CorpusRole;
  readonly package: string;
  /** The package's version, part of the cache's folder name. */
  readonly version: string;
  readonly documents: number;
}

/** At most this many queries per corpus, thinned evenly. */
export const MAX_QUERIES = 300;

const CACHE = join(tmpdir(), "mcp-search-relevance-languages");
const ENGLISH_SOURCE: Readonly<Record<Kind, string>> = {
  "debian-reference": "en", "developers-reference": "en", "gimp-help": "en", "libreoffice-help": "en-US", "gnome-help": "C", "system-admin-guide": "C", readmes: "npm", "readme-openings": "npm",
};
/** The READMEs' archive, in the shared folder CI lays beside the clone. */
const READMES_ARCHIVE = join(import.meta.dirname, "..", "..", "shared", "repro", "posting-cut-short", "readmes.tar.xz");

function versionOf(pkg: string): string | undefined {
  if (pkg === "") return existsSync(READMES_ARCHIVE) ? `archive-${statSync(READMES_ARCHIVE).size}` : undefined;
  try {
    const out = execFileSync("dpkg-query", ["-W", "-f=${Status} ${Version}", pkg], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    return out.startsWith("install ok installed ") ? out.slice("install ok installed ".length).trim() : undefined;
  } catch {
    return undefined;
  }
}

/** Installs the Debian packages of `names` when missing (as root); returns a reason when it cannot. */
export function ensureCorpusPackages(names: readonly string[], log: (line: string) => void): string | undefined {
  const packages = [...new Set(CORPORA.filter((c) => names.includes(c.name) && c.package !== "").map((c) => c.package))];
  const missing = packages.filter((pkg) => versionOf(pkg) === undefined);
  if (missing.length === 0) return undefined;
  if (process.getuid?.() !== 0) return `${missing.join(", ")} missing; run: sudo apt-get install -y ${missing.join(" ")}`;
  try {
    log(`installing ${missing.join(", ")} with apt-get`);
    execFileSync("apt-get", ["install", "-y", "--no-install-recommends", ...missing], { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
    return undefined;
  } catch (error) {
    return `apt-get could not install ${missing.join(" ")}: ${(error as Error).message.split("\n")[0]}`;
  }
}

const ENTITIES: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };
const decode = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) =>
    name[0] === "#" ? String.fromCodePoint(name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)) : (ENTITIES[name] ?? whole));
/** HTML or XML to plain text: scripts and styles dropped, block ends as line breaks, tags removed. */
const textOf = (html: string) =>
  decode(html.replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ").replace(/<\/(p|div|li|tr|h\d|pre|dt|dd|table|title|item|section)>|<br\s*\/?>/gi, "\n").replace(/<[^>]+>/g, " "))
    .replace(/[ \t]+/g, " ").replace(/\n\s*\n+/g, "\n\n").trim();
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** A section number before a heading: "1.2.3. ", "A.1. ", "Часть II. ", "Частина II. ", "Глава 3. ". */
const NUMBER = /^(?:[A-Z]|\d+)(?:\.\d+)*\.\s*|^\p{Lu}\p{Ll}+ (?:[IVXL]+|\d+)\.\s+/u;

function listFiles(root: string, keep: (path: string) => boolean): string[] {
  const found: string[] = [];
  for (const name of readdirSync(root).sort()) {
    const path = join(root, name);
    if (statSync(path).isDirectory()) found.push(...listFiles(path, keep));
    else if (keep(path)) found.push(path);
  }
  return found;
}

/** A document and, when it has one, the query that names it; `key` pairs it with its English twin. */
interface Item {
  readonly key: string;
  readonly query: string;
  readonly text: string;
}

/**
 * Sections of HTML pages: a heading matched by `heading` (group 2 its text) and the text up to the
 * next, in the part of the page that `body` keeps (the content, without navigation).
 */
function sectionsOf(files: readonly string[], heading: RegExp, body: (html: string) => string): Item[] {
  const items: Item[] = [];
  for (const file of files) {
    const html = body(readFileSync(file, "utf8"));
    const marks = [...html.matchAll(heading)];
    marks.forEach((mark, i) => {
      const end = marks[i + 1]?.index ?? html.length;
      const query = oneLine(textOf(mark[2]!.replace(/<a class="headerlink"[\s\S]*?<\/a>/g, ""))).replace(NUMBER, "").trim();
      const text = textOf(html.slice(mark.index + mark[0].length, end));
      if (query !== "" && text.length >= 80) items.push({ key: `${file}#${i}`, query, text });
    });
  }
  return items;
}

/** A Markdown heading's text as a reader sees it: links, images, code spans and emphasis marks removed. */
const headingText = (markdown: string) =>
  oneLine(markdown.replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/<[^>]+>/g, " ").replace(/[`*_]+/g, "").replace(/\s#+\s*$/, ""));

/** Sections of Markdown files: an ATX heading outside code fences and the text up to the next heading. */
function markdownSectionsOf(root: string, files: readonly string[]): Item[] {
  const items: Item[] = [];
  for (const file of files) {
    let fenced = false;
    let current: { query: string; lines: string[] } | undefined;
    let index = 0;
    const close = () => {
      const text = current?.lines.join("\n").trim() ?? "";
      if (current !== undefined && current.query !== "" && text.length >= 80) items.push({ key: `${relative(root, file)}#${index++}`, query: current.query, text });
    };
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (FENCE.test(line)) fenced = !fenced;
      const heading = fenced ? null : /^#{1,6}\s+(.+)$/.exec(line);
      if (heading !== null) {
        close();
        current = { query: headingText(heading[1]!), lines: [] };
      } else current?.lines.push(line);
    }
    close();
  }
  return items;
}

/** A line that opens or closes a Markdown code fence. */
const FENCE = /^\s*(```|~~~)/;

/** A Markdown line that is not prose: a heading, a list item, a table row, an HTML tag, an image or badge, a rule. */
const NOT_PROSE = /^\s*(?:#|[-*+] |\d+\. |\||<|!\[|\[!\[|[-=*_]{3,}\s*$)/;

/**
 * Whole READMEs: the query is the first sentence of the first paragraph of prose outside code
 * fences, its Markdown removed (a blockquote's ">" too), cut from the text; words of the package's
 * name (the file's) are dropped from it.
 */
function readmeOpeningsOf(files: readonly string[]): Item[] {
  const items: Item[] = [];
  for (const file of files) {
    const lines = readFileSync(file, "utf8").split("\n");
    const paragraph: string[] = [];
    let fenced = false;
    let at = -1;
    // Read one blank line past the end, which closes a paragraph that ends the file.
    for (let i = 0; i <= lines.length && at < 0; i++) {
      const line = lines[i] ?? "";
      const fence = FENCE.test(line);
      if (fence) fenced = !fenced;
      if (!fence && !fenced && line.trim() !== "" && !NOT_PROSE.test(line)) paragraph.push(line.replace(/^\s*>\s?/, ""));
      else if (paragraph.length > 0 && headingText(paragraph.join(" ")).split(" ").length >= 4) at = i - paragraph.length;
      else paragraph.length = 0;
    }
    if (at < 0) continue;
    const prose = headingText(paragraph.join(" "));
    const sentence = /^.+?[.!?](?=\s|$)/.exec(prose)?.[0] ?? prose;
    const query = dropNameWords(sentence, [basename(file, ".md")]);
    const text = [...lines.slice(0, at), ...lines.slice(at + paragraph.length)].join("\n").trim();
    if (query.split(" ").length >= 3 && text.length >= 200) items.push({ key: basename(file), query, text });
  }
  return items;
}

/** Whole pages: the title from `title(html)`, the body from `body(html)` with the title cut out. */
function pagesOf(root: string, files: readonly string[], title: (html: string) => string, body: (html: string) => string): Item[] {
  const items: Item[] = [];
  for (const file of files) {
    const html = readFileSync(file, "utf8");
    const query = oneLine(textOf(title(html))).replace(NUMBER, "").trim();
    const text = textOf(body(html));
    if (text.length >= 200) items.push({ key: relative(root, file), query, text });
  }
  return items;
}

const DEBIAN_REFERENCE = "/usr/share/debian-reference";
const DEVELOPERS_REFERENCE = "/usr/share/developers-reference";
const GIMP = "/usr/share/gimp/2.0/help";
const LIBREOFFICE = "/usr/share/libreoffice/help";
const GNOME = "/usr/share/help";

/** The READMEs, unpacked from their archive once. */
function readmesRoot(): string {
  const root = join(CACHE, "readmes-npm-source");
  if (!existsSync(join(root, "done"))) {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    execFileSync("tar", ["-C", root, "--strip-components=1", "-xJf", READMES_ARCHIVE]);
    writeFileSync(join(root, "done"), "");
  }
  return root;
}

/** The items of one kind of corpus in one language (its folder part), in file order. */
function itemsOf(kind: Kind, source: string): Item[] {
  switch (kind) {
    case "debian-reference":
      return sectionsOf(
        readdirSync(DEBIAN_REFERENCE).filter((f) => f.endsWith(`.${source}.html`) && /^(ch|ap)/.test(f)).sort().map((f) => join(DEBIAN_REFERENCE, f)),
        /<h([234]) class="title"[^>]*>([\s\S]*?)<\/h\1>/g,
        // The navigation footer names the next chapter.
        (html) => html.replace(/<div class="navheader">[\s\S]*?<\/div>|<div class="navfooter">[\s\S]*?<\/div>/gi, " "),
      ).map((item) => ({ ...item, key: item.key.replace(`.${source}.html`, "") }));
    case "developers-reference": {
      const root = join(DEVELOPERS_REFERENCE, source === "en" ? "" : source);
      return sectionsOf(
        readdirSync(root).filter((f) => f.endsWith(".html") && !["index.html", "search.html", "genindex.html", "developers-reference.html"].includes(f)).sort().map((f) => join(root, f)),
        /<h([234])>([\s\S]*?)<\/h\1>/g,
        // Sphinx's navigation bars and sidebar (its "Table of Contents" lists every section title
        // of the page under an <h3>) are not content: only the main body is read.
        (html) => {
          const start = html.indexOf('role="main"');
          const end = html.indexOf('<div class="sphinxsidebar"');
          return html.slice(Math.max(0, start), end < 0 ? html.length : end);
        },
      ).map((item) => ({ ...item, key: relative(root, item.key) }));
    }
    case "gimp-help": {
      const root = join(GIMP, source);
      return pagesOf(root, listFiles(root, (p) => p.endsWith(".html")),
        (html) => /<title>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? "",
        (html) => html.replace(/<head>[\s\S]*?<\/head>/i, " ").replace(/<h1[\s\S]*?<\/h1>/i, " ").replace(/<div class="navheader">[\s\S]*?<\/div>|<div class="navfooter">[\s\S]*?<\/div>/gi, " "));
    }
    case "libreoffice-help": {
      const root = join(LIBREOFFICE, source);
      return pagesOf(root, listFiles(join(root, "text"), (p) => p.endsWith(".html")),
        (html) => /<title>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? "",
        (html) => (/<div id="DisplayArea"[^>]*>([\s\S]*)/.exec(html)?.[1] ?? "").replace(/<h1[\s\S]*?<\/h1>/i, " ").replace(/<footer[\s\S]*$/i, " "));
    }
    case "readmes": {
      const root = readmesRoot();
      return markdownSectionsOf(root, listFiles(root, (p) => p.endsWith(".md")));
    }
    case "readme-openings":
      return readmeOpeningsOf(listFiles(readmesRoot(), (p) => p.endsWith(".md")));
    case "gnome-help":
    case "system-admin-guide": {
      const root = join(GNOME, source, kind);
      // Mallard's <comment> is an editor's note that Yelp never shows; the translations carry none.
      const withoutInfo = (xml: string) => xml.replace(/<info>[\s\S]*?<\/info>|<comment>[\s\S]*?<\/comment>/g, " ");
      return pagesOf(root, listFiles(root, (p) => p.endsWith(".page")),
        (xml) => /<title[^>]*>([\s\S]*?)<\/title>/.exec(withoutInfo(xml))?.[1] ?? "",
        (xml) => withoutInfo(xml).replace(/<title[^>]*>[\s\S]*?<\/title>/, " "));
    }
  }
}

/** The version of what `itemsOf` extracts, part of the cache's folder name: raise it when that changes. */
const EXTRACTION = 2;

/** Writes the documents and queries of one corpus into the cache, once per package version. */
function build(corpus: CorpusSpec, version: string): { root: string; queries: KnownItemQuery[]; documents: number } {
  const folder = join(CACHE, `${corpus.name}@${version.replace(/[^\w.+-]/g, "_")}-${EXTRACTION}`);
  const root = join(folder, "docs");
  const queriesFile = join(folder, "queries.json");
  if (!existsSync(queriesFile)) {
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    const items = itemsOf(corpus.kind, corpus.source);
    const english = corpus.source === ENGLISH_SOURCE[corpus.kind] ? undefined : new Map(itemsOf(corpus.kind, ENGLISH_SOURCE[corpus.kind]).map((item) => [item.key, item.query]));
    const seen = new Map<string, number>();
    for (const { query } of items) seen.set(query, (seen.get(query) ?? 0) + 1);
    const all: KnownItemQuery[] = [];
    items.forEach((item, i) => {
      const file = `d${String(i).padStart(5, "0")}.txt`;
      writeFileSync(join(root, file), item.text);
      const untranslated = english !== undefined && english.get(item.key) === item.query;
      if (item.query !== "" && seen.get(item.query) === 1 && !untranslated && /\p{L}/u.test(item.query)) all.push({ query: item.query, answer: `doc:${file}`, source: item.key });
    });
    const step = Math.max(1, all.length / MAX_QUERIES);
    const queries = all.length <= MAX_QUERIES ? all : Array.from({ length: MAX_QUERIES }, (_, i) => all[Math.floor(i * step)]!);
    // Written last and renamed into place: a run stopped half-way builds the corpus again.
    writeFileSync(`${queriesFile}.tmp`, JSON.stringify({ documents: items.length, queries }));
    renameSync(`${queriesFile}.tmp`, queriesFile);
  }
  const { documents, queries } = JSON.parse(readFileSync(queriesFile, "utf8")) as { documents: number; queries: KnownItemQuery[] };
  return { root, queries, documents };
}

const KIND_TEXT: Readonly<Record<Kind, string>> = {
  "debian-reference": "Debian Reference, one section a document, the heading as the query",
  "developers-reference": "Debian Developer's Reference, one section a document, the heading as the query",
  "gimp-help": "GIMP manual, one page a document, the title as the query",
  "libreoffice-help": "LibreOffice help, one page a document, the title as the query",
  "gnome-help": "GNOME Help, one page a document, the title as the query",
  "system-admin-guide": "GNOME system administration guide, one page a document, the title as the query",
  readmes: "READMEs of npm packages, one section a document, the heading as the query",
  "readme-openings": "READMEs of npm packages, one README a document, its first sentence of prose as the query",
};

/**
 * The corpora named (all of CORPORA when `names` is undefined) whose package is installed, built
 * into the temporary folder once per package version and reused; the others are listed as missing.
 */
export function loadLanguageCorpora(names?: readonly string[]): { corpora: LanguageCorpus[]; missing: string[] } {
  const corpora: LanguageCorpus[] = [];
  const missing: string[] = [];
  for (const corpus of CORPORA.filter((c) => names === undefined || names.includes(c.name))) {
    const version = versionOf(corpus.package);
    if (version === undefined) {
      missing.push(`${corpus.name} (${corpus.package === "" ? `${READMES_ARCHIVE} is missing` : `${corpus.package} is not installed`})`);
      continue;
    }
    const { root, queries, documents } = build(corpus, version);
    corpora.push({
      name: corpus.name, language: corpus.language, role: corpus.role, package: corpus.package, version, root, queries, documents,
      description: `${corpus.name} (${corpus.language}, ${corpus.role}): ${KIND_TEXT[corpus.kind]} (${corpus.package === "" ? "repro archive" : corpus.package} ${version})`,
    });
  }
  return { corpora, missing };
}
