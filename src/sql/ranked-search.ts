/**
 * The ranked search in a few statements: the same rows and order as one ranked statement
 * (./ranked-query.ts), without scoring every row that holds a word of the query. A word in most
 * rows ("ibge" in the ids of a catalogue of municipalities) made that statement score most of the
 * table; here it reads a few thousand rows at most in the common case:
 *
 * 1. Count, up to a cap, the rows that hold each query token in each field, exactly and as a
 *    prefix (one statement of index look-ups).
 * 2. Score every row of the rare (token, field) pairs, and the first rows in the order column's
 *    order of each frequent pair, of all tokens together, and of the title holding the phrase:
 *    real rows, so the `limit`-th best score among them, θ, is at most the answer's last score.
 *    When no row without a rare pair can reach θ, these rows hold the answer.
 * 3. Otherwise score, in one statement, the rows whose ceiling (./top-k.ts) is above θ, and the
 *    rows whose ceiling reaches θ up to the order value of the sample's `limit`-th row: the
 *    answer's rows at θ come first in order among the rows at θ, and the sample already holds
 *    enough of them by there. Every row of the answer is among these, so their best `limit` rows
 *    are the answer.
 *
 * Every statement binds its values; a `where` condition is bound once in each.
 */
import { McpSearchError } from "../errors.js";
import { dialectFor, type DialectName } from "./dialects.js";
import { everyRow, readQuery, renderRanking, type RankedQueryOptions, type ReadQuery } from "./ranked-query.js";
import { LEXEME_LENGTH } from "./row.js";
import { FIELD, MIN_PREFIX_LENGTH } from "../ranking/rule/definition.js";
import { FIELD_COUNT, single, type TermSearch } from "./terms.js";
import { planTopK, type PairCount } from "./top-k.js";

/**
 * Runs one statement and gives its rows as objects keyed by column name: `(sql, params) =>
 * db.prepare(sql).all(...params)` with better-sqlite3, `env.DB.prepare(sql).bind(...params).all()`
 * then `.results` with D1, `(await pool.query(sql, [...params])).rows` with node-postgres or
 * PGlite. Called a few times a search, one statement at a time; reads only.
 *
 * @example
 * const run: RankedStatementRunner = async (sql, params) => (await pool.query(sql, [...params])).rows;
 */
export type RankedStatementRunner = (
  sql: string,
  params: readonly (string | number)[],
) => Promise<readonly Record<string, unknown>[]> | readonly Record<string, unknown>[];

/**
 * The thresholds of the search; the tests lower them to walk every step on small tables.
 * - `rareRows`: a (token, field) pair found in more rows is frequent; a rare one has all its rows
 *   scored.
 * - `rareEstimate`: the same on PostgreSQL, whose count is its planner's estimate (which gives
 *   about 0.5 % of the rows to a lexeme outside its statistics' most common ones).
 * - `sampleRows`: the first rows of each search the sample scores (at least the limit).
 */
export interface RankedSearchTuning {
  readonly rareRows: number;
  readonly rareEstimate: number;
  readonly sampleRows: number;
}
const TUNING: RankedSearchTuning = { rareRows: 1000, rareEstimate: 5000, sampleRows: 30 };
/** The rows scanned for the phrase in the sample. */
const PHRASE_SCAN = 4000;
/**
 * The most first-rows searches in the sample, one bound value each, and the values they share
 * with the needles (two a token): with the rare terms, the phrase and the limit, a statement binds
 * at most 96 values, below the 100 of a D1 statement.
 */
const SAMPLE_SEARCHES = 24;
const SAMPLE_VALUES = 92;

