/**
 * Inputs that were quadratic through list searches (`includes`, `indexOf`, a list copied per
 * item), not through a regular expression: a sitemap index of many `<sitemap>` entries, a
 * vocabulary word with many sources, many phrases sharing a first word, a query full of
 * distinct dates, and a text whose words were made to share one hash (the snippets' word
 * lookup, 32 s before its chains of one hash were capped, 0.1 s after). Each case runs in a
 * worker against the BUILT package and is timed on its own.
 * Measured on two cores before the fix: 2.3 to 31 s for each case at these sizes (6.2 s for
 * 60,000 sitemaps, 13 s for a word of 60,000 sources, 31 s for 60,000 phrases, 13 s for 60,000
 * dates), and 0.1 to 3 s after. The bound per case sits between the two. In the extra tier: the
 * dates alone take about 3 s when linear (chrono's own parse), over `npm test`'s budget.
 * The pattern cases are test/extra/regex-safety.test.ts.
 */
import { describe, expect, it } from "vitest";
import { runBoundedWorker } from "./_bounded-worker.js";

/**
 * A case that takes longer than this alone is not linear (see the measures above): at these
 * sizes the quadratic code took 13 s and more for every case but the sitemap index (which grows
 * as the square of 120,000 entries from 6.2 s at 60,000), while the linear code took at most 8.2 s
 * on a machine with a load average of 11.
 */
const CASE_BOUND_MS = 12_000;

const WORKER = `
const { parentPort } = require("node:worker_threads");
Promise.all(["index", "site/sitemap", "site/dates"].map((entry) => import(new URL("../../dist/" + entry + ".js", ${JSON.stringify(import.meta.url)}).href))).then((entries) => {
  const lib = Object.assign({}, ...entries);
  const N = 60000;
  const out = {};
  const timed = (name, run) => {
    const started = performance.now();
    const value = run();
    out[name] = { value, ms: Math.round(performance.now() - started) };
  };
  const index = "<sitemapindex>" + Array.from({ length: 2 * N }, (_, i) => "<sitemap><loc>https://e.com/s" + i + ".xml</loc></sitemap>").join("") + "</sitemapindex>";
  timed("sitemapIndex", () => lib.parseSitemap(index).sitemaps.length);
  timed("manySources", () => {
    const vocab = lib.createVocabulary({ locale: "en", sourceName: "x", entries: [{ asked: "income", source: Array.from({ length: N }, (_, i) => "source" + i) }] });
    const expanded = vocab.expandQuery("income");
    return [expanded[0].patterns.length, vocab.vocabularyNotes(expanded).length];
  });
  timed("sharedFirstWord", () => {
    const vocab = lib.createVocabulary({ locale: "en", sourceName: "x", entries: Array.from({ length: N }, (_, i) => ({ asked: "blood w" + i, source: ["x"] })) });
    return vocab.queryTerms("blood w7 pressure");
  });
  const days = [];
  for (let year = 1901; year <= 2100; year += 1) for (let month = 1; month <= 12; month += 1) for (let day = 1; day <= 28; day += 1) days.push(String(day).padStart(2, "0") + "/" + String(month).padStart(2, "0") + "/" + year);
  timed("distinctDates", () => lib.findDates(days.join(" ")).dates.length);
  // 65,536 distinct words of one hash: "c0" and "an" share one, so every word of 16 of them does.
  const sameHash = Array.from({ length: 65536 }, (_, i) => Array.from({ length: 16 }, (_, b) => ((i >> b) & 1 ? "an" : "c0")).join(""));
  timed("sameHashWords", () => {
    const { matcher } = lib.createIndex([{ id: "a", title: "A", url: "https://e.com/a", text: "zebra" }], { ranking: "bm25" }).searchWithMatcher("zebra");
    return matcher.findMatches(sameHash.join(" ") + " zebra").length;
  });
  parentPort.postMessage(out);
}, (error) => parentPort.postMessage({ error: String(error) }));
`;

function runWorker(): Promise<Record<string, { value: unknown; ms: number }>> {
  // Five cases, each bounded: past this, one of them is quadratic and still running.
  return runBoundedWorker(WORKER, 5 * CASE_BOUND_MS, "the list cases are still running: a quadratic one?");
}

describe("pathological lists", () => {
  it("reads a 120,000-entry sitemap index, a word of 60,000 sources, 60,000 phrases sharing a first word, 67,200 distinct dates and 65,536 words of one hash in linear time", async () => {
    const out = await runWorker();
    expect(out["error"]).toBeUndefined();
    expect(Object.fromEntries(Object.entries(out).map(([name, { value }]) => [name, value]))).toStrictEqual({
      sitemapIndex: 120_000,
      manySources: [60_001, 1],
      sharedFirstWord: ["blood w7", "pressure"],
      distinctDates: 67_200, // every day 1 to 28 of every month, 1901 to 2100 (the default year window)
      sameHashWords: 1,
    });
    for (const [name, { ms }] of Object.entries(out)) expect(ms, name).toBeLessThan(CASE_BOUND_MS);
  }, 7 * CASE_BOUND_MS);
});
