/**
 * The relevance benchmark: known-item search on real documents (bench/_relevance-corpora.ts),
 * every engine on the same files in one run, printed as a table per corpus.
 *
 * Engines: the folder server through its real `search` tool (an in-memory MCP Client), in its
 * default ranking and with `--ranking rule`; `createIndex` in both rankings over the documents
 * the folder server extracted; MiniSearch with its defaults; a plain Okapi BM25 written below;
 * bm25s (Python) when `python3 -c "import bm25s"` works.
 *
 * Metrics: MRR@10 (reciprocal rank of the answer in the top 10, else 0, averaged), recall@1,
 * recall@10, queries with no result at all, and median latency per query.
 *
 * Run: `npm run bench` (through bench/relevance.bench.ts), or `npx tsx bench/relevance.ts`;
 * `RELEVANCE_VARIANTS=1` adds the ranking variants tried while tuning.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import MiniSearch from "minisearch";
import { createBm25Ranking } from "../src/ranking/bm25/core.js";
import { BM25_DEFAULTS, type Bm25Parameters } from "../src/ranking/bm25/parameters.js";
import { openFolder, type LoadedDocument as FolderDocument } from "../packages/cli/src/folder/folder.js";
import { createFolderServer } from "../packages/cli/src/transports/serve.js";
import { createIndex, createVocabulary, type IndexEntry, type IndexRanking } from "../src/index.js";
import { ensurePackages, loadPdfTwinCorpora, loadRelevanceCorpora, rankQueries, type KnownItemQuery, type RelevanceCorpus, type Search } from "./_relevance-corpora.js";
import { okapi } from "./_okapi.js";

interface Engine {
  readonly name: string;
  /** Returns the search function, or a reason to skip the engine. */
  build(corpus: RelevanceCorpus, documents: readonly FolderDocument[]): Promise<Search | string>;
  /** For engines that answer all queries in one batch outside Node (bm25s). */
  readonly batch?: (corpus: RelevanceCorpus, documents: readonly FolderDocument[]) => { ranked: string[][]; latencyMs: number } | string;
}

export interface RelevanceRow {
  readonly engine: string;
  readonly mrr: number;
  readonly recall1: number;
  readonly recall10: number;
  readonly noResult: number;
  readonly p50Ms: number;
}

const emptyVocabulary = createVocabulary({ locale: "en", sourceName: "the folder", entries: [] });
/** Folders opened by the folder-server engines, closed after each corpus. */
const opened: { close(): void }[] = [];

/** The folder server behind a real MCP Client, linked in memory. */
function folderServer(ranking: IndexRanking): Engine["build"] {
  return async (corpus) => {
    // Watched, as `mcp-search serve` does: a search on an unchanged folder does not re-stat it.
    const folder = await openFolder({ root: corpus.root, vocabulary: emptyVocabulary, ranking });
    opened.push(folder);
    await folder.ready;
    const server = createFolderServer({ name: "bench", version: "0.0.0", folder, vocabulary: emptyVocabulary, locale: "en", limit: 10 });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "relevance-bench", version: "0.0.0" });
    await client.connect(clientSide);
    return async (query) => {
      const reply = (await client.callTool({ name: "search", arguments: { query } })) as { structuredContent?: { results?: { id: string }[] } };
      return (reply.structuredContent?.results ?? []).map((hit) => hit.id);
    };
  };
}

const entriesOf = (documents: readonly FolderDocument[]): IndexEntry[] =>
  documents.map(({ id, title, url, text }) => ({ id, title, url, text }));

const BM25S_SCRIPT = `
import json, sys, time, bm25s
data = json.load(open(sys.argv[1]))
corpus = [d["text"] for d in data["documents"]]
retriever = bm25s.BM25()
retriever.index(bm25s.tokenize(corpus, stopwords="en", show_progress=False), show_progress=False)
ranked, times = [], []
for q in data["queries"]:
    start = time.perf_counter()
    tokens = bm25s.tokenize([q], stopwords="en", show_progress=False)
    if len(tokens.vocab) == 0:
        ranked.append([]); times.append(time.perf_counter() - start); continue
    docs, scores = retriever.retrieve(tokens, k=min(10, len(corpus)), show_progress=False)
    times.append(time.perf_counter() - start)
    ranked.append([data["documents"][int(i)]["id"] for i, s in zip(docs[0], scores[0]) if s > 0])
times.sort()
print(json.dumps({"ranked": ranked, "latencyMs": times[len(times) // 2] * 1000}))
`;