/** Step 1: every (token, field) pair's rows, counted up to one more than the cap; one bound value a token. */
async function countPairs(name: DialectName, builder: string, run: RankedStatementRunner, read: ReadQuery, options: RankedQueryOptions, cap: number): Promise<PairCount[]> {
  const dialect = dialectFor(name, builder, options);
  const tokens = read.tokens.map((token) => token.slice(0, LEXEME_LENGTH));
  const pairs = tokens.flatMap((token, i) => Array.from({ length: FIELD_COUNT }, (_, field) => ({ token: i, field, short: token.length < MIN_PREFIX_LENGTH })));
  if (name === "postgres") {
    // PostgreSQL: the planner's estimates from the table's statistics, one scan a term; counting
    // would build each term's bitmap in full.
    const terms = pairs.flatMap(({ token, field, short }) => [false, ...(short ? [] : [true])].map((prefix) => single({ token: tokens[token]!, field, prefix })));
    const scans = terms.map((_, i) => `SELECT 1 FROM ${options.table} AS c WHERE c.lexeme_vector @@ $${i + 1}::tsquery`);
    const [row] = await run(`EXPLAIN (FORMAT JSON) ${scans.join(" UNION ALL ")}`, terms.map((term) => dialect.search(term)));
    const estimates = planRows(row);
    let next = 0;
    // An estimate is never taken for "no row": a pair counted 0 would never be searched.
    const estimate = (): number => Math.max(1, estimates[next++] ?? 1);
    return pairs.map(({ token, field, short }) => {
      const exact = estimate();
      return { token, field, exact, prefix: short ? exact : estimate() };
    });
  }
  // SQLite: each token is bound once, in a one-row CTE (its drivers do not all take numbered
  // placeholders), and read by its eight counts.
  const placeholder = (i: number): string => `(SELECT rank_w${i} FROM rank_words)`;
  const columns = pairs.flatMap(({ token, field, short }) => [
    `${dialect.count(placeholder(token), field, false, cap + 1)} AS rank_e${token}_${field}`,
    ...(short ? [] : [`${dialect.count(placeholder(token), field, true, cap + 1)} AS rank_p${token}_${field}`]),
  ]);
  const words = `WITH rank_words AS MATERIALIZED (SELECT ${tokens.map((_, i) => `? AS rank_w${i}`).join(", ")}) `;
  const [row] = await run(`${words}SELECT ${columns.join(", ")}`, tokens);
  if (row === undefined) throw new McpSearchError(`${builder}: the count statement returned no row.`);
  return pairs.map(({ token, field, short }) => {
    const exact = Number(row[`rank_e${token}_${field}`]);
    return { token, field, exact, prefix: short ? exact : Number(row[`rank_p${token}_${field}`]) };
  });
}

/** The estimated rows of each scan of an `EXPLAIN (FORMAT JSON)` of scans joined by UNION ALL, in order. */
function planRows(row: Record<string, unknown> | undefined): number[] {
  const cell = row?.["QUERY PLAN"];
  const plan = (typeof cell === "string" ? JSON.parse(cell) : cell) as [{ Plan: { "Node Type": string; "Plan Rows": number; Plans?: { "Plan Rows": number }[] } }] | undefined;
  const top = plan?.[0]?.Plan;
  if (top === undefined) return [];
  return top["Node Type"] === "Append" ? (top.Plans ?? []).map((child) => child["Plan Rows"]) : [top["Plan Rows"]];
}

/** The rows of one ranking statement, without its own columns, with their scores in half points and order values. */
async function rankRows(
  run: RankedStatementRunner,
  statement: { sql: string; params: readonly (string | number)[] },
): Promise<{ rows: Record<string, unknown>[]; halves: number[]; orders: number[] }> {
  const rows = await run(statement.sql, statement.params);
  return {
    rows: rows.map(({ rank_half: _half, rank_order: _order, ...rest }) => rest),
    halves: rows.map((row) => Number(row.rank_half)),
    orders: rows.map((row) => Number(row.rank_order)),
  };
}

