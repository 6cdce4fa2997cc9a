/**
 * Known-item corpora in five languages and three scripts, installed from Debian at bench time
 * (never committed):
 *
 * - debian-reference-{en,es,pt-br,ja,zh-cn}: the Debian Reference, the same guide in five
 *   languages (HTML). Each section (an h2, h3 or h4 and the text up to the next heading) is one
 *   plain-text document, its heading cut out; the query is the heading without its number, the
 *   answer its section. Headings that a language repeats are left out.
 * - gimp-help-ru: the GIMP manual in Russian (HTML). Each page is one plain-text document,
 *   its title and first heading cut out; the query is the title.
 *
 * Documents are `.txt` files named by number, so that no engine sees the answer in a title.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { KnownItemQuery, RelevanceCorpus } from "./_relevance-corpora.js";

/** A corpus and the language its folder is served in (`--locale`). */
export interface LanguageCorpus extends RelevanceCorpus {
  readonly locale: "pt-BR" | "en" | "es";
  /** The language for createIndex's `language` option when the corpus has one, else "auto". */
  readonly language: "pt" | "es" | "en" | "auto";
}

const CACHE = join(tmpdir(), "mcp-search-relevance-languages");
const REFERENCE = "/usr/share/debian-reference";
const GIMP = "/usr/share/gimp/2.0/help/ru";
const PACKAGES = ["debian-reference-en", "debian-reference-es", "debian-reference-pt-br", "debian-reference-ja", "debian-reference-zh-cn", "gimp-help-ru"];

/** Installs the Debian packages when they are missing; returns a reason when it cannot. */
export function ensureLanguagePackages(log: (line: string) => void): string | undefined {
  const missing = PACKAGES.filter((name) => {
    try {
      execFileSync("dpkg", ["-s", name], { stdio: "ignore" });
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length === 0) return undefined;
  if (process.getuid?.() !== 0) return `${missing.join(" and ")} missing; run: sudo apt-get install -y ${missing.join(" ")}`;
  try {
    log(`installing ${missing.join(", ")} with apt-get`);
    execFileSync("apt-get", ["install", "-y", ...missing], { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
    return undefined;
  } catch (error) {
    return `apt-get could not install ${missing.join(" ")}: ${(error as Error).message}`;
  }
}

const ENTITIES: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };
const decode = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) =>
    name[0] === "#" ? String.fromCodePoint(name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)) : (ENTITIES[name] ?? whole));
