/**
 * `convertHtml` on real pages: the Python 3 documentation of Debian's `python3-doc` (about 530
 * Sphinx pages, 50 MB), read once into memory, converted page after page. Two benches run side by
 * side under the same conditions: the working tree's converter, and the one at a baseline git
 * revision (`HTML_BASELINE`, by default the last commit before the converter became a table of
 * per-tag handlers). Before timing, every page's Markdown, headings and title from both are
 * compared, and so are 20,000 random pages of tag soup (unclosed, misnested and stray tags,
 * chrome, `<pre>` and tables inside each other): the bench stops on the first page where they
 * differ, naming it.
 *
 * On a shared machine the load drifts during a run, and vitest runs one bench's samples before
 * the other's; so the set-up also times the two in alternation, round after round, in CPU time
 * of this process (which another process's load disturbs less than wall time), and prints the
 * minimum and median of each: the numbers to compare.
 *
 * Needs python3-doc (`apt-get install python3-doc`); it is skipped without it.
 * Run: `npx vitest bench --run packages/cli/bench/html.bench.ts`
 * (`HTML_BASELINE=<revision>` to compare with another one).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import fc from "fast-check";
import { afterAll, beforeAll, bench, describe } from "vitest";
import { convertHtml, type ConvertedHtml } from "../src/formats/html.js";

const PYTHON_HTML = "/usr/share/doc/python3/html";
const BASELINE = process.env["HTML_BASELINE"] ?? "a0b6745";
const REPOSITORY = fileURLToPath(new URL("../../..", import.meta.url));
const ready = existsSync(join(PYTHON_HTML, "index.html"));

type Convert = (html: string, options?: { baseUrl?: string }) => ConvertedHtml;

/** Every `.html` file under `root`, sorted, so each run reads the same pages in the same order. */
function htmlFiles(root: string): string[] {
  const entries = readdirSync(root, { recursive: true, encoding: "utf8" });
  return entries.filter((entry) => entry.endsWith(".html")).sort().map((entry) => join(root, entry));
}

/** The converter at `revision`, with the helpers it imports, written to a temporary folder. */
async function loadBaseline(revision: string, into: string): Promise<Convert> {
  for (const file of ["html.ts", "html-text.ts"]) {
    const source = execFileSync("git", ["show", `${revision}:packages/cli/src/formats/${file}`], { cwd: REPOSITORY, encoding: "utf8" });
    writeFileSync(join(into, file), source);
  }
  const module = (await import(pathToFileURL(join(into, "html.ts")).href)) as { convertHtml: Convert };
  return module.convertHtml;
}

const ROUNDS = 10;

const SOUP_NAMES = ["p", "div", "span", "a", "h1", "h2", "pre", "code", "em", "b", "table", "tr", "td", "th", "ul", "li", "br", "hr", "img", "nav", "main", "article", "header", "footer", "aside", "script", "x"];
const SOUP_ATTRIBUTES = ["", ' href="x.html"', ' href="#top"', ' href="javascript:void 0"', ' role="main"', ' role="navigation"', ' role="article"', ' class="language-py"', ' src="i.png" alt="A cup"', ' src="data:,"', " /"];
/** A page of tag soup: start and end tags in any order, with text, entities and comments between. */
const tagSoup = fc
  .array(
    fc.oneof(
      fc.tuple(fc.constantFrom(...SOUP_NAMES), fc.constantFrom(...SOUP_ATTRIBUTES)).map(([name, attributes]) => `<${name}${attributes}>`),
      fc.constantFrom(...SOUP_NAMES).map((name) => `</${name}>`),
      fc.constantFrom("text", "two words", " ", "\n", "a|b", "`", "```", "&amp;", "<!-- note -->", "<", "\uE000"),
    ),
    { maxLength: 60 },
  )
  .map((pieces) => pieces.join(""));

/** CPU milliseconds (user and system, this process) to convert every page once. */
function timeAll(convert: Convert): number {
  const started = process.cpuUsage();
  for (const page of pages) convert(page.html);
  const { user, system } = process.cpuUsage(started);
  return (user + system) / 1000;
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const summary = (values: readonly number[]) => `min ${Math.round(Math.min(...values))} ms, median ${Math.round(median(values))} ms of CPU`;

const work = mkdtempSync(join(tmpdir(), "mcp-search-html-bench-"));
let pages: { readonly path: string; readonly html: string }[] = [];
let baseline: Convert = convertHtml;

beforeAll(async () => {
  if (!ready) return;
  pages = htmlFiles(PYTHON_HTML).map((path) => ({ path, html: readFileSync(path, "utf8") }));
  baseline = await loadBaseline(BASELINE, work);
  for (const { path, html } of pages) {
    const options = { baseUrl: pathToFileURL(path).href };
    const [now, then] = [convertHtml(html, options), baseline(html, options)];
    if (JSON.stringify(now) !== JSON.stringify(then)) throw new Error(`convertHtml differs from ${BASELINE} on ${path}`);
  }
  fc.assert(
    fc.property(tagSoup, fc.boolean(), (html, resolved) => {
      const options = resolved ? { baseUrl: "https://docs.example.com/guide/intro.html" } : {};
      if (JSON.stringify(convertHtml(html, options)) !== JSON.stringify(baseline(html, options))) throw new Error(`convertHtml differs from ${BASELINE} on ${JSON.stringify(html)}`);
    }),
    { numRuns: 20_000 },
  );
  const megabytes = pages.reduce((sum, page) => sum + page.html.length, 0) / 1024 / 1024;
  const [current, previous]: [number[], number[]] = [[], []];
  for (let round = 0; round < ROUNDS; round += 1) {
    // Alternate which goes first, so neither always runs on a warmer or a busier machine.
    const order = round % 2 === 0 ? [current, previous] : [previous, current];
    for (const times of order) times.push(timeAll(times === current ? convertHtml : baseline));
  }
  console.log(
    `\nhtml bench: ${pages.length} pages, ${megabytes.toFixed(1)} MB, same output as ${BASELINE} on every page and on 20,000 of tag soup` +
      `\n  ${ROUNDS} alternating rounds, all pages each:` +
      `\n  working tree       ${summary(current)}` +
      `\n  baseline ${BASELINE.padEnd(9)} ${summary(previous)}\n`,
  );
}, 300_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Converts every page; `baseline` is read when the bench runs, after beforeAll loaded it. */
const convertAll = (which: () => Convert) => () => {
  const convert = which();
  for (const page of pages) convert(page.html);
};

describe.skipIf(!ready)("convertHtml over the Python documentation", () => {
  bench("working tree", convertAll(() => convertHtml), { iterations: 3, time: 0 });
  bench(`baseline ${BASELINE}`, convertAll(() => baseline), { iterations: 3, time: 0 });
});
