/**
 * createIndex against MiniSearch 7, FlexSearch 0.8 and the plain scan, on real catalogues scaled
 * to 10k and 100k entries (bench/_corpora.ts). vitest's hz covers the whole query set per
 * iteration; build time, heap after build and per-query p50/p99 are measured in `beforeAll` and
 * printed as a table with ratios to MiniSearch. The setup throws if createIndex and the plain
 * scan disagree on any query. A last case builds an index over one 1 MB title with no separator,
 * the input that once made the build super-linear. Run: `npm run bench` (the script passes
 * --expose-gc).
 */
import { Document, Resolver } from "flexsearch";
import MiniSearch from "minisearch";
import { bench, describe } from "vitest";
import { createIndex, tokenize, type IndexEntry } from "../src/index.js";
import { buildCorpus, buildQueries, type CorpusLanguage } from "./_corpora.js";
import { createPlainScan } from "./_plain-scan.js";

type Search = (query: string, limit?: number) => readonly unknown[];
type EngineName = "createIndex" | "createIndex bm25" | "MiniSearch" | "FlexSearch" | "plain scan";

const BOOSTS = { idText: 10, title: 3, keywords: 2, text: 1 } as const;
const FIELDS = Object.keys(BOOSTS) as (keyof typeof BOOSTS)[];

/** The same fields, tokeniser, boosts and prefix rule for every engine; fuzzy off. */
const ENGINES: Record<EngineName, (entries: readonly IndexEntry[]) => Search> = {
  createIndex: (entries) => {
    const index = createIndex(entries);
    return (query, limit = 10) => index.search(query, { limit });
  },
  "createIndex bm25": (entries) => {
    const index = createIndex(entries, { ranking: "bm25" });
    return (query, limit = 10) => index.search(query, { limit });
  },
  MiniSearch: (entries) => {
    const index = new MiniSearch<IndexEntry>({
      fields: FIELDS,
      storeFields: ["title", "url"],
      tokenize,
      processTerm: (term) => term,
      extractField: (entry, field) =>
        field === "idText" ? entry.id : field === "keywords" ? (entry.keywords ?? []).join(" ") : (entry as never)[field],
      searchOptions: { boost: BOOSTS, prefix: (term) => term.length >= 3, fuzzy: false, combineWith: "OR" },
    });
    index.addAll(entries as IndexEntry[]);
    return (query, limit = 10) => index.search(query).slice(0, limit);
  },
  FlexSearch: (entries) => {
    const field = (name: string) => ({ field: name, tokenize: "forward", encoder: { normalize: false }, encode: tokenize });
    const index = new Document({ document: { id: "id", index: FIELDS.map(field), store: ["title", "url"] } } as never);
    for (const entry of entries) {
      index.add({ id: entry.id, idText: entry.id, title: entry.title, keywords: (entry.keywords ?? []).join(" "), text: entry.text ?? "" } as never);
    }
    return (query, limit = 10) => {
      let resolver: { or(options: never): unknown } | undefined;
      for (const name of FIELDS) {
        const options = { index, query, field: name, boost: BOOSTS[name], suggest: true } as never;
        resolver = (resolver === undefined ? new Resolver(options) : resolver.or(options)) as typeof resolver;
      }
      return (resolver as unknown as { resolve(o: object): unknown[] }).resolve({ limit });
    };
  },
  "plain scan": (entries) => {
    const scan = createPlainScan(entries);
    return (query, limit = 10) => scan.search(query, limit);
  },
};

