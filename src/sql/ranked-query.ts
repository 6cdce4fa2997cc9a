/**
 * The rule of `createIndex` in SQL, for SQLite (Cloudflare D1, libSQL) and for PostgreSQL. The
 * query is tokenised here, by the index's own `tokenize`; a statement scores each candidate row
 * from its stored tokens (./row.ts) with the same weights, the same word-start halves, +10 a
 * covered token and the same phrase bonus, in half points, so every score is a whole number and
 * the order is exact. Only the rendering differs between the dialects (./dialects.ts).
 *
 * `buildSqliteRankedQuery` and `buildPostgresRankedQuery` give one statement that scores every
 * row holding a word that starts with a query token; `runSqliteRankedQuery` and
 * `runPostgresRankedQuery` (./ranked-search.ts) reach the same rows through a few statements that
 * read far fewer of them.
 */
import { checkLimit } from "../contract/limit.js";
import { McpSearchError } from "../errors.js";
import { normalizeText } from "../ranking/normalize.js";
import { COVERED_TOKEN_BONUS, halfPoints, MIN_PHRASE_LENGTH, MIN_PREFIX_LENGTH, PHRASE_BONUS, RULE_FIELDS, tokenize } from "../ranking/rule/definition.js";
import { QUALIFIED, dialectFor, type Dialect, type DialectName } from "./dialects.js";
import { LEXEME_LENGTH, phraseText } from "./row.js";
import { FIELD_COUNT, type TermSearch } from "./terms.js";

/**
 * A statement and the values bound to its placeholders, in order (`?` in SQLite, `$1`, `$2`… in
 * PostgreSQL). The statement returns the chosen `columns` and `score`, the entry's score
 * under the rule, best first, ties in the `order` column's ascending order.
 *
 * @example
 * const { sql, params }: RankedQuery = buildSqliteRankedQuery("soja", { table: "catalogue", order: "position" });
 * db.prepare(sql).all(...params); // => [{ id, title, url, score }, …]
 */
export interface RankedQuery {
  /** The statement: a `WITH … SELECT` whose only text from outside is the checked identifiers. */
  readonly sql: string;
  /** The values bound to its placeholders, in order: the needles, the phrase, the candidates' search and the limit. */
  readonly params: readonly (string | number)[];
}

/**
 * Options of {@link buildSqliteRankedQuery}, {@link buildPostgresRankedQuery} and the
 * `run…RankedQuery` functions.
 *
 * @example
 * buildPostgresRankedQuery("soja", { table: "catalogue", order: "position", limit: 5 } satisfies RankedQueryOptions);
 */
export interface RankedQueryOptions {
  /** The table that holds the entries and their `RankedRow` columns. A plain or schema-qualified identifier. */
  readonly table: string;
  /**
   * The column of the collection order, where ties go lowest first: the array index of
   * `createIndex` (an integer the server assigns at insert and keeps on update), unique and
   * indexed. In SQLite it is the table's rowid (`INTEGER PRIMARY KEY`), which the FTS5 table
   * indexes. A plain identifier.
   */
  readonly order: string;
  /** The columns to return, beside `score`. Plain identifiers, none named `score`. @default ["id", "title", "url"] */
  readonly columns?: readonly string[];
  /**
   * The most rows to return: a whole number from 0 to {@link SQL_RANKING_LIMITS}`.maxLimit`, as
   * every `limit` of the library is (0 returns none); any other value throws `McpSearchError`.
   * @default 10 (DEFAULT_LIMIT)
   */
  readonly limit?: number;
  /**
   * SQLite only (PostgreSQL reads the table's `lexeme_vector` column): the FTS5 table over the
   * `lexemes` column, whose rowids are the table's (docs/sql.md: external content on the rowid).
   * @default `${table}_lexemes` (in the table's schema when the table is qualified)
   */
  readonly fts?: string;
  /**
   * One more condition on the rows, AND-ed to the candidates' before they are ranked and cut:
   * a tenant, a date, or the vocabulary's word-start match (`buildGlobClause`,
   * `buildPostgresClause` on a column of `vocab.normalize(title)`), so that a query can use the
   * vocabulary's expansion and still be ranked by the rule. Called once a statement, with the
   * number of its first placeholder (PostgreSQL numbers them; SQLite's `?` need nothing); its
   * columns are read on the table, whose alias is `c`. Its `sql` is written into the statement as
   * it is: build it from bound values only.
   * @default undefined
   */
  readonly where?: (firstParameter: number) => { readonly sql: string; readonly params: readonly (string | number)[] };
}

