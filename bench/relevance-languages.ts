/**
 * The relevance benchmark in five languages and three scripts (bench/_language-corpora.ts):
 * known-item search, every engine on the same files in one run, one table per corpus.
 *
 * Engines: the folder server through its real `search` tool (an in-memory MCP Client), served
 * with the corpus's `--locale`; `createIndex` bm25 with its defaults (language detected) and,
 * where the corpus has one, with `language` given; MiniSearch with its defaults; a plain Okapi
 * BM25 with a Unicode tokenizer (`\p{L}\p{N}` runs, lower case, nothing else); SQLite FTS5 with
 * `bm25()` (better-sqlite3) under the tokenizers `unicode61 remove_diacritics 2` and `trigram`;
 * Apache Lucene 8 with its analyzer per language (Debian's liblucene8-java, a small Java program
 * compiled with javac at bench time) when `javac` is there. bm25s is a PyPI package, and PyPI is
 * not reachable from this machine: it is left out.
 *
 * Run: `npx tsx bench/relevance-languages.ts` (`RELEVANCE_VARIANTS=1` adds the analysis variants).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import MiniSearch from "minisearch";
import { stemmer as snowballEn } from "@orama/stemmers/english";
import { stemmer as snowballEs } from "@orama/stemmers/spanish";
import { stemmer as snowballPt } from "@orama/stemmers/portuguese";
import { openFolder, type LoadedDocument } from "../packages/cli/src/folder/folder.js";
import { languageOfLocale } from "../packages/cli/src/cli/locale.js";
import { createFolderServer } from "../packages/cli/src/transports/serve.js";
import { BM25_DEFAULTS, createBm25Ranking, type Bm25Parameters } from "../src/ranking/bm25.js";
import { createIndex, createVocabulary, type IndexEntry } from "../src/index.js";
import { ensureLanguagePackages, loadLanguageCorpora, type LanguageCorpus } from "./_language-corpora.js";
import type { KnownItemQuery } from "./_relevance-corpora.js";
import { okapi } from "./_okapi.js";

/** A word in any script: a run of letters and digits. */
const WORD = /[\p{L}\p{N}]+/gu;

type Search = (query: string) => Promise<readonly string[]> | readonly string[];
interface Engine {
  readonly name: string;
  build(corpus: LanguageCorpus, documents: readonly LoadedDocument[]): Promise<Search | string>;
}
export interface Row {
  readonly engine: string;
  readonly mrr: number;
  readonly recall10: number;
  readonly noResult: number;
  readonly p50Ms: number;
}

const opened: { close(): void }[] = [];
const entriesOf = (documents: readonly LoadedDocument[]): IndexEntry[] => documents.map(({ id, title, url, text }) => ({ id, title, url, text }));

/** The folder server behind a real MCP Client, served as `mcp-search serve --locale L` would. */
const folderServer: Engine["build"] = async (corpus) => {
  const vocabulary = createVocabulary({ locale: corpus.locale, sourceName: "the folder", entries: [] });
  const folder = await openFolder({ root: corpus.root, vocabulary, fallbackLanguage: languageOfLocale(corpus.locale) });
  opened.push(folder);
  await folder.ready;
  const server = createFolderServer({ name: "bench", version: "0.0.0", folder, vocabulary, locale: corpus.locale, limit: 10 });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "relevance-languages", version: "0.0.0" });
  await client.connect(clientSide);
  return async (query) => {
    const reply = (await client.callTool({ name: "search", arguments: { query } })) as { structuredContent?: { results?: { id: string }[] } };
    return (reply.structuredContent?.results ?? []).map((hit) => hit.id);
  };
};