/** bm25s with its defaults (English stopwords, no stemmer) in a Python child process. */
function runBm25s(corpus: RelevanceCorpus, documents: readonly FolderDocument[]): { ranked: string[][]; latencyMs: number } | string {
  const dir = mkdtempSync(join(tmpdir(), "mcp-search-bm25s-"));
  try {
    writeFileSync(join(dir, "run.py"), BM25S_SCRIPT);
    writeFileSync(join(dir, "data.json"), JSON.stringify({
      documents: documents.map((doc) => ({ id: doc.id, text: `${doc.title}\n${doc.text}` })),
      queries: corpus.queries.map((q) => q.query),
    }));
    return JSON.parse(execFileSync("python3", [join(dir, "run.py"), join(dir, "data.json")], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], maxBuffer: 1 << 28 })) as { ranked: string[][]; latencyMs: number };
  } catch {
    return "bm25s is not installed (pip install bm25s)";
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const variant = (name: string, parameters: Partial<Bm25Parameters>): Engine => ({
  name: `variant: ${name}`,
  build: async (_, documents) => {
    const ranking = createBm25Ranking(entriesOf(documents), { ...BM25_DEFAULTS, ...parameters });
    return (query) => ranking.search(query, 10).map((hit) => hit.id);
  },
});

export const ENGINES: readonly Engine[] = [
  { name: "folder server (bm25, default)", build: folderServer("bm25") },
  { name: "folder server --ranking rule", build: folderServer("rule") },
  ...(["bm25", "rule"] as const).map((ranking): Engine => ({
    name: `createIndex ${ranking}`,
    build: async (_, documents) => {
      const index = createIndex(entriesOf(documents), { ranking });
      return (query) => index.search(query).map((hit) => hit.id);
    },
  })),
  {
    name: "MiniSearch defaults",
    build: async (_, documents) => {
      const index = new MiniSearch<IndexEntry>({ fields: ["title", "text"] });
      index.addAll(entriesOf(documents));
      return (query) => index.search(query).slice(0, 10).map((hit) => hit.id as string);
    },
  },
  { name: "Okapi BM25 (plain)", build: async (_, documents) => okapi(documents, /[a-z0-9]+/g) },
  { name: "bm25s (Python)", build: async () => "batch", batch: runBm25s },
];

export const VARIANTS: readonly Engine[] = [
  variant("whole document only (no lead, no passages)", { leadWeight: 0, passageWeight: 0 }),
  variant("no lead view", { leadWeight: 0 }),
  variant("no passages", { passageWeight: 0 }),
  variant("best passage only", { leadWeight: 0, passageWeight: 1e6 }),
  variant("no plural folding", { analysis: { ...BM25_DEFAULTS.analysis, fold: false } }),
  variant("no prefixes", { prefix: 0 }),
  variant("coordination 0", { coordination: 0 }),
  variant("coordination 0.5", { coordination: 0.5 }),
  variant("coordination 1", { coordination: 1 }),
  variant("prefix 0.5", { prefix: 0.5 }),
  variant("equal field weights", { weights: [1, 1, 1, 1] }),
  variant("k1 2", { k1: 2 }),
  variant("text b 0.9", { b: [0.5, 0.5, 0.5, 0.9] }),
  variant("lead of 50 tokens", { lead: 50 }),
  variant("passages of 200 tokens", { passage: 200 }),
  variant("best passage × 0.5", { passageWeight: 0.5 }),
  variant("best passage × 1", { passageWeight: 1 }),
];

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

function score(name: string, queries: readonly KnownItemQuery[], ranked: readonly (readonly string[])[], latencies: number[]): RelevanceRow {
  let mrr = 0, recall1 = 0, recall10 = 0, noResult = 0;
  queries.forEach((q, i) => {
    const list = ranked[i] ?? [];
    const rank = list.slice(0, 10).indexOf(q.answer);
    if (list.length === 0) noResult += 1;
    if (rank >= 0) {
      mrr += 1 / (rank + 1);
      recall10 += 1;
      if (rank === 0) recall1 += 1;
    }
  });
  const n = Math.max(1, queries.length);
  return { engine: name, mrr: mrr / n, recall1: recall1 / n, recall10: recall10 / n, noResult, p50Ms: percentile(latencies, 0.5) };
}

/** Runs every engine on one corpus; engines that cannot run are listed with their reason. */
export async function evaluateCorpus(corpus: RelevanceCorpus, engines: readonly Engine[]): Promise<{ rows: RelevanceRow[]; skipped: string[] }> {
  const folder = await openFolder({ root: corpus.root, vocabulary: emptyVocabulary, watch: false });
  await folder.ready;
  // The folder keeps no texts: the engines that index them read them again.
  const documents: FolderDocument[] = [];
  for (const doc of folder.current.documents.values()) {
    const loaded = await folder.load(doc);
    if (loaded !== undefined) documents.push(loaded);
  }
  folder.close();
  const rows: RelevanceRow[] = [];
  const skipped: string[] = [];
  for (const engine of engines) {
    if (engine.batch !== undefined) {
      const out = engine.batch(corpus, documents);
      if (typeof out === "string") skipped.push(`${engine.name}: ${out}`);
      else rows.push(score(engine.name, corpus.queries, out.ranked, [out.latencyMs]));
      continue;
    }
    const search = await engine.build(corpus, documents);
    if (typeof search === "string") {
      skipped.push(`${engine.name}: ${search}`);
      continue;
    }
    for (const q of corpus.queries.slice(0, 5)) await search(q.query); // warm up
    const { ranked, latencies } = await rankQueries(search, corpus.queries);
    rows.push(score(engine.name, corpus.queries, ranked, latencies));
  }
  for (const folder of opened.splice(0)) folder.close();
  return { rows, skipped };
}

const pct = (value: number) => value.toFixed(3);

/** The Markdown table of one corpus, with the folder server's MRR@10 as a ratio of each engine's. */
export function formatTable(corpus: RelevanceCorpus, documents: number, rows: readonly RelevanceRow[]): string {
  const ours = rows[0]?.mrr ?? 0;
  return [
    `\n${corpus.description}: ${documents} documents, ${corpus.queries.length} queries`,
    "| engine | MRR@10 | recall@1 | recall@10 | no result | p50 ms | folder server MRR ÷ this |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rows.map((row) =>
      `| ${row.engine} | ${pct(row.mrr)} | ${pct(row.recall1)} | ${pct(row.recall10)} | ${row.noResult} | ${row.p50Ms.toFixed(2)} | ${row.mrr > 0 ? (ours / row.mrr).toFixed(2) : "∞"} |`),
  ].join("\n");
}