/**
 * The caps on one ranked query. Beyond a cap the builders throw {@link McpSearchError} naming it;
 * they never drop a token, because the order would then differ from `createIndex`'s.
 *
 * - `maxTokens` (32): distinct query tokens (after stopwords). A statement binds two values a
 *   token, plus a few, so it stays below the 100 a Cloudflare D1 statement accepts (D1's limits
 *   page, as remembered when this was written), and about 22 KB of SQL against D1's 100 KB.
 * - `maxQueryLength` (4096): UTF-16 code units of the normalised query, twice the longest query
 *   the contract accepts (normalising can lengthen text).
 * - `maxLimit` (1000): the most rows one statement returns.
 *
 * @example
 * SQL_RANKING_LIMITS.maxTokens // => 32
 */
export const SQL_RANKING_LIMITS: {
  readonly maxTokens: number;
  readonly maxQueryLength: number;
  readonly maxLimit: number;
} = Object.freeze({ maxTokens: 32, maxQueryLength: 4096, maxLimit: 1000 });

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/**
 * The rule's fields as the statements score them: each `RankedRow` column, and an exact hit's
 * half points (a word-start hit is half of that), in the order of `RULE_FIELDS`.
 */
export const FIELDS: readonly (readonly [column: string, exact: number])[] = RULE_FIELDS.map(({ column, weight }) => [column, halfPoints(weight)] as const);
/** Half points for covering a query token, and for the phrase. */
export const COVERED = halfPoints(COVERED_TOKEN_BONUS);
export const PHRASE = halfPoints(PHRASE_BONUS);

/** What a statement needs from the query, read once for both dialects. */
export interface ReadQuery {
  readonly builder: string;
  readonly tokens: readonly string[];
  /** The normalised query (with the stand-ins of `phraseText`), when it is long enough for the phrase bonus (3 or more). */
  readonly phrase: string | undefined;
  readonly limit: number;
  readonly columns: readonly string[];
}

/** Checks the query and the options as every entry point does, and reads what the statements need. */
export function readQuery(builder: string, query: string, options: RankedQueryOptions): ReadQuery {
  if (typeof query !== "string") throw new McpSearchError(`${builder}: the query must be a string, not ${query === null ? "null" : typeof query}.`);
  if (options === null || typeof options !== "object") throw new McpSearchError(`${builder}: options { table, order } are required.`);
  const { table, order, columns = ["id", "title", "url"] } = options;
  if (typeof table !== "string" || !QUALIFIED.test(table)) {
    throw new McpSearchError(`${builder}: the table ${JSON.stringify(table)} is not a plain identifier ([A-Za-z_][A-Za-z0-9_]*, optionally schema.table).`);
  }
  for (const [what, name] of [["order column", order], ...(Array.isArray(columns) ? columns.map((column) => ["column", column] as const) : [])] as const) {
    if (typeof name !== "string" || !IDENTIFIER.test(name)) {
      throw new McpSearchError(`${builder}: the ${what} ${JSON.stringify(name)} is not a plain identifier ([A-Za-z_][A-Za-z0-9_]*).`);
    }
  }
  if (!Array.isArray(columns) || columns.length === 0) throw new McpSearchError(`${builder}: "columns" must list at least one column.`);
  if (columns.some((column) => column.toLowerCase() === "score" || column.toLowerCase().startsWith("rank_"))) {
    throw new McpSearchError(`${builder}: a column named "score" or starting with "rank_" would clash with the statement's own; select it under another name.`);
  }
  const { maxTokens, maxQueryLength, maxLimit } = SQL_RANKING_LIMITS;
  const rows = checkLimit(options.limit, builder, maxLimit);
  const length = normalizeText(query).length;
  if (length > maxQueryLength) {
    throw new McpSearchError(`${builder}: the query is ${length} characters long once normalised, over the ${maxQueryLength} a ranked query accepts: shorten it.`);
  }
  const tokens = tokenize(query);
  if (tokens.length > maxTokens) {
    throw new McpSearchError(`${builder}: the query has ${tokens.length} distinct words, over the ${maxTokens} a ranked query searches at once: shorten it.`);
  }
  if (options.where !== undefined && typeof options.where !== "function") {
    throw new McpSearchError(`${builder}: "where" must be a function (firstParameter) => { sql, params }.`);
  }
  // The bonus's length test counts the normalised query, as in memory, not its stand-ins.
  return { builder, tokens, phrase: length >= MIN_PHRASE_LENGTH ? phraseText(query) : undefined, limit: rows, columns };
}

/** What one ranking statement scores: its candidates, and the rows tied at a score that a search adds. */
interface RankingParts {
  /** The candidates: every row the search finds, and the first `count` rows of each search in `first`. */
  readonly all?: TermSearch;
  readonly first?: readonly { readonly search: TermSearch; readonly count: number; readonly frequent: boolean }[];
  /** The first rows whose title holds the phrase among the first `scan` rows of `search`, at most `count`. */
  readonly phrase?: { readonly search: TermSearch; readonly scan: number; readonly count: number };
  /** Every row of `search` whose order value is at most `order`. */
  readonly upTo?: { readonly search: TermSearch; readonly order: number };
  /** Return `rank_half` and `rank_order` too: the score in half points, and the order value. */
  readonly half?: boolean;
}

