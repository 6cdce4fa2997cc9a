/**
 * Regex safety, as a guard and not a timing (extra tier: about 12 s of CPU): pathological strings (1 MB, and the attack strings
 * that made the old patterns quadratic) go through every public function that runs a regular
 * expression, and through createIndex with 1 MB titles that hold no separator, in a worker
 * against the BUILT package. The bound is generous (20 s for work that takes well under a second
 * when linear); a quadratic pattern at these sizes takes minutes.
 * The static check of every pattern (eslint-plugin-regexp) is test/static/regex-lint.test.ts;
 * inputs that were quadratic through list searches, not patterns, are in
 * ./pathological-lists.test.ts (they take seconds when linear).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { runBoundedWorker } from "./_bounded-worker.js";

const BOUND_MS = 20_000;

/** Runs inside the worker; returns a summary of each case so the result is checked, not only timed. */
const WORKER = `
const { parentPort } = require("node:worker_threads");
Promise.all(["index", "site", "site/sitemap", "site/dates"].map((entry) => import(new URL("../../dist/" + entry + ".js", ${JSON.stringify(import.meta.url)}).href))).then((entries) => {
  const lib = Object.assign({}, ...entries);
  const MB = 1024 * 1024;
  const spaces = " ".repeat(MB);
  const out = {};
  out.normalize = lib.normalizeText("Ação ".repeat(MB / 5) + "\\u0301".repeat(MB)).length;
  out.tokenize = lib.tokenize("população-".repeat(MB / 10)).length;
  const index = lib.createIndex([{ id: "a", title: "População", url: "https://x/a", text: "x".repeat(MB) }]);
  out.search = index.search("popula" + "cao ".repeat(MB / 4)).length;
  out.searchOneWord = index.search("a".repeat(MB)).length;
  // Numbered cross-references: digits, counters and quotes that never close, or close too late.
  const references = ["1".repeat(MB) + "“", "1, “".repeat(MB / 4), "1节“".repeat(MB / 3), "1, «" + "xy ".repeat(MB / 3), "1,    ".repeat(MB / 6) + "«xy»"];
  out.crossReferences = lib.createIndex(references.map((text, i) => ({ id: String(i), title: "t", url: "https://x/" + i, text })), { ranking: "bm25" }).search("xy").length;
  // Titles of 1 MB with no separator: the build must stay linear in characters (it once stored
  // and sorted every suffix of every title run, seconds per title).
  const titles = lib.createIndex(["a", "b", "c", "d"].map((letter) => ({ id: letter, title: letter.repeat(MB), url: "https://x/" + letter })));
  out.longTitles = [titles.search("bbb").length, titles.search("c".repeat(MB)).length, titles.search("bbbx").length];
  const vocab = lib.createVocabulary({ sourceName: "o IBGE", entries: [{ asked: "renda", source: ["rendimento"] }] });
  const text = vocab.normalize("xrenda-".repeat(MB / 7) + " rendimentos");
  out.vocabulary = vocab.matchesQuery(text, vocab.expandQuery("renda"));
  out.vocabularyLongQuery = vocab.matchesQuery(text, vocab.expandQuery("renda " + "ab".repeat(MB / 2)));
  const lines = [
    "# " + spaces + "\\rx",
    "- " + spaces + "\\rx",
    "[a](" + spaces + "x",
    "[a](b" + spaces + "x",
    "[a](b)" + spaces + "\\rx",
    "- [a](https://example.com/" + "/".repeat(MB) + "x)",
    "- [a](https://example.com/" + "(".repeat(MB) + "x",
    "- [a](https://example.com/" + "()".repeat(MB / 2) + "x)",
  ];
  out.llms = lib.parseLlmsTxt(lines.join("\\n")).entries.length;
  out.sitemap = lib.parseSitemap("<urlset>" + "<url>".repeat(MB / 5) + "<url><loc>https://e.com/a</loc></url></urlset><junk").entries.length;
  out.title = lib.titleFromUrl("https://example.com/" + "a-".repeat(MB / 2) + "1").length > 0;
  out.slashes = lib.titleFromUrl("https://example.com/" + "/".repeat(MB) + "x").length > 0;
  parentPort.postMessage(out);
}, (error) => parentPort.postMessage({ error: String(error) }));
`;

/**
 * The folder server's document readers (packages/cli/src/, bundled into the bin, not exported by the
 * library): the HTML converter, the title rules and the snippet text, on 256 KB attack strings
 * of every construct they read. Each takes well under a second when linear (about 3 s for all
 * of them); a quadratic one still takes minutes at this size. The worker imports an esbuild
 * bundle of the sources, written to a temporary folder.
 */