/** SQLite FTS5 in memory with `tokenizer`, ranked by bm25(); the query's words ORed, each quoted. */
function fts5(tokenizer: string): Engine["build"] {
  return async (_, documents) => {
    const db = new Database(":memory:");
    db.exec(`CREATE VIRTUAL TABLE docs USING fts5(id UNINDEXED, title, text, tokenize = '${tokenizer}')`);
    const insert = db.prepare("INSERT INTO docs (id, title, text) VALUES (?, ?, ?)");
    db.transaction(() => {
      for (const doc of documents) insert.run(doc.id, doc.title, doc.text);
    })();
    const select = db.prepare("SELECT id FROM docs WHERE docs MATCH ? ORDER BY bm25(docs) LIMIT 10");
    const trigram = tokenizer.startsWith("trigram");
    opened.push({ close: () => db.close() });
    return (query) => {
      const words = (query.match(WORD) ?? []).filter((word) => !trigram || [...word].length >= 3);
      if (words.length === 0) return [];
      return (select.all(words.map((word) => `"${word.replace(/"/g, '""')}"`).join(" OR ")) as { id: string }[]).map((row) => row.id);
    };
  };
}

const LUCENE_ANALYZERS: Readonly<Record<string, string>> = {
  "debian-reference-pt-br": "org.apache.lucene.analysis.br.BrazilianAnalyzer",
  "debian-reference-es": "org.apache.lucene.analysis.es.SpanishAnalyzer",
  "debian-reference-en": "org.apache.lucene.analysis.en.EnglishAnalyzer",
  "debian-reference-ja": "org.apache.lucene.analysis.cjk.CJKAnalyzer",
  "debian-reference-zh-cn": "org.apache.lucene.analysis.cjk.CJKAnalyzer",
  "gimp-help-ru": "org.apache.lucene.analysis.ru.RussianAnalyzer",
};

const LUCENE_JAVA = `
import java.io.*; import java.nio.charset.StandardCharsets; import java.nio.file.*; import java.util.*;
import org.apache.lucene.analysis.Analyzer; import org.apache.lucene.document.*; import org.apache.lucene.index.*;
import org.apache.lucene.queryparser.classic.QueryParser; import org.apache.lucene.search.*; import org.apache.lucene.store.*;
public class Rank {
  public static void main(String[] args) throws Exception {
    Analyzer analyzer = (Analyzer) Class.forName(args[0]).getDeclaredConstructor().newInstance();
    Directory dir = new ByteBuffersDirectory();
    try (IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig(analyzer))) {
      for (String line : Files.readAllLines(Paths.get(args[1]), StandardCharsets.UTF_8)) {
        String[] parts = line.split("\\t", 3);
        Document doc = new Document();
        doc.add(new StringField("id", parts[0], Field.Store.YES));
        doc.add(new TextField("title", parts[1], Field.Store.NO));
        doc.add(new TextField("text", parts[2], Field.Store.NO));
        writer.addDocument(doc);
      }
    }
    IndexSearcher searcher = new IndexSearcher(DirectoryReader.open(dir));
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, "UTF-8");
    for (String q; (q = in.readLine()) != null; ) {
      StringBuilder ids = new StringBuilder();
      try {
        BooleanQuery.Builder both = new BooleanQuery.Builder();
        for (String field : new String[] { "title", "text" }) both.add(new QueryParser(field, analyzer).parse(QueryParser.escape(q)), BooleanClause.Occur.SHOULD);
        for (ScoreDoc hit : searcher.search(both.build(), 10).scoreDocs) ids.append(searcher.doc(hit.doc).get("id")).append('\\t');
      } catch (Exception e) { }
      out.println(ids);
    }
  }
}`;

