/**
 * `npx tsx --expose-gc bench/language-detection.ts [--corpora a,b]`: how often a text's language is found, per
 * language of the library, on the relevance bench's corpora (bench/_language-corpora.ts), by the
 * library's markers alone, by eld alone (the folder server's detector, packages/cli/src/folder/detector.ts)
 * and by both as the index chains them (the markers first, eld when they cannot tell). The detectors read what the index gives them: the folded words (lower case, no
 * accents). Three lengths:
 * - document: a whole document's first 400 words;
 * - title: a query of the corpus, a section or page title, whatever its length;
 * - 2-5 words: the titles of two to five words.
 *
 * The expected language is the corpus's. A translation's page left in English counts as wrong,
 * so no detector reaches 100 % on documents. Results, and what loading eld costs (time, and the
 * heap and resident memory it keeps once collected), go to docs/performance.md.
 */
import { LANGUAGES, type Language } from "../src/languages/index.js";
import { splitWords } from "../src/ranking/analysis/analyze.js";
import { detectLanguage } from "../src/ranking/analysis/language.js";
import { ELD_DETECTOR } from "../packages/cli/src/folder/detector.js";
import { loadLanguageCorpora } from "./_language-corpora.js";
import { documentsOf } from "./relevance-languages.js";

const args = process.argv.slice(2);
const at = args.indexOf("--corpora");
const names = at >= 0 ? args[at + 1]?.split(",") : undefined;
const collected = (): NodeJS.MemoryUsage => {
  globalThis.gc?.();
  return process.memoryUsage();
};
const before = collected();
const started = performance.now();
const eld = ELD_DETECTOR;
eld.detect("load");
const loadMs = performance.now() - started;
const after = collected();
const kept = (key: "heapUsed" | "rss") => `${((after[key] - before[key]) / 2 ** 20).toFixed(1)} MB`;
const { corpora } = loadLanguageCorpora(names);
const ours = corpora.filter((corpus) => (LANGUAGES as readonly string[]).includes(corpus.language));

type Method = "markers" | "eld" | "markers, then eld";
const methods: Record<Method, (words: readonly string[]) => Language | undefined> = {
  markers: (words) => detectLanguage(words),
  eld: (words) => pick(eld.detect(words.slice(0, 400).join(" "))),
  "markers, then eld": (words) => detectLanguage(words, eld),
};
const pick = (code: string | undefined): Language | undefined => ((LANGUAGES as readonly string[]).includes(code ?? "") ? (code as Language) : undefined);

/** Per language and length: texts, then hits per method. */
const tally = new Map<string, { n: number; hits: Record<Method, number> }>();
const count = (language: string, length: string, words: readonly string[]) => {
  if (words.length === 0) return;
  const key = `${language} ${length}`;
  const row = tally.get(key) ?? { n: 0, hits: { markers: 0, eld: 0, "markers, then eld": 0 } };
  row.n += 1;
  for (const method of Object.keys(methods) as Method[]) if (methods[method](words) === language) row.hits[method] += 1;
  tally.set(key, row);
};
for (const corpus of ours) {
  for (const doc of await documentsOf(corpus)) count(corpus.language, "document", splitWords(`${doc.title}\n${doc.text}`, "words").slice(0, 400));
  for (const { query } of corpus.queries) {
    const words = splitWords(query, "words");
    count(corpus.language, "title", words);
    if (words.length >= 2 && words.length <= 5) count(corpus.language, "2-5 words", words);
  }
}
const percent = (hits: number, n: number) => `${((100 * hits) / n).toFixed(0)} %`;
const lines = [`${eld.name} loaded in ${loadMs.toFixed(0)} ms, keeping ${kept("heapUsed")} of heap and ${kept("rss")} of resident memory${globalThis.gc === undefined ? " (uncollected: run with --expose-gc)" : ""}`, "| language | length | texts | markers | eld | markers, then eld |", "| - | - | -: | -: | -: | -: |"];
for (const [key, { n, hits }] of tally) {
  const [language, ...length] = key.split(" ");
  lines.push(`| ${language} | ${length.join(" ")} | ${n} | ${percent(hits.markers, n)} | ${percent(hits.eld, n)} | ${percent(hits["markers, then eld"], n)} |`);
}
process.stdout.write(`${lines.join("\n")}\n`);