const gc = (globalThis as { gc?: () => void }).gc;
const heapMb = (): number => {
  gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

interface Measured {
  search: Search;
  buildMs: number;
  heapMb: number;
  p50: number;
  p99: number;
}

function measure(name: EngineName, entries: readonly IndexEntry[], queries: readonly string[], builds: number): Measured {
  let search: Search = () => [];
  const times: number[] = [];
  let heap = 0;
  for (let run = 0; run < builds; run++) {
    search = () => []; // release the previous build before measuring
    const before = heapMb();
    const start = performance.now();
    search = ENGINES[name](entries);
    times.push(performance.now() - start);
    heap = heapMb() - before;
  }
  const passes = name === "plain scan" ? 1 : entries.length > 10_000 ? 3 : 5;
  const best = queries.map(() => Number.POSITIVE_INFINITY);
  for (const query of queries.slice(0, name === "plain scan" ? 10 : queries.length)) search(query); // warm up
  for (let pass = 0; pass < passes; pass++) {
    queries.forEach((query, i) => {
      const start = performance.now();
      search(query);
      best[i] = Math.min(best[i] as number, performance.now() - start);
    });
  }
  best.sort((a, b) => a - b);
  return { search, buildMs: times.sort((a, b) => a - b)[times.length >> 1] as number, heapMb: heap, p50: percentile(best, 50), p99: percentile(best, 99) };
}

/** Throws unless createIndex returns exactly what the plain scan returns, query by query. */
function assertIdentical(fast: Search, plain: Search, queries: readonly string[]): void {
  for (const [i, query] of queries.entries()) {
    for (const limit of i < 20 ? [10, 50] : [10]) {
      if (JSON.stringify(fast(query, limit)) !== JSON.stringify(plain(query, limit))) {
        throw new Error(`createIndex differs from the plain scan on ${JSON.stringify(query)} (limit ${limit})`);
      }
    }
  }
}

const format = (value: number, digits = 2): string => value.toFixed(digits);

function printTable(title: string, rows: Record<EngineName, Measured>): void {
  const base = rows.MiniSearch;
  const lines = [
    `\n${title} (ratios to MiniSearch in parentheses)`,
    "| engine | build ms | heap MB | p50 ms | p99 ms |",
    "| --- | ---: | ---: | ---: | ---: |",
    ...Object.entries(rows).map(([name, m]) =>
      `| ${name} | ${format(m.buildMs, 0)} (${format(m.buildMs / base.buildMs)}) | ${format(m.heapMb, 1)} (${format(m.heapMb / base.heapMb)}) | ` +
      `${format(m.p50, 3)} (${format(m.p50 / base.p50)}) | ${format(m.p99, 3)} (${format(m.p99 / base.p99)}) |`),
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

const CASES: readonly [CorpusLanguage, number][] = [["pt", 10_000], ["pt", 100_000], ["en", 10_000], ["en", 100_000]];

let current: { key: string; rows: Partial<Record<EngineName, Measured>> } = { key: "", rows: {} };

for (const [language, size] of CASES) {
  describe(`${language} ${size / 1000}k`, () => {
    const queries = buildQueries(language);
    const key = `${language}:${size}`;
    // Measured once, in the benches' (untimed) setup hook; the previous case is released first.
    const setup = (): void => {
      if (current.key === key) return;
      current = { key, rows: {} };
      const entries = buildCorpus(language, size);
      const builds = size > 10_000 ? 1 : 3;
      const rows = current.rows;
      for (const name of Object.keys(ENGINES) as EngineName[]) rows[name] = measure(name, entries, queries, builds);
      assertIdentical((rows.createIndex as Measured).search, (rows["plain scan"] as Measured).search, queries);
      printTable(`${language} ${size} entries, ${queries.length} queries, gc ${gc ? "exposed" : "NOT exposed"}`, current.rows as Record<EngineName, Measured>);
    };
    const names = Object.keys(ENGINES) as EngineName[];
    for (const name of names) {
      const slow = name === "plain scan" && size > 10_000;
      bench(name, () => {
        const search = current.rows[name]?.search;
        if (search === undefined) throw new Error(`${name} was not built`);
        for (const query of queries) search(query);
      }, {
        ...(slow ? { time: 0, iterations: 1, warmupIterations: 0 } : { time: 300, iterations: size > 10_000 ? 3 : 5, warmupIterations: 1 }),
        setup,
      });
    }
  });
}

// A title of 1 MB with no separator: the build is linear in characters (it once stored and
// sorted every suffix of every title run, 7-20 s for this input with the event loop blocked).
describe("pathological title", () => {
  const MB = 1024 * 1024;
  const entries: IndexEntry[] = [{ id: "long", title: "a".repeat(MB), url: "https://example.org/long" }];
  bench("createIndex, one 1 MB title with no separator", () => {
    const index = createIndex(entries);
    if (index.search("aaa").length !== 1) throw new Error("the 1 MB title was not found by its prefix");
  }, { time: 300, iterations: 5, warmupIterations: 1 });
});
