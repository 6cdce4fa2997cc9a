/**
 * How runs of Han and kana are cut, measured on every Japanese and Chinese corpus of the
 * relevance bench (issue 43): BM25F (src/ranking/bm25/core.ts, the folder server's parameters and
 * stemmers) with character bigrams, `Intl.Segmenter` words, and both indexed together (Lucene's
 * CJK practice), beside the folder server itself and a plain Okapi BM25 over character bigrams
 * and over the folder server's own tokens (`Intl.Segmenter` words, folded as the index folds):
 * the floor issue 43 sets each analysis, "the plain BM25 with the same tokens".
 *
 * `KUROMOJI=/path/to/node_modules/kuromoji` adds kuromoji (IPADIC, Japanese only) for the ja
 * corpora, installed in a scratch folder (`npm install kuromoji` there): each run of Han and kana
 * is cut by it before the index sees the text, every word it gives made one opaque ASCII word
 * (its code points), so the index's own segmentation never cuts it again. It prints what
 * kuromoji costs too: its load time and heap, and its time to cut the corpus.
 *
 * `npx tsx bench/cjk-segmentation.ts [--corpora a,b]`
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import type { LoadedDocument } from "../packages/cli/src/folder/folder.js";
import { SNOWBALL_STEMMERS } from "../packages/cli/src/folder/stemmers.js";
import { languageOfLocale } from "../packages/cli/src/cli/locale.js";
import { createBm25Ranking } from "../src/ranking/bm25/core.js";
import { BM25_DEFAULTS } from "../src/ranking/bm25/parameters.js";
import { foldText } from "../src/ranking/analysis/fold.js";
import { forEachWord, type Segmentation } from "../src/ranking/analysis/tokenize.js";
import { CORPORA, loadLanguageCorpora, type LanguageCorpus } from "./_language-corpora.js";
import { documentsOf, evaluate, folderServer, localeOf, type Engine } from "./relevance-languages.js";
import { okapi, unicodeWordsCjkBigrams } from "./_okapi.js";

const args = process.argv.slice(2);
const at = args.indexOf("--corpora");
const names = at >= 0 ? (args[at + 1] ?? "").split(",") : CORPORA.filter((c) => c.language === "ja" || c.language === "zh").map((c) => c.name);

type Cut = (text: string) => string;

const bm25 = (name: string, segmentation: Segmentation, cut: Cut = (text) => text): Engine => ({
  name: `BM25F, ${name}`,
  short: name,
  build: async (corpus, documents) => {
    const fallback = languageOfLocale(localeOf(corpus.language));
    const entries = documents.map(({ id, title, url, text }) => ({ id, title: cut(title), url, text: cut(text) }));
    const ranking = createBm25Ranking(entries, { ...BM25_DEFAULTS, analysis: { ...BM25_DEFAULTS.analysis, fallback, stemmers: SNOWBALL_STEMMERS, segmentation } });
    return (query) => ranking.search(cut(query), 10).map((hit) => hit.id);
  },
});

const RUN = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u30fc]+/gu;
/** A word of kuromoji's as one ASCII word: "k", then each code point in 4 base-36 digits. */
const opaque = (word: string) => `k${[...word].map((c) => c.codePointAt(0)!.toString(36).padStart(4, "0")).join("")}`;

interface KuromojiToken { readonly surface_form: string; readonly pos: string }
interface Kuromoji { tokenize(text: string): KuromojiToken[] }

async function loadKuromoji(dir: string): Promise<{ cut: Cut; loadMs: number; heapMb: number }> {
  const require = createRequire(import.meta.url);
  const kuromoji = require(dir) as { builder(o: { dicPath: string }): { build(cb: (e: unknown, t: Kuromoji) => void): void } };
  globalThis.gc?.();
  const heap = process.memoryUsage().heapUsed;
  const start = performance.now();
  const tokenizer = await new Promise<Kuromoji>((resolve, reject) => kuromoji.builder({ dicPath: join(dir, "dict") }).build((e, t) => (e ? reject(e) : resolve(t))));
  const loadMs = performance.now() - start;
  globalThis.gc?.();
  const heapMb = (process.memoryUsage().heapUsed - heap) / 2 ** 20;
  // Punctuation and symbols (記号) are not words, as `Intl.Segmenter`'s are not.
  const cut: Cut = (text) => text.replace(RUN, (run) => ` ${tokenizer.tokenize(run).filter((t) => t.pos !== "記号").map((t) => opaque(t.surface_form)).join(" ")} `);
  return { cut, loadMs, heapMb };
}

const kuromojiDir = process.env["KUROMOJI"];
const kuromoji = kuromojiDir === undefined ? undefined : await loadKuromoji(kuromojiDir);
if (kuromoji !== undefined) process.stdout.write(`kuromoji: loaded in ${kuromoji.loadMs.toFixed(0)} ms, ${kuromoji.heapMb.toFixed(1)} MB of heap\n`);

const plain: Engine = { name: "Okapi BM25, character bigrams", short: "BM25 bigrams", build: async (_, documents) => okapi(documents, unicodeWordsCjkBigrams) };
/** The index's own words, as `segmentation: "words"` cuts them. */
const indexWords = (text: string): string[] => {
  const words: string[] = [];
  forEachWord(foldText(text), "words", (word) => words.push(word));
  return words;
};
const plainWords: Engine = { name: "Okapi BM25, the index's words", short: "BM25 words", build: async (_, documents) => okapi(documents, indexWords) };

function enginesFor(corpus: LanguageCorpus, documents: readonly LoadedDocument[]): Engine[] {
  const engines = [folderServer, bm25("bigrams", "bigrams"), bm25("words", "words"), bm25("both", "both"), plain, plainWords];
  if (kuromoji !== undefined && corpus.language === "ja") {
    const chars = documents.reduce((sum, d) => sum + d.text.length + d.title.length, 0);
    const start = performance.now();
    for (const d of documents) kuromoji.cut(d.text);
    const ms = performance.now() - start;
    process.stdout.write(`kuromoji on ${corpus.name}: ${(chars / 1e6).toFixed(1)} M characters cut in ${(ms / 1000).toFixed(1)} s\n`);
    engines.push(bm25("kuromoji", "words", kuromoji.cut));
  }
  return engines;
}

const { corpora } = loadLanguageCorpora(names);
const summary: string[] = [];
for (const corpus of corpora) {
  const documents = await documentsOf(corpus);
  const { rows } = await evaluate(corpus, enginesFor(corpus, documents));
  summary.push(`| ${corpus.name} | ${corpus.role} | ${rows.map((r) => `${r.short} ${r.mrr.toFixed(3)} ${r.recall10.toFixed(3)}`).join(" | ")} |`);
  process.stdout.write(`${summary.at(-1)!}\n`);
}
process.stdout.write(`\n(MRR@10 recall@10 per engine)\n${summary.join("\n")}\n`);
