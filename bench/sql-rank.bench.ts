/**
 * The rule in the database, at scale: 1,000,000 real-shaped pt-BR catalogue entries
 * (bench/_corpora.ts: IBGE municipalities, CNAE subclasses and CBO occupations, scaled with
 * topics and years), ranked by `runPostgresRankedQuery` on a real PostgreSQL server (Debian's,
 * started and stopped here in a temporary folder, bench/_postgres-server.ts) and by
 * `runSqliteRankedQuery` on SQLite on disk, next to `createIndex` in memory and to PostgreSQL's
 * own full-text search (a `portuguese` tsvector with `ts_rank`) on the same rows. Reported: load
 * time, sizes, and per-query p50/p99 over the query set of the ranking bench (warm: the set runs
 * once, then three timed rounds). The set-up throws if either database's top 10 differs from
 * `createIndex`'s for any query. Set SQL_RANK_ROWS for another size. Run: `npm run bench`.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, bench, describe } from "vitest";
import { createIndex, runPostgresRankedQuery, runSqliteRankedQuery, type SearchResult } from "../src/index.js";
import { buildCorpus, buildQueries } from "./_corpora.js";
import { startPostgresServer } from "./_postgres-server.js";
import { POSTGRES_SCHEMA, SQLITE_SCHEMA, loadPostgres, loadSqlite } from "./_ranked-schema.js";

const ROWS = Number(process.env.SQL_RANK_ROWS ?? 1_000_000);
const ROUNDS = 3;
const entries = buildCorpus("pt", ROWS);
const queries = buildQueries("pt");
const OPTIONS = { table: "catalogue", order: "position" } as const;

type Search = (query: string) => Promise<readonly { id: string }[]> | readonly { id: string }[];

const seconds = (since: number): string => `${((performance.now() - since) / 1000).toFixed(1)} s`;
const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MB`;
function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

interface Timing {
  readonly p50: number;
  readonly p99: number;
  readonly worst: string;
}

/** Per-query timings over warm rounds: p50, p99 and the slowest query, with the share of the entries it matches. */
const loads: number[] = [];
async function timeQueries(search: Search): Promise<Timing> {
  loads.push(loadavg()[0]!);
  for (const query of queries) await search(query);
  const times: number[] = [];
  const worst = { ms: 0, query: "" };
  for (let round = 0; round < ROUNDS; round++) {
    for (const query of queries) {
      const started = performance.now();
      await search(query);
      const ms = performance.now() - started;
      times.push(ms);
      if (ms > worst.ms) Object.assign(worst, { ms, query });
    }
  }
  loads.push(loadavg()[0]!);
  times.sort((a, b) => a - b);
  const share = (100 * index.search(worst.query, { limit: ROWS }).length) / ROWS;
  return { p50: percentile(times, 50), p99: percentile(times, 99), worst: `${JSON.stringify(worst.query)} ${worst.ms.toFixed(0)} ms (matches ${share.toFixed(0)} % of the entries)` };
}

const lines: string[] = [];
let reference: Timing | undefined;
const report = (engine: string, load: string, size: string, timing: Timing): void => {
  reference ??= timing;
  const ratio = (value: number, base: number): string => `${value.toFixed(1)} (${(value / base).toFixed(value / base < 10 ? 1 : 0)}×)`;
  lines.push(`| ${engine} | ${load} | ${size} | ${ratio(timing.p50, reference.p50)} | ${ratio(timing.p99, reference.p99)} | ${timing.worst} |`);
};

// createIndex in memory: the reference order, and the in-memory competitor.
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const heapBefore = process.memoryUsage().heapUsed;
let started = performance.now();
const index = createIndex(entries);
const indexLoad = seconds(started);
gc?.();
const indexHeap = process.memoryUsage().heapUsed - heapBefore;
const memorySearch: Search = (query) => index.search(query);
const expected = new Map(queries.map((query) => [query, index.search(query).map((hit) => hit.id)]));

function checkSame(engine: string, query: string, got: readonly { id: string }[]): void {
  const want = expected.get(query) ?? [];
  const ids = got.map((hit) => hit.id);
  if (JSON.stringify(ids) !== JSON.stringify(want)) {
    throw new Error(`${engine} differs from createIndex on ${JSON.stringify(query)}: ${JSON.stringify(ids)} against ${JSON.stringify(want)}`);
  }
}

// SQLite on disk.
const folder = mkdtempSync(join(tmpdir(), "mcp-search-sqlite-"));
const file = join(folder, "catalogue.db");
const sqlite = new Database(file);
sqlite.pragma("journal_mode = WAL");
sqlite.pragma("synchronous = OFF");
started = performance.now();
sqlite.exec(SQLITE_SCHEMA);
loadSqlite(sqlite, entries);
sqlite.exec("INSERT INTO catalogue_lexemes (catalogue_lexemes) VALUES ('optimize')");
sqlite.pragma("wal_checkpoint(TRUNCATE)");
const sqliteLoad = seconds(started);
const ftsBytes = Number((sqlite.prepare("SELECT sum(pgsize) AS bytes FROM dbstat WHERE name LIKE 'catalogue_lexemes%'").get() as { bytes: number }).bytes);
const sqliteSize = `${mb(statSync(file).size)} (FTS5 ${mb(ftsBytes)})`;
const statements = new Map<string, Database.Statement>();
const sqliteSearch: Search = async (query) =>
  (await runSqliteRankedQuery((sql, params) => {
    let statement = statements.get(sql);
    if (statement === undefined) statements.set(sql, (statement = sqlite.prepare(sql)));
    return statement.all(...params) as Record<string, unknown>[];
  }, query, OPTIONS)) as { id: string }[];

