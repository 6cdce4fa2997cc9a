/**
 * Does BM25 need a Spanish word list? Known-item search over the Spanish manual pages of Debian
 * (`apt-get install manpages-es`, GPL-3+, /usr/share/man/es): each page's one-line description
 * (the NOMBRE line, "ls - lista el contenido de un directorio") is the query, the page without
 * that line is the document, and its title is the bare command name, so the query meets the
 * page only through the body's words.
 *
 * Two tokenisations, on the same library BM25F (`createBm25Ranking`, default parameters):
 * - "as shipped": the ranking's own list of Portuguese and English function words;
 * - "+ Spanish list": the same, with the Spanish function words below removed from documents
 *   and queries first, which is what adding them to the ranking's list would do (a stopword is
 *   never a token, so it counts neither in a field's length nor in a query).
 *
 * Metrics: MRR@10, recall@1, recall@10, and the mean number of documents a query matches at all
 * (a score above 0), the noise a folder server reports as "N documents match".
 *
 * Run: `npx tsx bench/spanish-bm25.ts` (skips with a message when manpages-es is missing).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { createBm25Ranking } from "../src/ranking/bm25/core.js";
import { normalizeText } from "../src/ranking/normalize.js";

const ROOT = "/usr/share/man/es";

/**
 * The Spanish function words measured: articles, contractions, the commonest prepositions,
 * conjunctions and pronouns that the Portuguese and English list lacks. Words that are also
 * English words ("sin", "sus", "un" as in UN) are left out on purpose.
 */
export const SPANISH_FUNCTION_WORDS = [
  "el", "la", "los", "las", "lo", "una", "unos", "unas", "del", "al", "y", "en", "con", "sobre",
  "su", "es", "le", "les", "como", "pero", "mas", "muy", "este", "esta", "estos", "estas", "cuando",
  "donde", "hasta", "desde", "entre", "si", "ya", "tambien",
];

interface Page {
  readonly id: string;
  readonly title: string;
  readonly text: string;
  readonly query: string;
}

/** The roff of one page as plain text: requests and font escapes dropped. */
function plain(roff: string): string {
  return roff
    .split("\n")
    .filter((line) => !line.startsWith(".\\\"") && !line.startsWith("'\\\""))
    .map((line) => line.replace(/^\.[A-Za-z]{1,3}\s?/, ""))
    .join("\n")
    .replace(/\\f[BIRP]|\\f\(..|\\[-e&/,]|\\\(..|\\\*\(..|\\s[+-]?\d/g, (escape) => (escape === "\\-" ? "-" : " "));
}

function loadPages(): Page[] {
  const pages: Page[] = [];
  for (const section of readdirSync(ROOT)) {
    for (const file of readdirSync(join(ROOT, section))) {
      if (!file.endsWith(".gz")) continue;
      const roff = gunzipSync(readFileSync(join(ROOT, section, file))).toString("utf8");
      if (/^\.so /m.test(roff) && roff.length < 200) continue; // a link to another page
      const text = plain(roff);
      const name = /^NOMBRE\s*\n([^\n]+)/m.exec(text);
      const line = name?.[1] ?? "";
      const dash = line.indexOf(" - ");
      if (dash === -1) continue;
      const query = line.slice(dash + 3).trim();
      if (query.split(/\s+/).length < 3) continue;
      pages.push({ id: `${section}/${file}`, title: file.replace(/\.\w+\.gz$/, ""), text: text.replace(line, ""), query });
    }
  }
  return pages;
}

const FUNCTION_WORDS = new Set(SPANISH_FUNCTION_WORDS);
const withoutFunctionWords = (text: string): string =>
  normalizeText(text)
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "" && !FUNCTION_WORDS.has(word))
    .join(" ");

interface Row {
  readonly variant: string;
  readonly mrr: number;
  readonly recall1: number;
  readonly recall10: number;
  readonly matched: number;
}

function measure(variant: string, pages: readonly Page[], prepare: (text: string) => string): Row {
  const ranking = createBm25Ranking(pages.map((page) => ({ id: page.id, title: prepare(page.title), url: `man:${page.id}`, text: prepare(page.text) })));
  let mrr = 0;
  let recall1 = 0;
  let recall10 = 0;
  let matched = 0;
  for (const page of pages) {
    const query = prepare(page.query);
    const top = ranking.search(query, 10).map((hit) => hit.id);
    const rank = top.indexOf(page.id);
    if (rank !== -1) mrr += 1 / (rank + 1);
    if (rank === 0) recall1 += 1;
    if (rank !== -1) recall10 += 1;
    matched += ranking.scores(query).filter((score) => score > 0).length;
  }
  const n = pages.length;
  return { variant, mrr: mrr / n, recall1: recall1 / n, recall10: recall10 / n, matched: matched / n };
}

/** Distinct tokens ending in consonant + "es" whose form without "es" is also a token. */
function splitPlurals(pages: readonly Page[]): { pairs: number; examples: string[] } {
  const tokens = new Set(pages.flatMap((page) => normalizeText(page.text).split(/[^a-z0-9]+/)));
  const pairs = [...tokens].filter((token) => token.length > 4 && /[^aeiou]es$/.test(token) && tokens.has(token.slice(0, -2)));
  return { pairs: pairs.length, examples: pairs.slice(0, 8) };
}

if (!existsSync(ROOT)) {
  console.log(`${ROOT} is missing: apt-get install manpages-es, then run again.`);
} else {
  const pages = loadPages();
  console.log(`${pages.length} Spanish manual pages with a NOMBRE description of 3 words or more (manpages-es)\n`);
  console.log("variant          MRR@10  recall@1  recall@10  documents matched per query");
  for (const row of [measure("as shipped", pages, (text) => text), measure("+ Spanish list", pages, withoutFunctionWords)]) {
    const pct = (x: number) => `${(100 * x).toFixed(1)}%`.padStart(8);
    console.log(`${row.variant.padEnd(15)} ${row.mrr.toFixed(3).padStart(7)} ${pct(row.recall1)} ${pct(row.recall10).padStart(10)}  ${row.matched.toFixed(1).padStart(8)} of ${pages.length}`);
  }
  const split = splitPlurals(pages);
  console.log(`\nSpanish plurals in -es whose singular is also a word of the pages, split by the plural fold: ${split.pairs} (${split.examples.join(", ")})`);
}