/** Installs the corpora if needed, evaluates every engine, prints the tables. */
export async function runRelevance(write: (text: string) => void, withVariants = process.env["RELEVANCE_VARIANTS"] === "1"): Promise<void> {
  const problem = ensurePackages((line) => write(`relevance: ${line}\n`));
  if (problem !== undefined) {
    write(`relevance: skipped, ${problem}\n`);
    return;
  }
  for (const corpus of loadRelevanceCorpora()) {
    const { rows, skipped } = await evaluateCorpus(corpus, withVariants ? [...ENGINES, ...VARIANTS] : ENGINES);
    const documents = (await (await openFolder({ root: corpus.root, vocabulary: emptyVocabulary, watch: false })).ready).documents.size;
    write(`${formatTable(corpus, documents, rows)}\n${skipped.map((line) => `skipped ${line}\n`).join("")}`);
  }
  // The PDF corpus: the same pages as PDF and as text, through the folder server alone; the PDFs'
  // MRR@10 should be at least 0.95× the text's (issue 33).
  const twins = loadPdfTwinCorpora();
  if (typeof twins === "string") {
    write(`relevance: PDF corpus skipped, ${twins}\n`);
    return;
  }
  const pdf = (await evaluateCorpus(twins[0], ENGINES.slice(0, 1))).rows[0];
  const text = (await evaluateCorpus(twins[1], ENGINES.slice(0, 1))).rows[0];
  for (const [corpus, row] of [[twins[0], pdf], [twins[1], text]] as const) {
    if (row !== undefined) write(`${formatTable(corpus, corpus.queries.length, [row])}\n`);
  }
  if (pdf !== undefined && text !== undefined) write(`\nPDF MRR@10 ÷ text MRR@10: ${(pdf.mrr / Math.max(text.mrr, 1e-9)).toFixed(3)} (target at least 0.95)\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runRelevance((text) => process.stdout.write(text));
}