// PostgreSQL, a real server.
// JIT compilation and parallel workers cost more than they save on statements of a few
// milliseconds (the workers' start alone is about 10 ms): docs/sql.md advises both off for them.
const server = await startPostgresServer({ shared_buffers: "2GB", work_mem: "64MB", max_wal_size: "4GB", jit: "off", max_parallel_workers_per_gather: "0" });
const pg = server.client;
started = performance.now();
await pg.query(POSTGRES_SCHEMA.replace(/CREATE INDEX[^;]+;/, ""));
await loadPostgres(pg, entries);
await pg.query(POSTGRES_SCHEMA.match(/CREATE INDEX[^;]+;/)![0]);
await pg.query("VACUUM ANALYZE catalogue");
const pgLoad = seconds(started);
const pgBytes = async (relation: string): Promise<number> => Number((await pg.query<{ b: string }>(`SELECT pg_total_relation_size('${relation}') AS b`)).rows[0]!.b);
const pgSize = `${mb(await pgBytes("catalogue"))} (GIN ${mb(await pgBytes("catalogue_lexeme_vector"))})`;
const postgresSearch: Search = async (query) =>
  (await runPostgresRankedQuery(async (sql, params) => (await pg.query(sql, [...params])).rows, query, OPTIONS)) as { id: string }[];

// PostgreSQL's own full-text search on the same rows: a stored portuguese tsvector, GIN, ts_rank.
started = performance.now();
await pg.query(`ALTER TABLE catalogue ADD COLUMN fts tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('portuguese', id), 'A') || setweight(to_tsvector('portuguese', title), 'B') ||
  setweight(to_tsvector('portuguese', keyword_tokens), 'C') || setweight(to_tsvector('portuguese', text_tokens), 'D')) STORED`);
await pg.query("CREATE INDEX catalogue_fts ON catalogue USING gin (fts)");
await pg.query("VACUUM ANALYZE catalogue");
const ftsLoad = seconds(started);
const ftsSize = `GIN ${mb(await pgBytes("catalogue_fts"))}`;
const tsRankSearch: Search = async (query) =>
  (
    await pg.query<{ id: string }>(
      "SELECT id FROM catalogue, plainto_tsquery('portuguese', $1) AS q WHERE fts @@ q ORDER BY ts_rank(fts, q) DESC, position LIMIT 10",
      [query],
    )
  ).rows;

for (const query of queries) {
  checkSame("SQLite", query, (await sqliteSearch(query)) as SearchResult[]);
  checkSame("PostgreSQL", query, await postgresSearch(query));
}

report("createIndex (in memory)", indexLoad, `heap ${mb(indexHeap)}`, await timeQueries(memorySearch));
report(`runSqliteRankedQuery (SQLite ${sqlite.prepare("SELECT sqlite_version() AS v").pluck().get() as string}, on disk)`, sqliteLoad, sqliteSize, await timeQueries(sqliteSearch));
report(`runPostgresRankedQuery (PostgreSQL ${server.version})`, pgLoad, pgSize, await timeQueries(postgresSearch));
report(`to_tsvector + ts_rank (PostgreSQL ${server.version}, not the rule)`, `+${ftsLoad}`, ftsSize, await timeQueries(tsRankSearch));
console.log(
  [
    `The rule in SQL, ${ROWS.toLocaleString("en")} entries, ${queries.length} queries × ${ROUNDS} warm rounds (ms a query, and × createIndex's; both databases' top 10 equal createIndex's; 1-minute load average ${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)} while timing):`,
    "| engine | load | size | p50 ms | p99 ms | slowest query |",
    "| --- | --- | --- | ---: | ---: | --- |",
    ...lines,
  ].join("\n"),
);

afterAll(async () => {
  sqlite.close();
  rmSync(folder, { recursive: true, force: true });
  await server.stop();
});

describe(`the rule over ${ROWS.toLocaleString("en")} entries, the whole query set`, () => {
  const once = { iterations: 1, time: 0, warmupIterations: 0 };
  bench("createIndex (in memory)", async () => {
    for (const query of queries) await memorySearch(query);
  }, once);
  bench("runSqliteRankedQuery (SQLite on disk)", async () => {
    for (const query of queries) await sqliteSearch(query);
  }, once);
  bench("runPostgresRankedQuery (PostgreSQL server)", async () => {
    for (const query of queries) await postgresSearch(query);
  }, once);
});