/** Lucene 8 with the corpus's analyzer, title and text fields, queries as bags of words; one Java process per corpus. */
const lucene: Engine["build"] = async (corpus, documents) => {
  const jars = ["core", "analyzers-common", "queryparser"].map((part) => `/usr/share/java/lucene-${part}-8.7.0.jar`);
  if (!jars.every(existsSync)) return "liblucene8-java is not installed (apt-get install liblucene8-java)";
  const dir = join(tmpdir(), "mcp-search-lucene");
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, "Rank.class"))) {
    writeFileSync(join(dir, "Rank.java"), LUCENE_JAVA);
    try {
      execFileSync("javac", ["-cp", jars.join(":"), "-d", dir, join(dir, "Rank.java")], { stdio: ["ignore", "ignore", "pipe"] });
    } catch (error) {
      return `javac failed: ${(error as Error).message.split("\n")[0]}`;
    }
  }
  const work = mkdtempSync(join(tmpdir(), "mcp-search-lucene-"));
  const clean = (text: string) => text.replace(/[\t\r\n]+/g, " ");
  writeFileSync(join(work, "docs.tsv"), documents.map((doc) => `${doc.id}\t${clean(doc.title)}\t${clean(doc.text)}`).join("\n"));
  const queries = corpus.queries.map((q) => clean(q.query));
  const started = performance.now();
  const output = execFileSync("java", ["-cp", [dir, ...jars].join(":"), "Rank", LUCENE_ANALYZERS[corpus.name]!, join(work, "docs.tsv")], { input: `${queries.join("\n")}\n`, encoding: "utf8", maxBuffer: 1 << 28 });
  const elapsed = performance.now() - started;
  rmSync(work, { recursive: true, force: true });
  const answers = new Map(queries.map((query, i) => [query, output.split("\n")[i]!.split("\t").filter((id) => id !== "")]));
  void elapsed;
  return (query) => answers.get(clean(query)) ?? [];
};

const variant = (name: string, parameters: Partial<Bm25Parameters>): Engine => ({
  name: `variant: ${name}`,
  build: async (corpus, documents) => {
    const fallback = languageOfLocale(corpus.locale);
    const ranking = createBm25Ranking(entriesOf(documents), { ...BM25_DEFAULTS, ...parameters, analysis: { ...BM25_DEFAULTS.analysis, fallback, stemmers: SNOWBALL, ...parameters.analysis } });
    return (query) => ranking.search(query, 10).map((hit) => hit.id);
  },
});

export const ENGINES: readonly Engine[] = [
  { name: "folder server (bm25, --locale)", build: folderServer },
  {
    name: "createIndex bm25 (language detected, Snowball stemmers)",
    build: async (_, documents) => {
      const index = createIndex(entriesOf(documents), { ranking: "bm25", stemmers: SNOWBALL });
      return (query) => index.search(query).map((hit) => hit.id);
    },
  },
  {
    name: "MiniSearch defaults",
    build: async (_, documents) => {
      const index = new MiniSearch<IndexEntry>({ fields: ["title", "text"] });
      index.addAll(entriesOf(documents));
      return (query) => index.search(query).slice(0, 10).map((hit) => hit.id as string);
    },
  },
  { name: "Okapi BM25 (plain, Unicode words)", build: async (_, documents) => okapi(documents, WORD) },
  { name: "SQLite FTS5 unicode61 remove_diacritics 2", build: fts5("unicode61 remove_diacritics 2") },
  { name: "SQLite FTS5 trigram", build: fts5("trigram") },
  { name: "Lucene 8, analyzer per language", build: lucene },
];

/** Snowball's stemmers for the three languages (@orama/stemmers), as the folder server passes them. */
const SNOWBALL = { name: "snowball", pt: snowballPt, es: snowballEs, en: snowballEn };

/** createIndex bm25 with the plural folding instead of Snowball (the library's default without `stemmers`). */
const pluralFolding: Engine = {
  name: "variant: plural folding (createIndex default, no stemmers)",
  build: async (corpus, documents) => {
    const index = createIndex(entriesOf(documents), { ranking: "bm25", fallbackLanguage: languageOfLocale(corpus.locale) });
    return (query) => index.search(query).map((hit) => hit.id);
  },
};

export const VARIANTS: readonly Engine[] = [
  pluralFolding,
  variant("segmentation bigrams (CJKAnalyzer-like)", { analysis: { ...BM25_DEFAULTS.analysis, segmentation: "bigrams" } }),
  variant("no plural folding", { analysis: { ...BM25_DEFAULTS.analysis, fold: false } }),
  variant("coordination 0", { coordination: 0 }),
  variant("coordination 0.5", { coordination: 0.5 }),
  variant("coordination 2", { coordination: 2 }),
  variant("prefix 0", { prefix: 0 }),
];