/** The ranked search of a dialect (the exported functions below), its thresholds given. */
export async function rankInSteps(
  name: DialectName,
  builder: string,
  run: RankedStatementRunner,
  query: string,
  options: RankedQueryOptions,
  tuning: RankedSearchTuning = TUNING,
): Promise<Record<string, unknown>[]> {
  const read = readQuery(builder, query, options);
  if (typeof run !== "function") throw new McpSearchError(`${builder}: "run" must be a function (sql, params) => rows.`);
  if (read.tokens.length === 0 || read.limit === 0) return [];
  const dialect = dialectFor(name, builder, options);
  const rank = async (parts: Parameters<typeof renderRanking>[3]) => rankRows(run, renderRanking(read, options, dialect, { ...parts, half: true }));
  const tokens = read.tokens.map((token) => token.slice(0, LEXEME_LENGTH));
  const cap = name === "postgres" ? tuning.rareEstimate : tuning.rareRows;
  const plan = planTopK(tokens, read.phrase, await countPairs(name, builder, run, read, options, cap), cap);
  if (plan.frequent.length === 0) return (await rank({ all: everyRow(read.tokens) })).rows;

  // Step 2: a sample of real rows, for θ.
  const count = Math.max(tuning.sampleRows, read.limit);
  const wide = (token: number, field: number) => ({ token: tokens[token]!, field, prefix: tokens[token]!.length >= MIN_PREFIX_LENGTH });
  const found = (token: number, field: number): boolean => plan.rare.some((term) => term.token === tokens[token] && term.field === field) || plan.frequent.some((pair) => pair.token === token && pair.field === field);
  const fieldsOf = (token: number) => Array.from({ length: FIELD_COUNT }, (_, field) => field).filter((field) => found(token, field));
  const first: { search: TermSearch; count: number; frequent: boolean }[] = [];
  if (tokens.length > 1) {
    if (tokens.every((_, token) => fieldsOf(token).length > 0)) first.push({ search: [tokens.map((_, token) => fieldsOf(token).map((field) => wide(token, field)))], count, frequent: false });
    for (let field = 0; field < FIELD_COUNT; field++) {
      if (tokens.every((_, token) => found(token, field))) first.push({ search: [tokens.map((_, token) => [wide(token, field)])], count, frequent: false });
    }
  }
  // Each frequent pair's rows, at its lowest level (SQLite: at each level).
  for (const pair of plan.frequent) for (const { term } of name === "sqlite" ? pair.levels : pair.levels.slice(0, 1)) first.push({ search: single(term), count, frequent: true });
  const titles = tokens.flatMap((_, token) => (found(token, FIELD.title) ? [wide(token, FIELD.title)] : []));
  const sample = await rank({
    all: plan.rare.length === 0 ? [] : [[plan.rare]],
    first: first.slice(0, Math.min(SAMPLE_SEARCHES, SAMPLE_VALUES - 2 * tokens.length)),
    ...(read.phrase === undefined || titles.length === 0 ? {} : { phrase: { search: [[titles]], scan: PHRASE_SCAN, count } }),
  });
  const theta = sample.halves[read.limit - 1];
  const last = sample.orders[read.limit - 1];
  // Fewer rows than the limit (a `where` that keeps few): score them all.
  if (theta === undefined || last === undefined) return (await rank({ all: everyRow(read.tokens) })).rows;
  if (plan.ceiling < theta) return sample.rows;

  // Step 3: the rows that can beat θ, and those that can reach it up to the sample's last row.
  const above = plan.reaching(theta + 1);
  const at = plan.reaching(theta);
  if (above === undefined || at === undefined) return (await rank({ all: everyRow(read.tokens) })).rows;
  const all: TermSearch = [...(plan.rare.length === 0 ? [] : [[plan.rare]]), ...above];
  return (await rank({ all, ...(at.length === 0 ? {} : { upTo: { search: at, order: last } }) })).rows;
}

/**
 * Ranks `options.table` for `query` on SQLite (Cloudflare D1, libSQL, better-sqlite3,
 * node:sqlite) exactly as {@link buildSqliteRankedQuery}'s statement does, and so as
 * `createIndex(entries).search(query, { limit })`: same rows, same order, the same `columns` and
 * `score`. It runs two or three statements through `run`, one at a time, and reads only the rows
 * that can still make the list: a few thousand at most in the common case, where the one
 * statement scores every row that holds a word starting with a query token (most of the table for
 * a word like "ibge" in a catalogue of municipalities). How it stays exact is in docs/sql.md.
 * Requires the schema of docs/sql.md: the FTS5 table over the tagged `lexemes` (`options.fts`),
 * with its prefix indexes, on the table's rowid, which is the `order` column. Throws
 * {@link McpSearchError} as {@link buildSqliteRankedQuery} does; a statement that fails rejects
 * with its error.
 *
 * @example
 * const rows = await runSqliteRankedQuery((sql, params) => db.prepare(sql).all(...params), "ibge:3550308", { table: "catalogue", order: "position" });
 * // => [{ id: "ibge:3550308", title: "São Paulo (SP)", url: "https://…", score: 42 }, …]
 * // D1: runSqliteRankedQuery(async (sql, params) => (await env.DB.prepare(sql).bind(...params).all()).results, query, options)
 */
export async function runSqliteRankedQuery(run: RankedStatementRunner, query: string, options: RankedQueryOptions): Promise<Record<string, unknown>[]> {
  return rankInSteps("sqlite", "runSqliteRankedQuery", run, query, options);
}

/**
 * Ranks `options.table` for `query` on PostgreSQL exactly as {@link buildPostgresRankedQuery}'s
 * statement does, and so as `createIndex(entries).search(query, { limit })`, reading only the rows
 * that can still make the list, in two or three statements run through `run` one at a time (see
 * {@link runSqliteRankedQuery}). Requires the schema of docs/sql.md: `lexeme_vector` generated by
 * `ranked_lexeme_vector(lexemes)` with its GIN index, and an index on the `order` column (the
 * primary key there). Throws {@link McpSearchError} as {@link buildPostgresRankedQuery} does; a
 * statement that fails rejects with its error.
 *
 * @example
 * const rows = await runPostgresRankedQuery(async (sql, params) => (await pool.query(sql, [...params])).rows, "ibge:3550308", { table: "catalogue", order: "position" });
 * // => [{ id: "ibge:3550308", title: "São Paulo (SP)", url: "https://…", score: 42 }, …]
 */
export async function runPostgresRankedQuery(run: RankedStatementRunner, query: string, options: RankedQueryOptions): Promise<Record<string, unknown>[]> {
  return rankInSteps("postgres", "runPostgresRankedQuery", run, query, options);
}