const CLI_WORKER = (bundle: string) => `
const { parentPort } = require("node:worker_threads");
import(${JSON.stringify(bundle)}).then((cli) => {
  const MB = 256 * 1024;
  const out = {};
  const html = (page) => cli.convertHtml(page, { baseUrl: "https://example.com/a/b.html" }).markdown.length;
  out.preNested = html("<pre>".repeat(MB / 5) + "x");
  out.preBackticks = html("<pre>" + "\`".repeat(MB) + "</pre>");
  out.preSpans = html("<pre>" + "<span>  x\\n".repeat(MB / 10) + "</pre>");
  out.tablesNested = html("<table><tr><td>".repeat(MB / 15) + "x");
  out.cells = html("<table>" + "<td>a|".repeat(MB / 6) + "</table>");
  out.rows = html("<table>" + "<tr><th>h".repeat(MB / 9));
  out.links = html('<a href="x">'.repeat(MB / 12) + "</a>".repeat(MB / 12));
  out.emptyLinks = html('<a href="../x">'.repeat(MB / 14));
  out.strayCloses = html("<div>".repeat(MB / 10) + "</span>".repeat(MB / 14));
  out.mains = html('<div role="main">'.repeat(MB / 17) + "x");
  out.chrome = html("<nav>".repeat(MB / 10) + "x" + "</nav>".repeat(MB / 12));
  out.headings = html("<h1>".repeat(MB / 8) + "x");
  out.anchors = html("<h2>x" + " #".repeat(MB / 4) + "</h2>");
  out.title = cli.extractDocument("a.html", "<h1>x" + " #".repeat(MB / 2)).title.length;
  const md = (text) => cli.extractDocument("a.md", text).title.length;
  out.mdImages = md("# " + "![](".repeat(MB / 4));
  out.mdBrackets = md("# " + "[".repeat(MB));
  out.mdEmphasis = md("# " + "*".repeat(MB) + "x");
  out.mdUnderscores = md("# " + "_a".repeat(MB / 2));
  out.mdGenericLines = md("# Installation\\n".repeat(MB / 15) + "# x");
  out.mdHtmlHeading = md('<h1 align="center">' + "<img alt=x ".repeat(MB / 12));
  out.text = [
    "[".repeat(MB),
    "![a](".repeat(MB / 5),
    "[a](" + "x".repeat(MB),
    "<a".repeat(MB / 2),
    "|".repeat(MB) + "\\\\|".repeat(MB / 2),
    "<!--".repeat(MB / 4),
    "-".repeat(MB) + "x",
    "*_~".repeat(MB / 3) + "a",
    "[[".repeat(MB / 2),
    "[[a|".repeat(MB / 4),
    "![[x".repeat(MB / 4),
  ].map((text) => cli.markdownToText(text).length);
  out.contents = ["- [a](#" + "b".repeat(MB), "- [" + "[".repeat(MB) + "](#a)", "1. [a](#b" + " ".repeat(MB) + "x"].map((text) => cli.markdownToText(text, { contents: false }).length);
  out.frontMatter = [
    "---\\n" + "a: b\\n".repeat(MB / 5),
    "---\\n" + "title: " + "[".repeat(MB / 2),
    "---\\n" + "x".repeat(MB) + "\\n---\\n",
  ].map((text) => cli.extractDocument("a.md", text).title.length);
  parentPort.postMessage(out);
}, (error) => parentPort.postMessage({ error: String(error) }));
`;

function runBounded(code = WORKER): Promise<Record<string, unknown>> {
  return runBoundedWorker(code, BOUND_MS, `pathological inputs still running after ${BOUND_MS} ms: a super-linear pattern?`);
}

describe("regex safety", () => {
  it("normalises, tokenises, ranks, expands and parses 1 MB pathological strings within a generous bound", async () => {
    const out = await runBounded();
    expect(out).toStrictEqual({
      normalize: Math.floor((1024 * 1024) / 5) * 5 - 1, // "acao acao … acao", trimmed
      tokenize: 1,
      search: 1,
      searchOneWord: 0,
      crossReferences: 2, // "1, «xy xy …" never closes, and «xy» comes four spaces after its number: both keep "xy"
      longTitles: [1, 1, 0],
      vocabulary: true, // only at the start of "rendimentos", never inside "xrenda"
      vocabularyLongQuery: false,
      llms: 2, // the balanced "()()…" URL is read whole; the unclosed "((…" one is not a link
      sitemap: 1, // the full parse fails on the junk; the one closed <url> block is read on its own
      title: true,
      slashes: true,
    });
  }, BOUND_MS + 10_000);

  it("converts HTML and reads titles and snippet text of 256 KB pathological documents within the same bound", async () => {
    const folder = await mkdtemp(join(tmpdir(), "mcp-search-cli-bundle-"));
    try {
      const bundle = join(folder, "cli.mjs");
      const root = fileURLToPath(new URL("../..", import.meta.url));
      const built = await build({
        stdin: {
          contents: 'export { convertHtml } from "./packages/cli/src/formats/html.ts"; export { extractDocument } from "./packages/cli/src/formats/documents.ts"; export { markdownToText } from "./packages/cli/src/formats/markdown.ts";',
          resolveDir: root,
          loader: "ts",
        },
        bundle: true,
        format: "esm",
        platform: "node",
        write: false,
      });
      await writeFile(bundle, built.outputFiles[0]?.text ?? "");
      const out = await runBounded(CLI_WORKER(pathToFileURL(bundle).href));
      expect(out["error"]).toBeUndefined();
      expect(out).toMatchObject({
        preNested: 9, // "```\nx\n```": the nested <pre> tags are one block
        title: 1, // "x": the heading's " #" runs are anchors
        mdGenericLines: 1, // "x", after 17 476 generic headings
        mdEmphasis: 4, // "a.md": the first 600 characters of the heading are all marks
        text: expect.any(Array),
        contents: expect.any(Array),
        // "a.md": no block closes within 8 KiB; the last one's 256 KB line, then text, is a setext
        // heading under its "---", its title cut at 100 characters
        frontMatter: [4, 4, 100],
      });
      expect(Object.values(out).every((value) => typeof value === "number" || Array.isArray(value))).toBe(true);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, BOUND_MS + 30_000);
});
