/**
 * The relevance benchmark in eleven languages and four scripts, on held-out corpora
 * (bench/_language-corpora.ts, whose CORPORA table gives each corpus its role: per language one
 * development corpus, the only one a ranking choice may be fitted on, and test corpora):
 * known-item search, every engine on the same files in one run, one table per corpus, then one
 * summary table of every corpus with MRR@10 and recall@10 per engine and the folder server's
 * MRR@10 over the best other engine's.
 *
 * Engines:
 * - the folder server through its real `search` tool (an in-memory MCP Client), over the folder
 *   as `openFolder` indexes it: ranking "bm25", the CLI's Snowball stemmers, the language detected
 *   per document, and the fallback language of the `--locale` the CLI takes from LANG for the
 *   corpus's language (`localeOfName`; "en" when the CLI speaks no such locale);
 * - MiniSearch with its defaults;
 * - a plain Okapi BM25 over Unicode words, Han and kana as character bigrams (bench/_okapi.ts);
 * - SQLite FTS5 with `bm25()` (better-sqlite3), tokenizers `unicode61 remove_diacritics 2` and
 *   `trigram`;
 * - Apache Lucene 8.7 with its analyzer per language (Debian's liblucene8-java, a small Java
 *   program compiled with javac at bench time): English, Brazilian, Spanish, Russian, German,
 *   French, Italian, Greek; Japanese (kuromoji) and Smart Chinese; Standard for Ukrainian, whose
 *   Morfologik dictionary Debian does not ship;
 * - Xapian 1.4 through Debian's python3-xapian (/usr/bin/python3), BM25 with its Snowball stemmer
 *   where Xapian has one (not for uk and el) and CJK n-grams for ja and zh.
 * bm25s is a PyPI package, and PyPI is not reachable from this machine: it is left out.
 *
 * Run: `npm run bench:relevance` (bench/relevance-run.ts; `-- --corpora a,b` for some corpora;
 * `RELEVANCE_VARIANTS=1` adds the analysis variants). `npm run bench:relevance -- --gate` runs the
 * CI gate (bench/_relevance-gate.ts); `-- --update-baseline` rewrites its baseline on purpose.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import MiniSearch from "minisearch";
import { openFolder, type LoadedDocument } from "../packages/cli/src/folder/folder.js";
import { SNOWBALL_STEMMERS } from "../packages/cli/src/folder/stemmers.js";
import { languageOfLocale, localeOfName } from "../packages/cli/src/cli/locale.js";
import { createFolderServer } from "../packages/cli/src/transports/serve.js";
import { createBm25Ranking } from "../src/ranking/bm25/core.js";
import { BM25_DEFAULTS, type Bm25Parameters } from "../src/ranking/bm25/parameters.js";
import { createIndex, createVocabulary, type Locale, type IndexEntry } from "../src/index.js";
import { CORPORA, ensureCorpusPackages, loadLanguageCorpora, type BenchLanguage, type LanguageCorpus } from "./_language-corpora.js";
import { rankQueries, type KnownItemQuery, type Search } from "./_relevance-corpora.js";
import { okapi, unicodeWordsCjkBigrams } from "./_okapi.js";

/** A word in any script: a run of letters and digits. */
const WORD = /[\p{L}\p{N}]+/gu;

export interface Engine {
  readonly name: string;
  /** A short name for the summary table. */
  readonly short: string;
  build(corpus: LanguageCorpus, documents: readonly LoadedDocument[]): Promise<Search | string>;
}
export interface Row {
  readonly engine: string;
  readonly short: string;
  readonly mrr: number;
  readonly recall10: number;
  readonly noResult: number;
  readonly p50Ms: number;
}

const opened: { close(): void }[] = [];
const entriesOf = (documents: readonly LoadedDocument[]): IndexEntry[] => documents.map(({ id, title, url, text }) => ({ id, title, url, text }));

/** The locale `mcp-search serve` takes from LANG in this language: the CLI's own rule. */
export const localeOf = (language: BenchLanguage): Locale => localeOfName(language) ?? "en";

/** The folder server behind a real MCP Client, served as `mcp-search serve` would be under LANG=<language>. */
export const folderServer: Engine = {
  name: "folder server (bm25, locale from LANG)",
  short: "folder server",
  build: async (corpus) => {
    const locale = localeOf(corpus.language);
    const vocabulary = createVocabulary({ locale, sourceName: "the folder", entries: [] });
    const folder = await openFolder({ root: corpus.root, vocabulary, fallbackLanguage: languageOfLocale(locale) });
    opened.push(folder);
    await folder.ready;
    const server = createFolderServer({ name: "bench", version: "0.0.0", folder, vocabulary, locale, limit: 10 });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "relevance-languages", version: "0.0.0" });
    await client.connect(clientSide);
    opened.push({ close: () => void client.close() });
    return async (query) => {
      const reply = (await client.callTool({ name: "search", arguments: { query } })) as { structuredContent?: { results?: { id: string }[] } };
      return (reply.structuredContent?.results ?? []).map((hit) => hit.id);
    };
  },
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

