/**
 * The coordination's decay δ (src/ranking/bm25/parameters.ts) on sentence-long queries, fitted on
 * the development corpora of the relevance bench only (issue 43). Their queries are titles, a
 * few words long; the test corpus of whole READMEs asks with a README's first sentence, and
 * there the coordination mostly penalises a document for one of many words it lacks. This bench
 * asks the development corpora the same kind of question: each document's first sentence of prose
 * (its first paragraph of four words or more, up to the first ".", "!", "?" or "。"), cut from
 * its text as the READMEs' is, is the query that names it; a "sentence" of fewer than three words
 * (a section number, "2.12.") or a text that would keep less than 200 characters asks nothing. At most 300 queries per corpus, thinned evenly.
 *
 * It prints MRR@10 of BM25F (the folder server's parameters and stemmers) for δ = 1, 2 and 3.
 *
 * `npx tsx bench/verbose-queries.ts [--corpora a,b]`
 */
import { SNOWBALL_STEMMERS } from "../packages/cli/src/folder/stemmers.js";
import { ELD_DETECTOR } from "../packages/cli/src/folder/detector.js";
import { languageOfLocale } from "../packages/cli/src/cli/locale.js";
import { createBm25Ranking } from "../src/ranking/bm25/core.js";
import { BM25_DEFAULTS } from "../src/ranking/bm25/parameters.js";
import { CORPORA, loadLanguageCorpora } from "./_language-corpora.js";
import { documentsOf, localeOf } from "./relevance-languages.js";

const args = process.argv.slice(2);
const at = args.indexOf("--corpora");
const names = at >= 0 ? (args[at + 1] ?? "").split(",") : CORPORA.filter((c) => c.role === "development").map((c) => c.name);
const DECAYS = [1, 2, 3];
const MAX_QUERIES = 300;

/** A paragraph long enough to be prose: four words, or twelve characters of a spaceless script. */
const PROSE = (paragraph: string) => paragraph.trim().split(/\s+/).length >= 4 || /[\u3040-\u9fff]{12}/u.test(paragraph);
const SENTENCE = /^.+?[.!?。！？](?=\s|$|[^.!?])/su;

/** The document's first sentence, and its text without it; undefined when it asks nothing. */
function openingOf(text: string): { query: string; rest: string } | undefined {
  const paragraphs = text.split(/\n\s*\n/);
  const first = paragraphs.findIndex(PROSE);
  if (first < 0) return undefined;
  const prose = paragraphs[first]!.replace(/\s+/g, " ").trim();
  const query = SENTENCE.exec(prose)?.[0] ?? prose;
  const rest = [...paragraphs.slice(0, first), prose.slice(query.length).trim(), ...paragraphs.slice(first + 1)].join("\n\n").trim();
  const words = query.split(" ").length >= 3 || /[\u3040-\u9fff]{8}/u.test(query);
  return words && rest.length >= 200 ? { query, rest } : undefined;
}

const { corpora, missing } = loadLanguageCorpora(names);
for (const name of missing) process.stdout.write(`skipped ${name}: not installed\n`);
process.stdout.write(`| corpus | queries | ${DECAYS.map((decay) => `δ = ${decay}`).join(" | ")} |\n| - | -: | ${DECAYS.map(() => "-:").join(" | ")} |\n`);
for (const corpus of corpora) {
  const documents = await documentsOf(corpus);
  const queries: { query: string; answer: string }[] = [];
  const entries = documents.map(({ id, title, url, text }) => {
    const opening = openingOf(text);
    if (opening !== undefined) queries.push({ query: opening.query, answer: id });
    return { id, title, url, text: opening?.rest ?? text };
  });
  const step = Math.max(1, Math.floor(queries.length / MAX_QUERIES));
  const asked = queries.filter((_, i) => i % step === 0).slice(0, MAX_QUERIES);
  const fallback = languageOfLocale(localeOf(corpus.language));
  const cells = DECAYS.map((coordinationDecay) => {
    const ranking = createBm25Ranking(entries, { ...BM25_DEFAULTS, coordinationDecay, analysis: { ...BM25_DEFAULTS.analysis, fallback, stemmers: SNOWBALL_STEMMERS, detector: ELD_DETECTOR } });
    let mrr = 0;
    for (const { query, answer } of asked) {
      const rank = ranking.search(query, 10).findIndex((hit) => hit.id === answer);
      if (rank >= 0) mrr += 1 / (rank + 1);
    }
    return (mrr / Math.max(1, asked.length)).toFixed(4);
  });
  process.stdout.write(`| ${corpus.name} | ${asked.length} | ${cells.join(" | ")} |\n`);
}
