/**
 * The PostgreSQL clause at scale, on PGlite (Postgres compiled to WASM, in this process): 1M rows
 * (the 10k real catalogue names of bench/_corpora.ts, each repeated with a year and a number, so
 * every row differs), queried with `buildPostgresClause`, without an index and then with the
 * pg_trgm GIN index the docs advise. Set SQL_BENCH_ROWS for another size. The set-up (insert,
 * index build) is timed once and printed; the queries are the bench rows.
 */
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { afterAll, bench, describe } from "vitest";
import { buildPostgresClause, createVocabulary } from "../src/index.js";
import { buildCorpus } from "./_corpora.js";

const ROWS = Number(process.env.SQL_BENCH_ROWS ?? 1_000_000);
const vocab = createVocabulary({
  locale: "pt-BR",
  sourceName: "o IBGE",
  entries: [{ asked: "dentista", source: ["odontolog"] }],
});
const names = buildCorpus("pt", 10_000).map((entry) => vocab.normalize(entry.title));
const QUERIES = ["cultivo de soja", "dentista", "sao jose", "enfermagem"];

async function loadDatabase(indexed: boolean): Promise<PGlite> {
  const db = await PGlite.create({ extensions: { pg_trgm } });
  await db.exec("CREATE EXTENSION pg_trgm; CREATE TABLE base (name_lc text); CREATE TABLE names (id integer, name_lc text)");
  await db.query("INSERT INTO base SELECT value FROM json_array_elements_text($1::json)", [JSON.stringify(names)]);
  let started = performance.now();
  await db.query(
    `INSERT INTO names SELECT row_number() OVER (), b.name_lc || ' ' || (2000 + g % 25) || ' n' || g
       FROM generate_series(1, $1::int / (SELECT count(*) FROM base)::int + 1) AS g CROSS JOIN base AS b LIMIT $1`,
    [ROWS],
  );
  const inserted = performance.now() - started;
  started = performance.now();
  if (indexed) await db.exec("CREATE INDEX names_trgm ON names USING gin (name_lc gin_trgm_ops)");
  await db.exec("ANALYZE names");
  console.log(
    `PGlite, ${ROWS.toLocaleString("en")} rows: inserted in ${(inserted / 1000).toFixed(1)} s` +
      (indexed ? `, pg_trgm GIN index built in ${((performance.now() - started) / 1000).toFixed(1)} s` : ", no index"),
  );
  return db;
}

async function count(db: PGlite, query: string): Promise<number> {
  const { sql, params } = buildPostgresClause(vocab.expandQuery(query), "name_lc");
  const result = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM names WHERE ${sql}`, [...params]);
  return result.rows[0]!.n;
}

/** The best of `runs` timings of one query, in milliseconds. */
async function timeQuery(db: PGlite, query: string, runs = 3): Promise<number> {
  let best = Infinity;
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    await count(db, query);
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

// Timed here, once, and printed: a 1M-row database is loaded twice, which no bench loop repeats.
const timings = new Map<string, number[]>();
let indexedDb: PGlite | undefined;
for (const indexed of [false, true]) {
  const db = await loadDatabase(indexed);
  const row: number[] = [];
  for (const query of QUERIES) row.push(await timeQuery(db, query));
  timings.set(indexed ? "pg_trgm GIN" : "no index", row);
  const counts = await Promise.all(QUERIES.map((query) => count(db, query)));
  console.log(`  matching rows: ${QUERIES.map((query, i) => `${JSON.stringify(query)} ${counts[i]}`).join(", ")}`);
  if (indexed) indexedDb = db;
  else await db.close();
}
const [plain, gin] = [timings.get("no index") ?? [], timings.get("pg_trgm GIN") ?? []];
console.log(`buildPostgresClause on ${ROWS.toLocaleString("en")} rows (PGlite), best of 3, ms:`);
QUERIES.forEach((query, i) =>
  console.log(
    `  ${JSON.stringify(query).padEnd(18)} no index ${plain[i]!.toFixed(1).padStart(8)}   pg_trgm GIN ${gin[i]!.toFixed(1).padStart(7)}   ` +
      `${(plain[i]! / gin[i]!).toFixed(1)}× faster with the index`,
  ),
);

describe(`buildPostgresClause on ${ROWS.toLocaleString("en")} rows with the pg_trgm GIN index`, () => {
  afterAll(async () => indexedDb?.close());
  for (const query of QUERIES) {
    bench(JSON.stringify(query), async () => {
      await count(indexedDb as PGlite, query);
    }, { time: 200, iterations: 3 });
  }
});