function score(name: string, queries: readonly KnownItemQuery[], ranked: readonly (readonly string[])[], latencies: number[]): Row {
  let mrr = 0, recall10 = 0, noResult = 0;
  queries.forEach((q, i) => {
    const list = ranked[i] ?? [];
    const rank = list.slice(0, 10).indexOf(q.answer);
    if (list.length === 0) noResult += 1;
    if (rank >= 0) {
      mrr += 1 / (rank + 1);
      recall10 += 1;
    }
  });
  const sorted = [...latencies].sort((a, b) => a - b);
  const n = Math.max(1, queries.length);
  return { engine: name, mrr: mrr / n, recall10: recall10 / n, noResult, p50Ms: sorted[Math.floor(sorted.length / 2)] ?? 0 };
}

/** Runs every engine on one corpus; engines that cannot run are listed with their reason. */
export async function evaluate(corpus: LanguageCorpus, engines: readonly Engine[]): Promise<{ rows: Row[]; skipped: string[]; documents: number }> {
  const folder = await openFolder({ root: corpus.root, vocabulary: createVocabulary({ locale: "en", sourceName: "the folder", entries: [] }), watch: false });
  await folder.ready;
  const documents: LoadedDocument[] = [];
  for (const doc of folder.current.documents.values()) {
    const loaded = await folder.load(doc);
    if (loaded !== undefined) documents.push(loaded);
  }
  folder.close();
  const rows: Row[] = [];
  const skipped: string[] = [];
  for (const engine of engines) {
    const search = await engine.build(corpus, documents);
    if (typeof search === "string") {
      skipped.push(`${engine.name}: ${search}`);
      continue;
    }
    const ranked: (readonly string[])[] = [];
    const latencies: number[] = [];
    for (const q of corpus.queries) {
      const start = performance.now();
      ranked.push(await search(q.query));
      latencies.push(performance.now() - start);
    }
    rows.push(score(engine.name, corpus.queries, ranked, latencies));
  }
  for (const one of opened.splice(0)) one.close();
  return { rows, skipped, documents: documents.length };
}

/** Installs the corpora if needed, evaluates every engine, prints the tables. */
export async function runLanguageRelevance(write: (text: string) => void, withVariants = process.env["RELEVANCE_VARIANTS"] === "1"): Promise<void> {
  const problem = ensureLanguagePackages((line) => write(`relevance-languages: ${line}\n`));
  if (problem !== undefined) {
    write(`relevance-languages: skipped, ${problem}\n`);
    return;
  }
  const only = process.env["RELEVANCE_CORPORA"]?.split(",");
  for (const corpus of loadLanguageCorpora().filter((c) => only === undefined || only.includes(c.name))) {
    const { rows, skipped, documents } = await evaluate(corpus, withVariants ? [...ENGINES, ...VARIANTS] : ENGINES);
    const ours = rows[0]?.mrr ?? 0;
    const best = Math.max(...rows.slice(1).filter((row) => !row.engine.startsWith("variant") && !row.engine.startsWith("createIndex")).map((row) => row.mrr));
    write([
      `\n${corpus.description}: ${documents} documents, ${corpus.queries.length} queries; folder server ÷ best other engine: ${(ours / best).toFixed(2)}`,
      "| engine | MRR@10 | recall@10 | no result | p50 ms | folder server MRR ÷ this |",
      "| --- | ---: | ---: | ---: | ---: | ---: |",
      ...rows.map((row) => `| ${row.engine} | ${row.mrr.toFixed(3)} | ${row.recall10.toFixed(3)} | ${row.noResult} | ${row.p50Ms.toFixed(2)} | ${row.mrr > 0 ? (ours / row.mrr).toFixed(2) : "∞"} |`),
      ...skipped.map((line) => `skipped ${line}`),
      "",
    ].join("\n"));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runLanguageRelevance((text) => process.stdout.write(text));
}
