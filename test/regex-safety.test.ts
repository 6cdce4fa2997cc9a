/**
 * Regex safety, as a guard and not a timing: pathological strings (1 MB, and the attack strings
 * that made the old patterns quadratic) go through every public function that runs a regular
 * expression, and through createIndex with 1 MB titles that hold no separator, in a worker
 * against the BUILT package. The bound is generous (20 s for work that takes well under a second
 * when linear); a quadratic pattern at these sizes takes minutes.
 * The static check of every pattern in src/ is `npm run lint:regexp` (eslint-plugin-regexp),
 * part of `npm test`.
 */
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";

const BOUND_MS = 20_000;

/** Runs inside the worker; returns a summary of each case so the result is checked, not only timed. */
const WORKER = `
const { parentPort } = require("node:worker_threads");
Promise.all([import(${JSON.stringify(new URL("../dist/index.js", import.meta.url).href)}), import(${JSON.stringify(new URL("../dist/site.js", import.meta.url).href)})]).then(([main, site]) => {
  const lib = { ...main, ...site };
  const MB = 1024 * 1024;
  const spaces = " ".repeat(MB);
  const out = {};
  out.normalize = lib.normalizeText("Ação ".repeat(MB / 5) + "\\u0301".repeat(MB)).length;
  out.tokenize = lib.tokenize("população-".repeat(MB / 10)).length;
  const index = lib.createIndex([{ id: "a", title: "População", url: "https://x/a", text: "x".repeat(MB) }]);
  out.search = index.search("popula" + "cao ".repeat(MB / 4)).length;
  out.searchOneWord = index.search("a".repeat(MB)).length;
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

function runBounded(): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error(`pathological inputs still running after ${BOUND_MS} ms: a super-linear pattern?`));
    }, BOUND_MS);
    worker.once("message", (message: Record<string, unknown>) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(message);
    });
    worker.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

describe("regex safety", () => {
  it("normalises, tokenises, ranks, expands and parses 1 MB pathological strings within a generous bound", async () => {
    const out = await runBounded();
    expect(out).toStrictEqual({
      normalize: Math.floor((1024 * 1024) / 5) * 5 - 1, // "acao acao … acao", trimmed
      tokenize: 1,
      search: 1,
      searchOneWord: 0,
      longTitles: [1, 1, 0],
      vocabulary: true, // only at the start of "rendimentos", never inside "xrenda"
      vocabularyLongQuery: false,
      llms: 2, // the balanced "()()…" URL is read whole; the unclosed "((…" one is not a link
      sitemap: 1, // the full parse fails on the junk; the one closed <url> block is read on its own
      title: true,
      slashes: true,
    });
  }, BOUND_MS + 10_000);
});