const LUCENE = "org.apache.lucene.analysis";
/** Lucene's analyzer per language: its own, where Debian's Lucene has one. */
const LUCENE_ANALYZERS: Readonly<Record<BenchLanguage, string>> = {
  en: `${LUCENE}.en.EnglishAnalyzer`,
  pt: `${LUCENE}.br.BrazilianAnalyzer`,
  es: `${LUCENE}.es.SpanishAnalyzer`,
  ru: `${LUCENE}.ru.RussianAnalyzer`,
  uk: `${LUCENE}.standard.StandardAnalyzer`,
  ja: `${LUCENE}.ja.JapaneseAnalyzer`,
  zh: `${LUCENE}.cn.smart.SmartChineseAnalyzer`,
  de: `${LUCENE}.de.GermanAnalyzer`,
  fr: `${LUCENE}.fr.FrenchAnalyzer`,
  it: `${LUCENE}.it.ItalianAnalyzer`,
  el: `${LUCENE}.el.GreekAnalyzer`,
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

const clean = (text: string) => text.replace(/[\t\r\n]+/g, " ");

/** Lucene 8 with the language's analyzer, title and text fields, queries as bags of words; one Java process per corpus. */
const lucene: Engine["build"] = async (corpus, documents) => {
  const jars = ["core", "analyzers-common", "analyzers-kuromoji", "analyzers-smartcn", "queryparser"].map((part) => `/usr/share/java/lucene-${part}-8.7.0.jar`);
  if (!jars.every(existsSync)) return "liblucene8-java is not installed (apt-get install liblucene8-java)";
  const dir = join(tmpdir(), "mcp-search-lucene-8.7");
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
  try {
    writeFileSync(join(work, "docs.tsv"), documents.map((doc) => `${doc.id}\t${clean(doc.title)}\t${clean(doc.text)}`).join("\n"));
    const queries = corpus.queries.map((q) => clean(q.query));
    const output = execFileSync("java", ["-cp", [dir, ...jars].join(":"), "Rank", LUCENE_ANALYZERS[corpus.language], join(work, "docs.tsv")], { input: `${queries.join("\n")}\n`, encoding: "utf8", maxBuffer: 1 << 28 });
    const lines = output.split("\n");
    const answers = new Map(queries.map((query, i) => [query, (lines[i] ?? "").split("\t").filter((id) => id !== "")]));
    return (query) => answers.get(clean(query)) ?? [];
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
};

/** Xapian's Snowball stemmer per language, where Xapian 1.4 has one. */
const XAPIAN_STEMMERS: Readonly<Partial<Record<BenchLanguage, string>>> = {
  en: "english", pt: "portuguese", es: "spanish", ru: "russian", de: "german", fr: "french", it: "italian",
};

const XAPIAN_PY = `
import json, sys, xapian
data = json.load(open(sys.argv[1], encoding="utf-8"))
db = xapian.WritableDatabase("", xapian.DB_BACKEND_INMEMORY)
tg = xapian.TermGenerator()
qp = xapian.QueryParser()
flags = 0
if data["stemmer"]:
    stem = xapian.Stem(data["stemmer"])
    tg.set_stemmer(stem); tg.set_stemming_strategy(tg.STEM_SOME)
    qp.set_stemmer(stem); qp.set_stemming_strategy(qp.STEM_SOME)
if data["cjk"]:
    tg.set_flags(tg.FLAG_CJK_NGRAM); flags |= qp.FLAG_CJK_NGRAM
for d in data["documents"]:
    doc = xapian.Document()
    tg.set_document(doc)
    tg.index_text(d["title"]); tg.increase_termpos(); tg.index_text(d["text"])
    doc.set_data(d["id"])
    db.add_document(doc)
qp.set_database(db)
enquire = xapian.Enquire(db)
ranked = []
for q in data["queries"]:
    try:
        enquire.set_query(qp.parse_query(q, flags))
        ranked.append([m.document.get_data().decode("utf-8") for m in enquire.get_mset(0, 10)])
    except Exception:
        ranked.append([])
print(json.dumps(ranked))
`;

/** Xapian 1.4 (BM25, its stemmer, OR of the query's terms) through Debian's python3-xapian; one process per corpus. */
const xapian: Engine["build"] = async (corpus, documents) => {
  const python = "/usr/bin/python3";
  try {
    execFileSync(python, ["-c", "import xapian"], { stdio: "ignore" });
  } catch {
    return "python3-xapian is not installed (apt-get install python3-xapian)";
  }
  const work = mkdtempSync(join(tmpdir(), "mcp-search-xapian-"));
  try {
    writeFileSync(join(work, "run.py"), XAPIAN_PY);
    writeFileSync(join(work, "data.json"), JSON.stringify({
      stemmer: XAPIAN_STEMMERS[corpus.language] ?? "",
      cjk: corpus.language === "ja" || corpus.language === "zh",
      documents: documents.map((doc) => ({ id: doc.id, title: doc.title, text: doc.text })),
      queries: corpus.queries.map((q) => q.query),
    }));
    let ranked: string[][];
    try {
      ranked = JSON.parse(execFileSync(python, [join(work, "run.py"), join(work, "data.json")], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 28 })) as string[][];
    } catch (error) {
      return `Xapian failed: ${((error as { stderr?: string }).stderr ?? String(error)).trim().split("\n").at(-1)}`;
    }
    const answers = new Map(corpus.queries.map((q, i) => [q.query, ranked[i] ?? []]));
    return (query) => answers.get(query) ?? [];
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
};

export const ENGINES: readonly Engine[] = [
  folderServer,
  { name: "Lucene 8.7, analyzer per language", short: "Lucene", build: lucene },
  { name: "Xapian 1.4, its stemmer per language", short: "Xapian", build: xapian },
  { name: "SQLite FTS5 unicode61 remove_diacritics 2", short: "FTS5 unicode61", build: fts5("unicode61 remove_diacritics 2") },
  { name: "SQLite FTS5 trigram", short: "FTS5 trigram", build: fts5("trigram") },
  { name: "Okapi BM25 (plain: Unicode words; bigrams for Han and kana)", short: "BM25", build: async (_, documents) => okapi(documents, unicodeWordsCjkBigrams) },
  {
    name: "MiniSearch defaults",
    short: "MiniSearch",
    build: async (_, documents) => {
      const index = new MiniSearch<IndexEntry>({ fields: ["title", "text"] });
      index.addAll(entriesOf(documents));
      return (query) => index.search(query).slice(0, 10).map((hit) => hit.id as string);
    },
  },
];

const variant = (name: string, parameters: Partial<Bm25Parameters>): Engine => ({
  name: `variant: ${name}`,
  short: name,
  build: async (corpus, documents) => {
    const fallback = languageOfLocale(localeOf(corpus.language));
    const ranking = createBm25Ranking(entriesOf(documents), { ...BM25_DEFAULTS, ...parameters, analysis: { ...BM25_DEFAULTS.analysis, fallback, stemmers: SNOWBALL_STEMMERS, ...parameters.analysis } });
    return (query) => ranking.search(query, 10).map((hit) => hit.id);
  },
});

/** The analysis variants, for `RELEVANCE_VARIANTS=1`; never part of the best other engine. */
export const VARIANTS: readonly Engine[] = [
  {
    name: "variant: createIndex bm25 (language detected, Snowball stemmers)",
    short: "createIndex",
    build: async (_, documents) => {
      const index = createIndex(entriesOf(documents), { ranking: "bm25", stemmers: SNOWBALL_STEMMERS });
      return (query) => index.search(query).map((hit) => hit.id);
    },
  },
  {
    name: "variant: plural folding (createIndex default, no stemmers)",
    short: "plural folding",
    build: async (corpus, documents) => {
      const index = createIndex(entriesOf(documents), { ranking: "bm25", fallbackLanguage: languageOfLocale(localeOf(corpus.language)) });
      return (query) => index.search(query).map((hit) => hit.id);
    },
  },
  { name: "variant: Okapi BM25 (Unicode words, no bigrams)", short: "BM25 words", build: async (_, documents) => okapi(documents, WORD) },
  variant("segmentation bigrams (CJKAnalyzer-like)", { analysis: { ...BM25_DEFAULTS.analysis, segmentation: "bigrams" } }),
  variant("no plural folding", { analysis: { ...BM25_DEFAULTS.analysis, fold: false } }),
  variant("coordination 0", { coordination: 0 }),
  variant("coordination 2", { coordination: 2 }),
  variant("prefix 0", { prefix: 0 }),
];

/** MRR@10 and recall@10 of ranked lists against the known answers. */
export function score(engine: Pick<Engine, "name" | "short">, queries: readonly KnownItemQuery[], ranked: readonly (readonly string[])[], latencies: readonly number[] = []): Row {
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
  return { engine: engine.name, short: engine.short, mrr: mrr / n, recall10: recall10 / n, noResult, p50Ms: sorted[Math.floor(sorted.length / 2)] ?? 0 };
}

/** The documents of a corpus as the folder server reads them (title, text, id), read once for every engine. */
export async function documentsOf(corpus: LanguageCorpus): Promise<LoadedDocument[]> {
  const folder = await openFolder({ root: corpus.root, vocabulary: createVocabulary({ locale: "en", sourceName: "the folder", entries: [] }), watch: false });
  await folder.ready;
  const documents: LoadedDocument[] = [];
  for (const doc of folder.current.documents.values()) {
    const loaded = await folder.load(doc);
    if (loaded !== undefined) documents.push(loaded);
  }
  folder.close();
  return documents;
}

/**
 * Runs every engine on one corpus; engines that cannot run are listed with their reason.
 * `wrap` changes each engine's search (the gate's test plants a regression with it).
 */
export async function evaluate(corpus: LanguageCorpus, engines: readonly Engine[], wrap: (search: Search) => Search = (search) => search): Promise<{ rows: Row[]; skipped: string[] }> {
  const documents = engines.some((engine) => engine !== folderServer) ? await documentsOf(corpus) : [];
  const rows: Row[] = [];
  const skipped: string[] = [];
  try {
    for (const engine of engines) {
      const built = await engine.build(corpus, documents);
      if (typeof built === "string") {
        skipped.push(`${engine.name}: ${built}`);
        continue;
      }
      const { ranked, latencies } = await rankQueries(wrap(built), corpus.queries);
      rows.push(score(engine, corpus.queries, ranked, latencies));
    }
  } finally {
    for (const one of opened.splice(0)) one.close();
  }
  return { rows, skipped };
}

const two = (value: number) => value.toFixed(2);
/**
 * A ratio to three decimals, cut rather than rounded: a target of 1.05× is met by what prints
 * 1.050 or more, and 1.0495 prints 1.049.
 */
const ratioText = (value: number) => (Number.isFinite(value) ? (Math.floor(value * 1000 + 1e-9) / 1000).toFixed(3) : "∞");
/** The folder server's MRR@10 over the best other engine's (variants left out). */
const ratioOf = (rows: readonly Row[]) => {
  const ours = rows.find((row) => row.short === folderServer.short)?.mrr ?? 0;
  const best = Math.max(0, ...rows.filter((row) => row.short !== folderServer.short && !row.engine.startsWith("variant")).map((row) => row.mrr));
  return best > 0 ? ours / best : Infinity;
};

/** Evaluates the corpora named (all of CORPORA by default) and prints a table per corpus and the summary. */
export async function runLanguageRelevance(write: (text: string) => void, options: { names?: readonly string[]; withVariants?: boolean } = {}): Promise<void> {
  const names = options.names ?? CORPORA.map((c) => c.name);
  const problem = ensureCorpusPackages(names, (line) => write(`relevance-languages: ${line}\n`));
  if (problem !== undefined) write(`relevance-languages: ${problem}; those corpora are skipped\n`);
  const { corpora, missing } = loadLanguageCorpora(names);
  const started = performance.now();
  const summary: string[] = [];
  const shorts = ENGINES.filter((engine) => engine !== folderServer).map((engine) => engine.short);
  for (const corpus of corpora) {
    const { rows, skipped } = await evaluate(corpus, options.withVariants === true ? [...ENGINES, ...VARIANTS] : ENGINES);
    const ours = rows[0]?.mrr ?? 0;
    write([
      `\n${corpus.description}: ${corpus.documents} documents, ${corpus.queries.length} queries; folder server ÷ best other engine: ${ratioText(ratioOf(rows))}`,
      "| engine | MRR@10 | recall@10 | no result | p50 ms | folder server MRR ÷ this |",
      "| --- | ---: | ---: | ---: | ---: | ---: |",
      ...rows.map((row) => `| ${row.engine} | ${row.mrr.toFixed(3)} | ${row.recall10.toFixed(3)} | ${row.noResult} | ${row.p50Ms.toFixed(2)} | ${row.mrr > 0 ? ratioText(ours / row.mrr) : "∞"} |`),
      ...skipped.map((line) => `skipped ${line}`),
      "",
    ].join("\n"));
    const cell = (short: string) => {
      const row = rows.find((r) => r.short === short);
      return row === undefined ? "–" : `${two(row.mrr)} ${two(row.recall10)}`;
    };
    summary.push(`| ${corpus.name} | ${corpus.language} | ${corpus.role === "development" ? "dev" : "test"} | ${corpus.documents}/${corpus.queries.length} | ${[folderServer.short, ...shorts].map(cell).join(" | ")} | ${ratioText(ratioOf(rows))} |`);
  }
  write([
    `\nEvery corpus (MRR@10 recall@10 per engine; ÷: the folder server's MRR@10 over the best other engine's), ${((performance.now() - started) / 1000).toFixed(0)} s:`,
    `| corpus | lang | role | docs/queries | ${[folderServer.short, ...shorts].join(" | ")} | ÷ |`,
    `| --- | --- | --- | ---: | ${[folderServer.short, ...shorts].map(() => "---:").join(" | ")} | ---: |`,
    ...summary,
    ...missing.map((line) => `missing: ${line}`),
    "",
  ].join("\n"));
}