/** HTML to plain text: scripts and styles dropped, block ends as line breaks, tags removed. */
const textOf = (html: string) =>
  decode(html.replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ").replace(/<\/(p|div|li|tr|h\d|pre|dt|dd|table)>|<br\s*\/?>/gi, "\n").replace(/<[^>]+>/g, " "))
    .replace(/[ \t]+/g, " ").replace(/\n\s*\n+/g, "\n\n").trim();

/** Writes the documents and queries of one corpus, once. */
function build(name: string, make: () => { files: [string, string][]; queries: KnownItemQuery[] }): KnownItemQuery[] {
  const root = join(CACHE, name);
  const queriesFile = join(CACHE, `${name}.queries.json`);
  if (!existsSync(queriesFile)) {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    const { files, queries } = make();
    for (const [file, text] of files) writeFileSync(join(root, file), text);
    writeFileSync(queriesFile, JSON.stringify(queries));
  }
  return JSON.parse(readFileSync(queriesFile, "utf8")) as KnownItemQuery[];
}

/** A section number before a heading: "1.2.3. ", "A.1. ", "Часть II. ". */
const NUMBER = /^(?:[A-Z]|\d+)(?:\.\d+)*\.\s*|^Часть [IVX]+\.\s*|^Глава \d+\.\s*/;
const HEADING = /<h([234]) class="title"[^>]*>([\s\S]*?)<\/h\1>/g;

/** The Debian Reference in `lang` (file suffix), cut into sections. */
function referenceCorpus(lang: string, locale: LanguageCorpus["locale"], language: LanguageCorpus["language"], description: string): LanguageCorpus {
  const name = `debian-reference-${lang}`;
  const queries = build(name, () => {
    const sections: { heading: string; text: string }[] = [];
    for (const file of readdirSync(REFERENCE).filter((f) => f.endsWith(`.${lang}.html`) && /^(ch|ap)/.test(f)).sort()) {
      const html = readFileSync(join(REFERENCE, file), "utf8");
      const marks = [...html.matchAll(HEADING)];
      marks.forEach((mark, i) => {
        const end = marks[i + 1]?.index ?? html.length;
        const heading = textOf(mark[2]!).replace(NUMBER, "").replace(/\s+/g, " ").trim();
        const text = textOf(html.slice(mark.index + mark[0].length, end));
        if (heading !== "" && text.length >= 80) sections.push({ heading, text });
      });
    }
    const seen = new Map<string, number>();
    for (const { heading } of sections) seen.set(heading, (seen.get(heading) ?? 0) + 1);
    const files: [string, string][] = [];
    const list: KnownItemQuery[] = [];
    sections.forEach(({ heading, text }, i) => {
      const file = `s${String(i).padStart(4, "0")}.txt`;
      files.push([file, text]);
      if (seen.get(heading) === 1) list.push({ query: heading, answer: `doc:${file}`, source: heading });
    });
    return { files, queries: list };
  });
  return { name, description, root: join(CACHE, name), queries, locale, language };
}

/** The GIMP manual in Russian, one document per page. */
function gimpCorpus(): LanguageCorpus {
  const name = "gimp-help-ru";
  const queries = build(name, () => {
    const pages: { title: string; text: string }[] = [];
    for (const file of readdirSync(GIMP).filter((f) => f.endsWith(".html")).sort()) {
      const html = readFileSync(join(GIMP, file), "utf8");
      const title = textOf(/<title>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? "").replace(/\s+/g, " ").trim().replace(NUMBER, "");
      const body = html.replace(/<head>[\s\S]*?<\/head>/i, " ").replace(/<h1[\s\S]*?<\/h1>/i, " ").replace(/<div class="navheader">[\s\S]*?<\/div>|<div class="navfooter">[\s\S]*?<\/div>/gi, " ");
      const text = textOf(body);
      if (title !== "" && text.length >= 200) pages.push({ title, text });
    }
    const seen = new Map<string, number>();
    for (const { title } of pages) seen.set(title, (seen.get(title) ?? 0) + 1);
    const files: [string, string][] = [];
    const list: KnownItemQuery[] = [];
    pages.forEach(({ title, text }, i) => {
      const file = `p${String(i).padStart(4, "0")}.txt`;
      files.push([file, text]);
      // Pages the translation left in English are documents, not queries.
      if (seen.get(title) === 1 && /\p{sc=Cyrillic}/u.test(title)) list.push({ query: title, answer: `doc:${file}`, source: title });
    });
    return { files, queries: list };
  });
  return { name, description: "GIMP manual in Russian (gimp-help-ru, one page a document, title cut out)", root: join(CACHE, name), queries, locale: "en", language: "auto" };
}

/** The six corpora, built into the temporary folder once and reused. */
export function loadLanguageCorpora(): LanguageCorpus[] {
  return [
    referenceCorpus("pt-br", "pt-BR", "pt", "Debian Reference in Portuguese (debian-reference-pt-br, one section a document, heading cut out)"),
    referenceCorpus("es", "es", "es", "Debian Reference in Spanish (debian-reference-es, one section a document, heading cut out)"),
    referenceCorpus("en", "en", "en", "Debian Reference in English (debian-reference-en, one section a document, heading cut out)"),
    referenceCorpus("ja", "en", "auto", "Debian Reference in Japanese (debian-reference-ja, one section a document, heading cut out)"),
    referenceCorpus("zh-cn", "en", "auto", "Debian Reference in Chinese (debian-reference-zh-cn, one section a document, heading cut out)"),
    gimpCorpus(),
  ];
}