/**
 * The statement both dialects share. `rank_query` is one row that holds each query token's two
 * needles, one bound value each: " token " (an exact hit) and " token" (a word-start hit; the
 * exact needle again for a token of 2 characters, which has none), and the phrase. Each candidate
 * gets one column a token, its field hits in half points; the rows that cover a token are summed
 * (+20 a covered token, +10 for the phrase), ordered and cut; only then are the kept rows read in
 * full, by the order column, which is unique.
 */
export function renderRanking(query: ReadQuery, options: RankedQueryOptions, dialect: Dialect, parts: RankingParts): RankedQuery {
  const selected = query.columns.map((column) => `c.${column}`).join(", ");
  if (query.tokens.length === 0 || query.limit === 0) {
    return { sql: `SELECT ${selected}, 0 AS score${parts.half === true ? ", 0 AS rank_half, 0 AS rank_order" : ""} FROM ${options.table} AS c WHERE ${dialect.never}`, params: [] };
  }
  const params: (string | number)[] = [];
  const bind = (value: string | number): string => {
    params.push(value);
    return dialect.placeholder(params.length);
  };
  const needles = query.tokens.flatMap((token, i) => [
    `${dialect.text(bind(` ${token} `))} AS rank_e${i}`,
    `${dialect.text(bind(token.length >= MIN_PREFIX_LENGTH ? ` ${token}` : ` ${token} `))} AS rank_p${i}`,
  ]);
  if (query.phrase !== undefined) needles.push(`${dialect.text(bind(query.phrase))} AS rank_phrase`);
  const lines = [`WITH rank_query AS MATERIALIZED (SELECT ${needles.join(", ")}),`];
  const allowed = dialect.allowed(options.where, params);
  if (allowed.cte !== undefined) lines.push(`${allowed.cte},`);
  const hits = query.tokens.map((_, i) =>
    FIELDS.map(
      ([column, half]) =>
        // A word-start hit first: most fields have neither, and then one search suffices.
        `CASE WHEN ${dialect.contains(`c.${column}`, `q.rank_p${i}`)} THEN CASE WHEN ${dialect.contains(`c.${column}`, `q.rank_e${i}`)} THEN ${half} ELSE ${half / 2} END ELSE 0 END`,
    ).join("\n      + ") + ` AS rank_t${i}`,
  );
  if (query.phrase !== undefined) hits.push(`CASE WHEN ${dialect.contains("c.title_phrase", "q.rank_phrase")} THEN ${PHRASE} ELSE 0 END AS rank_bonus`);
  const tokens = query.tokens.map((_, i) => `rank_t${i}`);
  const half = tokens.map((name) => `CASE WHEN ${name} > 0 THEN ${name} + ${COVERED} ELSE 0 END`).join(" + ") + (query.phrase === undefined ? "" : " + rank_bonus");
  const filter = allowed.filter === undefined ? "" : ` AND ${allowed.filter(dialect.key)}`;
  let candidates: string;
  if (parts.all !== undefined && parts.all.length > 0 && (parts.first ?? []).length === 0 && parts.phrase === undefined && parts.upTo === undefined) {
    // Only every row of one search: its condition on the table itself, no self-join.
    candidates = `${dialect.condition(bind(dialect.search(parts.all)))}${filter}`;
  } else {
    const sources: string[] = [];
    if (parts.all !== undefined && parts.all.length > 0) sources.push(dialect.allRows(bind(dialect.search(parts.all)), allowed.filter));
    for (const { search, count, frequent } of parts.first ?? []) sources.push(dialect.firstRows(bind(dialect.search(search)), count, allowed.filter, frequent));
    if (parts.phrase !== undefined) {
      const { search, scan, count } = parts.phrase;
      sources.push(dialect.phraseRows(bind(dialect.search(search)), scan, bind(query.phrase ?? ""), count, allowed.filter));
    }
    if (parts.upTo !== undefined) sources.push(dialect.allRows(bind(dialect.search(parts.upTo.search)), allowed.filter, bind(parts.upTo.order)));
    candidates = sources.length === 0 ? dialect.never : `${dialect.key} IN (${sources.join("\n    UNION ALL ")})${filter}`;
  }
  lines.push(
    `rank_candidates AS MATERIALIZED (`,
    `  SELECT c.${options.order} AS rank_order,`,
    `    ${hits.join(",\n    ")}`,
    `  FROM rank_query AS q CROSS JOIN ${options.table} AS c WHERE ${candidates}`,
    `),`,
    `rank_top AS MATERIALIZED (`,
    `  SELECT rank_order, ${half} AS rank_half`,
    `  FROM rank_candidates WHERE ${tokens.join(" + ")} > 0 ORDER BY rank_half DESC, rank_order ASC LIMIT ${bind(query.limit)}`,
    `)`,
    `SELECT ${selected}, ${dialect.points("t.rank_half")} AS score${parts.half === true ? ", t.rank_half AS rank_half, t.rank_order AS rank_order" : ""} FROM rank_top AS t JOIN ${options.table} AS c ON c.${options.order} = t.rank_order`,
    `ORDER BY t.rank_half DESC, t.rank_order ASC`,
  );
  return { sql: lines.join("\n"), params };
}

