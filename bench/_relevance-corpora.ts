/**
 * Known-item corpora of real documents written outside this project, installed from Debian at
 * bench time (never committed), each with queries taken from text written apart from the
 * document body:
 *
 * - python: the HTML standard-library reference of `python3-doc`. The query is a module's
 *   one-line synopsis from the module index (py-modindex.html, left out of the folder), the answer
 *   the page that documents the module.
 * - man: the manual pages of `manpages`, rendered to text with groff. The query is the NAME line's
 *   description, the answer the page; the NAME section is cut from the indexed page, so the
 *   query's own sentence is not in it.
 *
 * groff (Debian `groff-base`) renders the manual pages; it is installed with them when missing.
 * From every query, the words of the answer's own name (module path, page names) are dropped.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative } from "node:path";
import { gunzipSync } from "node:zlib";

/** An engine's search: the ids it ranks for a query, best first. */
export type Search = (query: string) => Promise<readonly string[]> | readonly string[];

/** Runs `search` on every query, in order: what it ranked, and each query's time in ms. */
export async function rankQueries(search: Search, queries: readonly KnownItemQuery[]): Promise<{ ranked: (readonly string[])[]; latencies: number[] }> {
  const ranked: (readonly string[])[] = [];
  const latencies: number[] = [];
  for (const q of queries) {
    const start = performance.now();
    ranked.push(await search(q.query));
    latencies.push(performance.now() - start);
  }
  return { ranked, latencies };
}

export interface KnownItemQuery {
  /** The query as sent, the answer's name words removed. */
  readonly query: string;
  /** The answer's document id in the folder server (`doc:` + its relative path). */
  readonly answer: string;
  /** The text it came from, for the report. */
  readonly source: string;
}

export interface RelevanceCorpus {
  readonly name: string;
  readonly description: string;
  /** A folder of files, served as it is by the folder server. */
  readonly root: string;
  readonly queries: readonly KnownItemQuery[];
}

const PYTHON_HTML = "/usr/share/doc/python3/html";
const CACHE = join(tmpdir(), "mcp-search-relevance");

