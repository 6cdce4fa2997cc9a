/**
 * The rule of `createIndex` as one SQL statement, for SQLite (Cloudflare D1, libSQL) and for
 * PostgreSQL. The query is tokenised here, by the index's own `tokenize`; the statement scores
 * each candidate row from its stored tokens (./row.ts) with the same weights, the same word-start
 * halves, +10 a covered token and the same phrase bonus, in half points, so every score is a
 * whole number and the order is exact. Only the rendering differs between the dialects.
 */
import { McpSearchError } from "../errors.js";
import { normalizeText, tokenize } from "../ranking/create-index.js";
import { LEXEME_LENGTH, phraseText } from "./row.js";

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
 * Options of {@link buildSqliteRankedQuery} and {@link buildPostgresRankedQuery}.
 *
 * @example
 * buildPostgresRankedQuery("soja", { table: "catalogue", order: "position", limit: 5 } satisfies RankedQueryOptions);
 */
export interface RankedQueryOptions {
  /** The table that holds the entries and their `RankedRow` columns. A plain or schema-qualified identifier. */
  readonly table: string;
  /**
   * The column of the collection order, where ties go lowest first: the array index of
   * `createIndex` (an integer the server assigns at insert and keeps on update). A plain identifier.
   */
  readonly order: string;
  /** The columns to return, beside `score`. Plain identifiers, none named `score`. @default ["id", "title", "url"] */
  readonly columns?: readonly string[];
  /** The most rows to return, `max(0, floor(limit))`, at most {@link SQL_RANKING_LIMITS}`.maxLimit`. @default 10 */
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
   * vocabulary's expansion and still be ranked by the rule. Called with the number of its first
   * placeholder (PostgreSQL numbers them; SQLite's `?` need nothing); its columns are read on the
   * table, whose alias is `c`. Its `sql` is written into the statement as it is: build it from
   * bound values only.
   * @default undefined
   */
  readonly where?: (firstParameter: number) => { readonly sql: string; readonly params: readonly (string | number)[] };
}

/**
 * The caps on one ranked query. Beyond a cap the builders throw {@link McpSearchError} naming it;
 * they never drop a token, because the order would then differ from `createIndex`'s.
 *
 * - `maxTokens` (32): distinct query tokens (after stopwords). SQLite binds two values a token,
 *   plus three, so a statement binds at most 67 values, below the 100 a Cloudflare D1 statement
 *   accepts (D1's limits page, as remembered when this was written), and about 22 KB of SQL
 *   against D1's 100 KB.
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
const QUALIFIED = /^(?:[A-Za-z_][A-Za-z0-9_]*\.)?[A-Za-z_][A-Za-z0-9_]*$/;
/**
 * The fields of a `RankedRow` and their weights, in half points for an exact hit (a word-start hit
 * is half): the rule's weights (id 10, title 3, keywords 2, text 1, README "How ranking works"),
 * restated here; the identity tests against `createIndex` fail if the two ever differ.
 */
const FIELDS: readonly (readonly [column: string, exact: number])[] = [
  ["id_tokens", 20],
  ["title_tokens", 6],
  ["keyword_tokens", 4],
  ["text_tokens", 2],
];
/** Half points for covering a query token, and for the phrase. */
const COVERED = 20;
const PHRASE = 10;

/** What a statement needs from the query, read once for both dialects. */
interface ReadQuery {
  readonly builder: string;
  readonly tokens: readonly string[];
  /** The normalised query, when it is long enough for the phrase bonus (3 or more). */
  readonly phrase: string | undefined;
  readonly limit: number;
  readonly columns: readonly string[];
}

function readQuery(builder: string, query: string, options: RankedQueryOptions): ReadQuery {
  if (typeof query !== "string") throw new McpSearchError(`${builder}: the query must be a string, not ${query === null ? "null" : typeof query}.`);
  if (options === null || typeof options !== "object") throw new McpSearchError(`${builder}: options { table, order } are required.`);
  const { table, order, columns = ["id", "title", "url"], limit = 10 } = options;
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
  if (typeof limit !== "number" || Number.isNaN(limit)) throw new McpSearchError(`${builder}: the limit must be a number, not ${JSON.stringify(limit)}.`);
  const rows = Math.max(0, Math.floor(limit));
  const { maxTokens, maxQueryLength, maxLimit } = SQL_RANKING_LIMITS;
  if (rows > maxLimit) throw new McpSearchError(`${builder}: the limit ${limit} is over ${maxLimit}, the most rows one ranked query returns.`);
  const length = normalizeText(query).length;
  if (length > maxQueryLength) {
    throw new McpSearchError(`${builder}: the query is ${length} characters long once normalised, over the ${maxQueryLength} a ranked query accepts: shorten it.`);
  }
  const normalised = phraseText(query);
  const tokens = tokenize(query);
  if (tokens.length > maxTokens) {
    throw new McpSearchError(`${builder}: the query has ${tokens.length} distinct words, over the ${maxTokens} a ranked query searches at once: shorten it.`);
  }
  // The bonus's length test counts the normalised query, as in memory, not its stand-ins.
  if (options.where !== undefined && typeof options.where !== "function") {
    throw new McpSearchError(`${builder}: "where" must be a function (firstParameter) => { sql, params }.`);
  }
  return { builder, tokens, phrase: length >= 3 ? normalised : undefined, limit: rows, columns };
}

/** How one dialect writes what differs. */
interface Dialect {
  /** The next placeholder (`?` in SQLite, `$n` in PostgreSQL). */
  placeholder(n: number): string;
  /** True when `text` (a column) contains `needle` (text). */
  contains(text: string, needle: string): string;
  /** A placeholder read as text. */
  text(placeholder: string): string;
  /** The candidates' condition on the row `c`, given the placeholder of the search expression. */
  candidates(search: string): string;
  /** The search expression bound to {@link candidates}: every token, a prefix from 3 characters. */
  search(tokens: readonly string[]): string;
  /** The score in points, from half points. */
  points(half: string): string;
  /** A statement that returns no row, with the same columns. */
  readonly never: string;
}

/**
 * The statement both dialects share. `rank_query` is one row that holds each query token's two
 * needles, one bound value each: " token " (an exact hit) and " token" (a word-start hit; the
 * exact needle again for a token of 2 characters, which has none), and the phrase. Each candidate
 * gets one column a token, its field hits in half points; the rows that cover a token are summed
 * (+20 a covered token, +10 for the phrase), ordered and cut; only then are the kept rows read in
 * full, by the order column, which is unique.
 */
function renderStatement(query: ReadQuery, options: RankedQueryOptions, dialect: Dialect): RankedQuery {
  const { table, order } = options;
  /** The caller's condition, numbered after the values bound so far, its values appended. */
  const where = (params: (string | number)[]): string => {
    if (options.where === undefined) return "";
    const clause = options.where(params.length + 1);
    const valid = typeof clause?.sql === "string" && Array.isArray(clause.params) && clause.params.every((value) => typeof value === "string" || typeof value === "number");
    if (!valid) throw new McpSearchError(`${query.builder}: "where" must return { sql, params }, params a list of strings and numbers.`);
    params.push(...clause.params);
    return ` AND (${clause.sql})`;
  };
  const selected = query.columns.map((column) => `c.${column}`).join(", ");
  if (query.tokens.length === 0 || query.limit === 0) {
    return { sql: `SELECT ${selected}, 0 AS score FROM ${table} AS c WHERE ${dialect.never}`, params: [] };
  }
  const params: (string | number)[] = [];
  const bind = (value: string | number): string => {
    params.push(value);
    return dialect.placeholder(params.length);
  };
  const needles = query.tokens.flatMap((token, i) => [
    `${dialect.text(bind(` ${token} `))} AS rank_e${i}`,
    `${dialect.text(bind(token.length >= 3 ? ` ${token}` : ` ${token} `))} AS rank_p${i}`,
  ]);
  if (query.phrase !== undefined) needles.push(`${dialect.text(bind(query.phrase))} AS rank_phrase`);
  const hits = query.tokens.map((_, i) =>
    FIELDS.map(
      ([column, half]) =>
        // A word-start hit first: most fields have neither, and then one search suffices.
        `CASE WHEN ${dialect.contains(`c.${column}`, `q.rank_p${i}`)} THEN CASE WHEN ${dialect.contains(`c.${column}`, `q.rank_e${i}`)} THEN ${half} ELSE ${half / 2} END ELSE 0 END`,
    ).join("\n      + ") + ` AS rank_t${i}`,
  );
  if (query.phrase !== undefined) hits.push(`CASE WHEN ${dialect.contains("c.title_phrase", "q.rank_phrase")} THEN ${PHRASE} ELSE 0 END AS rank_bonus`);
  const tokens = query.tokens.map((_, i) => `rank_t${i}`);
  const covered = tokens.map((name) => `CASE WHEN ${name} > 0 THEN ${name} + ${COVERED} ELSE 0 END`).join(" + ");
  const lines = [
    `WITH rank_query AS MATERIALIZED (SELECT ${needles.join(", ")}),`,
    `rank_candidates AS MATERIALIZED (`,
    `  SELECT c.${order} AS rank_order,`,
    `    ${hits.join(",\n    ")}`,
    `  FROM rank_query AS q CROSS JOIN ${table} AS c WHERE ${dialect.candidates(bind(dialect.search(query.tokens)))}${where(params)}`,
    `),`,
    `rank_top AS MATERIALIZED (`,
    `  SELECT rank_order, ${covered}${query.phrase === undefined ? "" : " + rank_bonus"} AS rank_half`,
    `  FROM rank_candidates WHERE ${tokens.join(" + ")} > 0 ORDER BY rank_half DESC, rank_order ASC LIMIT ${bind(query.limit)}`,
    `)`,
    `SELECT ${selected}, ${dialect.points("t.rank_half")} AS score FROM rank_top AS t JOIN ${table} AS c ON c.${order} = t.rank_order`,
    `ORDER BY t.rank_half DESC, t.rank_order ASC`,
  ];
  return { sql: lines.join("\n"), params };
}

/** A query token as the candidates' index holds it: cut to {@link LEXEME_LENGTH}, then a prefix when cut or 3+ long. */
function lexemeOf(token: string): { lexeme: string; prefix: boolean } {
  const lexeme = token.slice(0, LEXEME_LENGTH);
  return { lexeme, prefix: token.length >= 3 };
}

/**
 * Builds the SQLite statement (Cloudflare D1, libSQL, better-sqlite3, node:sqlite) that ranks
 * `options.table` for `query` exactly as `createIndex(entries).search(query, { limit })` ranks the
 * same entries: same rows, same order, ties in the `order` column's order. The candidates come
 * from the FTS5 table over `lexemes` (`options.fts`); each is scored from its `RankedRow`
 * columns with `instr`. Every value is bound (`?` placeholders, each used once); only the identifiers, checked as plain,
 * are written into the SQL. NUL and surrogates in the query are no word characters, and
 * the phrase keeps them exact through the stand-ins of `RankedRow.title_phrase`. A query with no
 * token, or a limit of 0, gives a statement that returns no row. Throws {@link McpSearchError}
 * for an identifier that is not plain, a limit that is not a number, or a query over
 * {@link SQL_RANKING_LIMITS}.
 *
 * @example
 * const { sql, params } = buildSqliteRankedQuery("cultivo de soja", { table: "catalogue", order: "position", limit: 5 });
 * params; // => [" cultivo ", " cultivo", " soja ", " soja", "cultivo de soja", '"cultivo"* OR "soja"*', 5]
 * env.DB.prepare(sql).bind(...params).all(); // D1; with better-sqlite3: db.prepare(sql).all(...params)
 */
export function buildSqliteRankedQuery(query: string, options: RankedQueryOptions): RankedQuery {
  const read = readQuery("buildSqliteRankedQuery", query, options);
  const fts = options.fts ?? `${options.table}_lexemes`;
  if (typeof fts !== "string" || !QUALIFIED.test(fts)) {
    throw new McpSearchError(`buildSqliteRankedQuery: the FTS5 table ${JSON.stringify(fts)} is not a plain identifier.`);
  }
  const ftsName = fts.includes(".") ? fts.slice(fts.indexOf(".") + 1) : fts;
  return renderStatement(read, options, {
    placeholder: () => "?",
    contains: (text, needle) => `instr(${text}, ${needle}) > 0`,
    text: (placeholder) => placeholder,
    // The FTS5 table indexes the entries' table by rowid (external content, docs/sql.md).
    candidates: (search) => `c.rowid IN (SELECT rowid FROM ${fts} WHERE ${ftsName} MATCH ${search})`,
    search: (tokens) =>
      tokens
        .map(lexemeOf)
        .map(({ lexeme, prefix }) => `"${lexeme}"${prefix ? "*" : ""}`)
        .join(" OR "),
    points: (half) => `${half} / 2.0`,
    never: "0",
  });
}

/**
 * Builds the PostgreSQL statement (also Supabase, Neon, RDS, Citus) that ranks `options.table`
 * for `query` exactly as `createIndex(entries).search(query, { limit })` ranks the same entries:
 * same rows, same order, ties in the `order` column's order. The candidates come from the GIN
 * index on the `lexeme_vector` column (a `tsvector` generated from `lexemes`, see docs/sql.md),
 * searched with a bound `tsquery` (`'soja':* | 'de'`); each is scored from its `RankedRow`
 * columns with `strpos`. Every value is bound (`$1`, `$2`…); only the identifiers, checked as
 * plain, are written into the SQL. A query with no token, or a limit of 0, gives a statement that
 * returns no row. Throws {@link McpSearchError} as {@link buildSqliteRankedQuery} does.
 *
 * @example
 * const { sql, params } = buildPostgresRankedQuery("soja", { table: "catalogue", order: "position" });
 * params; // => [" soja ", " soja", "soja", "'soja':*", 10]
 * await pool.query(sql, params); // node-postgres; PGlite's db.query takes the same
 */
export function buildPostgresRankedQuery(query: string, options: RankedQueryOptions): RankedQuery {
  const read = readQuery("buildPostgresRankedQuery", query, options);
  return renderStatement(read, options, {
    placeholder: (n) => `$${n}`,
    contains: (text, needle) => `strpos(${text}, ${needle}) > 0`,
    text: (placeholder) => `${placeholder}::text`,
    candidates: (search) => `c.lexeme_vector @@ ${search}::tsquery`,
    search: (tokens) =>
      tokens
        .map(lexemeOf)
        .map(({ lexeme, prefix }) => `'${lexeme}'${prefix ? ":*" : ""}`)
        .join(" | "),
    points: (half) => `${half}::float8 / 2`,
    never: "FALSE",
  });
}