/** Every field of every token, as a prefix from 3 characters, exactly below: all the rows that can score. */
export function everyRow(tokens: readonly string[]): TermSearch {
  return [[tokens.flatMap((token) => Array.from({ length: FIELD_COUNT }, (_, field) => ({ token: token.slice(0, LEXEME_LENGTH), field, prefix: token.length >= MIN_PREFIX_LENGTH })))]];
}

/** The one-statement ranking of a dialect: every candidate scored. */
function buildRankedQuery(name: DialectName, builder: string, query: string, options: RankedQueryOptions): RankedQuery {
  const read = readQuery(builder, query, options);
  const { sql, params } = renderRanking(read, options, dialectFor(name, builder, options), { all: everyRow(read.tokens) });
  return { sql, params };
}

/**
 * Builds the SQLite statement (Cloudflare D1, libSQL, better-sqlite3, node:sqlite) that ranks
 * `options.table` for `query` exactly as `createIndex(entries).search(query, { limit })` ranks the
 * same entries: same rows, same order, ties in the `order` column's order. The candidates come
 * from the FTS5 table over `lexemes` (`options.fts`): every row with a word that starts with a
 * query token, each scored from its `RankedRow` columns with `instr`. One statement, fast while
 * the query's words are in a few thousand rows; {@link runSqliteRankedQuery} reads far fewer rows
 * when a word is in most of them. Every value is bound (`?` placeholders, each used once); only the
 * identifiers, checked as plain, are written into the SQL. NUL and surrogates in the query are no
 * word characters, and the phrase keeps them exact through the stand-ins of
 * `RankedRow.title_phrase`. A query with no token, or a limit of 0, gives a statement that returns
 * no row. Throws {@link McpSearchError} for an identifier that is not plain, a limit that is not a
 * whole number from 0 to `SQL_RANKING_LIMITS.maxLimit`, or a query over {@link SQL_RANKING_LIMITS}.
 *
 * @example
 * const { sql, params } = buildSqliteRankedQuery("cultivo de soja", { table: "catalogue", order: "position", limit: 5 });
 * params; // => [" cultivo ", " cultivo", " soja ", " soja", "cultivo de soja", '("icultivo"* OR "tcultivo"* OR … OR "xsoja"*)', 5]
 * env.DB.prepare(sql).bind(...params).all(); // D1; with better-sqlite3: db.prepare(sql).all(...params)
 */
export function buildSqliteRankedQuery(query: string, options: RankedQueryOptions): RankedQuery {
  return buildRankedQuery("sqlite", "buildSqliteRankedQuery", query, options);
}

/**
 * Builds the PostgreSQL statement (also Supabase, Neon, RDS, Citus) that ranks `options.table`
 * for `query` exactly as `createIndex(entries).search(query, { limit })` ranks the same entries:
 * same rows, same order, ties in the `order` column's order. The candidates come from the GIN
 * index on the `lexeme_vector` column (`ranked_lexeme_vector(lexemes)`, see docs/sql.md), searched
 * with a bound `tsquery`; each is scored from its `RankedRow` columns with `strpos`. One statement,
 * fast while the query's words are in a few thousand rows; {@link runPostgresRankedQuery} reads far
 * fewer rows when a word is in most of them. Every value is bound (`$1`, `$2`…); only the
 * identifiers, checked as plain, are written into the SQL. A query with no token, or a limit of
 * 0, gives a statement that returns no row. Throws {@link McpSearchError} as
 * {@link buildSqliteRankedQuery} does.
 *
 * @example
 * const { sql, params } = buildPostgresRankedQuery("soja", { table: "catalogue", order: "position" });
 * params; // => [" soja ", " soja", "soja", "(Isoja | Tsoja | Ksoja | Xsoja)", 10]
 * await pool.query(sql, params); // node-postgres; PGlite's db.query takes the same
 */
export function buildPostgresRankedQuery(query: string, options: RankedQueryOptions): RankedQuery {
  return buildRankedQuery("postgres", "buildPostgresRankedQuery", query, options);
}