/** Installs the two Debian packages when they are missing; returns a reason when it cannot. */
export function ensurePackages(log: (line: string) => void): string | undefined {
  const missing = [
    ...(existsSync(join(PYTHON_HTML, "py-modindex.html")) ? [] : ["python3-doc"]),
    ...(existsSync("/usr/share/man/man7/signal.7.gz") ? [] : ["manpages"]),
    ...(hasCommand("groff") ? [] : ["groff-base"]),
  ];
  if (missing.length === 0) return undefined;
  if (process.getuid?.() !== 0) return `${missing.join(" and ")} missing; run: sudo apt-get install -y ${missing.join(" ")}`;
  try {
    log(`installing ${missing.join(", ")} with apt-get`);
    execFileSync("apt-get", ["update"], { stdio: ["ignore", "ignore", "inherit"] });
    execFileSync("apt-get", ["install", "-y", ...missing], { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
    return undefined;
  } catch (error) {
    return `apt-get could not install ${missing.join(" ")}: ${(error as Error).message}`;
  }
}

function hasCommand(name: string): boolean {
  try {
    execFileSync("sh", ["-c", `command -v ${name}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const ENTITIES: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", "#x27": "'", "#160": " ", nbsp: " " };
const decodeEntities = (text: string) => text.replace(/&(#?\w+);/g, (whole, name: string) => ENTITIES[name] ?? whole);

/** The query text without the words of `names` (compared lower case, split on non-letters). */
export function dropNameWords(text: string, names: readonly string[]): string {
  const banned = new Set(names.flatMap((name) => name.toLowerCase().split(/[^a-z0-9]+/)).filter((word) => word !== ""));
  return text
    .split(/\s+/)
    .map((word) => word.split(/([^A-Za-z0-9]+)/).filter((part) => !banned.has(part.toLowerCase())).join(""))
    .filter((word) => /[A-Za-z0-9]/.test(word))
    .join(" ");
}

function listFiles(root: string, keep: (path: string) => boolean): string[] {
  const found: string[] = [];
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    if (statSync(path).isDirectory()) found.push(...listFiles(path, keep));
    else if (keep(path)) found.push(path);
  }
  return found;
}

/** The HTML tree of the Python docs without its indexes, search page and static assets. */
function pythonCorpus(): RelevanceCorpus {
  const root = join(CACHE, "python");
  if (!existsSync(join(root, ".complete"))) {
    rmSync(root, { recursive: true, force: true });
    const skip = /(^|\/)(_static|_sources|_images|_downloads)\/|(^|\/)(genindex[^/]*|py-modindex|search)\.html$/;
    for (const path of listFiles(PYTHON_HTML, (p) => p.endsWith(".html") && !skip.test(relative(PYTHON_HTML, p)))) {
      const target = join(root, relative(PYTHON_HTML, path));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, readFileSync(path));
    }
    writeFileSync(join(root, ".complete"), "");
  }
  const index = readFileSync(join(PYTHON_HTML, "py-modindex.html"), "utf8");
  const row = /<a href="(library\/[^"#]+)#module-[^"]*"><code class="xref">([^<]+)<\/code><\/a><\/td><td>\s*(?:<strong>[^<]*<\/strong>\s*)?<em>([^<]*)<\/em>/g;
  const queries: KnownItemQuery[] = [];
  for (const [, page, module, synopsis] of index.matchAll(row)) {
    const source = decodeEntities(synopsis as string).trim();
    const query = dropNameWords(source, [module as string, basename(page as string, ".html")]);
    if (query !== "" && existsSync(join(root, page as string))) queries.push({ query, answer: `doc:${page}`, source });
  }
  return { name: "python", description: "Python 3 standard-library reference (python3-doc, HTML)", root, queries };
}

/** Manual pages of the `manpages` package, rendered with groff, NAME section cut out. */
function manCorpus(): RelevanceCorpus {
  const root = join(CACHE, "man");
  const queriesFile = join(root, ".queries.json");
  if (!existsSync(queriesFile)) {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    const files = execFileSync("dpkg", ["-L", "manpages"], { encoding: "utf8" })
      .split("\n")
      .filter((path) => /^\/usr\/share\/man\/man\d\/[^/]+\.gz$/.test(path));
    const queries: KnownItemQuery[] = [];
    for (const path of files.sort()) {
      const source = gunzipSync(readFileSync(path)).toString("utf8");
      if (/^\.so /m.test(source.slice(0, 200)) && source.length < 200) continue; // a link to another page
      const text = execFileSync("groff", ["-t", "-mandoc", "-Tutf8", "-rHY=0", "-P-cbou"], { input: source, encoding: "utf8", stdio: ["pipe", "pipe", "ignore"] });
      const match = /^NAME\n([\s\S]*?)\n(?=\S)/m.exec(text);
      if (match === null) continue;
      const line = (match[1] as string).replace(/\s+/g, " ").trim();
      const dash = /\s[-\u2010\u2212\u2013\u2014]\s/.exec(line);
      if (dash === null) continue;
      const names = line.slice(0, dash.index).split(",").map((name) => name.trim());
      const description = line.slice(dash.index + dash[0].length);
      const file = `${basename(path, ".gz")}.txt`;
      const section = basename(dirname(path));
      mkdirSync(join(root, section), { recursive: true });
      writeFileSync(join(root, section, file), text.slice(0, match.index) + text.slice(match.index + match[0].length));
      const query = dropNameWords(description, [...names, basename(path, ".gz").replace(/\.\d\w*$/, "")]);
      if (query !== "") queries.push({ query, answer: `doc:${section}/${file}`, source: line });
    }
    writeFileSync(queriesFile, JSON.stringify(queries));
  }
  return { name: "man", description: "Linux manual pages (manpages, groff text, NAME cut out)", root, queries: JSON.parse(readFileSync(queriesFile, "utf8")) as KnownItemQuery[] };
}

/** A roff source without its NAME section (from `.SH NAME` up to the next `.SH`). */
function withoutNameSection(source: string): string {
  const lines = source.split("\n");
  const start = lines.findIndex((line) => /^\.SH\s+"?NAME"?\s*$/i.test(line));
  if (start === -1) return source;
  let end = start + 1;
  while (end < lines.length && !/^\.SH\b/i.test(lines[end] as string)) end += 1;
  return [...lines.slice(0, start), ...lines.slice(end)].join("\n");
}

/**
 * The same manual pages twice, for the formats' relevance (issue 33): every 4th page of
 * `manpages`, its NAME section cut from the roff source, rendered once to PDF by groff
 * (`-Tpdf`, needs Debian's `groff`) and once to text (`-Tutf8`); the queries are the NAME lines,
 * as in the man corpus. The folder server should rank the PDFs about as well as the text.
 */
export function loadPdfTwinCorpora(): [RelevanceCorpus, RelevanceCorpus] | string {
  const pdfRoot = join(CACHE, "man-pdf");
  const textRoot = join(CACHE, "man-pdf-text");
  const queriesFile = join(pdfRoot, ".queries.json");
  if (!existsSync(queriesFile)) {
    try {
      execFileSync("sh", ["-c", "groff -Tpdf -mandoc < /dev/null > /dev/null"], { stdio: "ignore" });
    } catch {
      return "groff's PDF device is missing; run: sudo apt-get install -y groff";
    }
    rmSync(pdfRoot, { recursive: true, force: true });
    rmSync(textRoot, { recursive: true, force: true });
    const files = execFileSync("dpkg", ["-L", "manpages"], { encoding: "utf8" })
      .split("\n")
      .filter((path) => /^\/usr\/share\/man\/man\d\/[^/]+\.gz$/.test(path))
      .sort()
      .filter((_, n) => n % 4 === 0);
    const queries: { query: string; page: string; source: string }[] = [];
    for (const path of files) {
      const source = gunzipSync(readFileSync(path)).toString("utf8");
      if (/^\.so /m.test(source.slice(0, 200)) && source.length < 200) continue;
      const full = execFileSync("groff", ["-t", "-mandoc", "-Tutf8", "-rHY=0", "-P-cbou"], { input: source, encoding: "utf8", stdio: ["pipe", "pipe", "ignore"] });
      const match = /^NAME\n([\s\S]*?)\n(?=\S)/m.exec(full);
      if (match === null) continue;
      const line = (match[1] as string).replace(/\s+/g, " ").trim();
      const dash = /\s[-\u2010\u2212\u2013\u2014]\s/.exec(line);
      if (dash === null) continue;
      const names = line.slice(0, dash.index).split(",").map((name) => name.trim());
      const query = dropNameWords(line.slice(dash.index + dash[0].length), [...names, basename(path, ".gz").replace(/\.\d\w*$/, "")]);
      if (query === "") continue;
      const cut = withoutNameSection(source);
      const page = `${basename(dirname(path))}/${basename(path, ".gz")}`;
      mkdirSync(join(pdfRoot, dirname(page)), { recursive: true });
      mkdirSync(join(textRoot, dirname(page)), { recursive: true });
      writeFileSync(join(pdfRoot, `${page}.pdf`), execFileSync("groff", ["-t", "-mandoc", "-Tpdf", "-rHY=0"], { input: cut, stdio: ["pipe", "pipe", "ignore"], maxBuffer: 64 * 1024 * 1024 }));
      writeFileSync(join(textRoot, `${page}.txt`), execFileSync("groff", ["-t", "-mandoc", "-Tutf8", "-rHY=0", "-P-cbou"], { input: cut, encoding: "utf8", stdio: ["pipe", "pipe", "ignore"] }));
      queries.push({ query, page, source: line });
    }
    writeFileSync(queriesFile, JSON.stringify(queries));
  }
  const queries = JSON.parse(readFileSync(queriesFile, "utf8")) as { query: string; page: string; source: string }[];
  const twin = (root: string, extension: string, description: string): RelevanceCorpus => ({
    name: `man${extension}`,
    description,
    root,
    queries: queries.map(({ query, page, source }) => ({ query, answer: `doc:${page}${extension}`, source })),
  });
  return [
    twin(pdfRoot, ".pdf", "Linux manual pages as PDF (every 4th page of manpages, groff -Tpdf, NAME cut out)"),
    twin(textRoot, ".txt", "the same manual pages as text (groff -Tutf8, NAME cut out)"),
  ];
}

/** Both corpora, built into the temporary folder once and reused. */
export function loadRelevanceCorpora(): RelevanceCorpus[] {
  return [pythonCorpus(), manCorpus()];
}
