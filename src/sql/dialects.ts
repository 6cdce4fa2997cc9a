/**
 * What SQLite and PostgreSQL write differently in the ranked statements: placeholders, substring
 * tests, and the candidates' index. SQLite reads an FTS5 table over the tagged lexemes (prefix
 * indexes make a prefix one list); PostgreSQL a GIN index on `ranked_lexeme_vector(lexemes)`,
 * which holds each tagged token and, tagged in capitals, its prefixes of 3 to
 * {@link PREFIX_LENGTH} characters, so that every search is of whole lexemes (docs/sql.md).
 */
import { McpSearchError } from "../errors.js";
import { TAGS, type IndexTerm, type TermSearch } from "./terms.js";

/** A plain or schema-qualified identifier. */
export const QUALIFIED = /^(?:[A-Za-z_][A-Za-z0-9_]*\.)?[A-Za-z_][A-Za-z0-9_]*$/;

/** The caller's condition on the rows (`RankedQueryOptions.where`). */
type RankedWhere = (firstParameter: number) => { readonly sql: string; readonly params: readonly (string | number)[] };

/** What a dialect reads of the options (`RankedQueryOptions`, checked before). */
interface TableOptions {
  readonly table: string;
  readonly order: string;
  readonly fts?: string;
}

/** The longest prefix PostgreSQL's `ranked_lexeme_vector` indexes; a longer one is searched by its first 8 characters. */
const PREFIX_LENGTH = 8;

/** PostgreSQL: the rows of the order column's index that a sample's first-rows search reads at most. */
const FIRST_SCAN = 5000;

export type DialectName = "sqlite" | "postgres";

/** The caller's condition as a statement uses it. */
interface Allowed {
  /** A CTE to write after `rank_query` (SQLite), its values already bound. */
  readonly cte?: string;
  /** The condition for the row whose key (rowid or order column) is `key`; undefined with no `where`. */
  readonly filter?: (key: string) => string;
}

/** How one dialect writes what differs, for one table. */
export interface Dialect {
  /** The next placeholder (`?` in SQLite, `$n` in PostgreSQL). */
  placeholder(n: number): string;
  /** True when `text` (a column) contains `needle` (text). */
  contains(text: string, needle: string): string;
  /** A placeholder read as text. */
  text(placeholder: string): string;
  /** The score in points, from half points. */
  points(half: string): string;
  /** A condition that no row meets. */
  readonly never: string;
  /** The column of `c` that the candidates' subqueries return. */
  readonly key: string;
  /** The search expression bound for a search. */
  search(search: TermSearch): string;
  /** The caller's `where`, bound once: a CTE (SQLite) or a condition repeated with the same placeholders (PostgreSQL). */
  allowed(where: RankedWhere | undefined, params: (string | number)[]): Allowed;
  /** The condition on the table `c` that its row is one the bound search finds. */
  condition(search: string): string;
  /** Every row the bound search finds, as `rank_row`; with `upTo` (a placeholder), those whose order value is at most it. */
  allRows(search: string, filter?: (key: string) => string, upTo?: string): string;
  /**
   * The first `count` rows of the bound search in order, as `rank_row`; `frequent` when the search
   * is known to find many rows (PostgreSQL then walks the order column's index unbounded).
   */
  firstRows(search: string, count: number, filter: ((key: string) => string) | undefined, frequent: boolean): string;
  /** The first `count` rows of the search whose title holds the bound phrase, among its first `scan` rows (PostgreSQL: among the table's first `scan` rows in order). */
  phraseRows(search: string, scan: number, phrase: string, count: number, filter?: (key: string) => string): string;
  /** How many rows hold the bound token (one value, [a-z0-9]) in `field`, exactly or as a prefix, counted up to `cap`. */
  count(token: string, field: number, prefix: boolean, cap: number): string;
}

/** The caller's condition, checked, its values appended to `params` and numbered after them. */
function whereOf(builder: string, where: RankedWhere | undefined, params: (string | number)[]): string | undefined {
  if (where === undefined) return undefined;
  const clause = where(params.length + 1);
  const valid = typeof clause?.sql === "string" && Array.isArray(clause.params) && clause.params.every((value) => typeof value === "string" || typeof value === "number");
  if (!valid) throw new McpSearchError(`${builder}: "where" must return { sql, params }, params a list of strings and numbers.`);
  params.push(...clause.params);
  return clause.sql;
}

/** An FTS5 or tsquery expression: items OR-ed, each an AND of groups, a group an OR of terms. */
function render(search: TermSearch, term: (term: IndexTerm) => string, and: string, or: string): string {
  const group = (terms: readonly IndexTerm[]): string => (terms.length === 1 ? term(terms[0]!) : `(${terms.map(term).join(or)})`);
  const item = (groups: readonly (readonly IndexTerm[])[]): string => (groups.length === 1 ? group(groups[0]!) : `(${groups.map(group).join(and)})`);
  return search.map(item).join(or);
}

function sqlite(builder: string, options: TableOptions): Dialect {
  const { table } = options;
  const fts = options.fts ?? `${table}_lexemes`;
  if (typeof fts !== "string" || !QUALIFIED.test(fts)) throw new McpSearchError(`${builder}: the FTS5 table ${JSON.stringify(fts)} is not a plain identifier.`);
  // The FTS5 table's hidden column of its own name is what MATCH searches, read through the alias.
  const column = `rank_fts.${fts.slice(fts.indexOf(".") + 1)}`;
  const matching = (search: string): string => `${fts} AS rank_fts WHERE ${column} MATCH ${search}`;
  const and = (filter: ((key: string) => string) | undefined, key: string): string => (filter === undefined ? "" : ` AND ${filter(key)}`);
  return {
    placeholder: () => "?",
    contains: (text, needle) => `instr(${text}, ${needle}) > 0`,
    text: (placeholder) => placeholder,
    points: (half) => `${half} / 2.0`,
    never: "0",
    key: "c.rowid",
    // Tokens are [a-z0-9]: no quote to escape inside the FTS5 strings.
    search: (search) => render(search, ({ token, field, prefix }) => `"${TAGS[field]}${token}"${prefix ? "*" : ""}`, " AND ", " OR "),
    allowed(where, params) {
      const sql = whereOf(builder, where, params);
      if (sql === undefined) return {};
      // Bound once, read by every part: a view of the rows the caller allows.
      return { cte: `rank_allowed AS NOT MATERIALIZED (SELECT c.rowid AS rank_row FROM ${table} AS c WHERE (${sql}))`, filter: (key) => `EXISTS (SELECT 1 FROM rank_allowed WHERE rank_allowed.rank_row = ${key})` };
    },
    condition: (search) => `c.rowid IN (SELECT rank_fts.rowid FROM ${matching(search)})`,
    allRows: (search, filter, upTo) => `SELECT rank_fts.rowid AS rank_row FROM ${matching(search)}${upTo === undefined ? "" : ` AND rank_fts.rowid <= ${upTo}`}${and(filter, "rank_fts.rowid")}`,
    firstRows: (search, count, filter) => `SELECT rank_row FROM (SELECT rank_fts.rowid AS rank_row FROM ${matching(search)}${and(filter, "rank_fts.rowid")} ORDER BY rank_fts.rowid LIMIT ${count})`,
    phraseRows: (search, scan, phrase, count, filter) =>
      // Wrapped: a LIMIT on the last SELECT of a UNION would cut the whole union.
      `SELECT rank_row FROM (SELECT rank_row FROM (SELECT rank_fts.rowid AS rank_row, c.title_phrase AS rank_title FROM ${fts} AS rank_fts JOIN ${table} AS c ON c.rowid = rank_fts.rowid` +
      ` WHERE ${column} MATCH ${search}${and(filter, "rank_fts.rowid")} ORDER BY rank_fts.rowid LIMIT ${scan}) WHERE instr(rank_title, ${phrase}) > 0 LIMIT ${count})`,
    count: (token, field, prefix, cap) => `(SELECT count(*) FROM (SELECT 1 FROM ${fts} AS rank_fts WHERE ${column} MATCH '"${TAGS[field]}' || ${token} || '"${prefix ? "*" : ""}' LIMIT ${cap}))`,
  };
}

function postgres(builder: string, options: TableOptions): Dialect {
  const { table, order } = options;
  const and = (filter: ((key: string) => string) | undefined): string => (filter === undefined ? "" : ` AND ${filter("c")}`);
  const matching = (search: string): string => `${table} AS c WHERE c.lexeme_vector @@ ${search}::tsquery`;
  return {
    placeholder: (n) => `$${n}`,
    contains: (text, needle) => `strpos(${text}, ${needle}) > 0`,
    text: (placeholder) => `${placeholder}::text`,
    points: (half) => `${half}::float8 / 2`,
    never: "FALSE",
    key: `c.${order}`,
    // Whole lexemes only: a prefix is its capital-tagged lexeme, cut to the longest one indexed.
    search: (search) => render(search, ({ token, field, prefix }) => (prefix ? `${TAGS[field]!.toUpperCase()}${token.slice(0, PREFIX_LENGTH)}` : `${TAGS[field]}${token}`), " & ", " | "),
    allowed(where, params) {
      const sql = whereOf(builder, where, params);
      // Numbered placeholders: the same condition, written wherever it is needed, binds nothing more.
      return sql === undefined ? {} : { filter: () => `(${sql})` };
    },
    condition: (search) => `c.lexeme_vector @@ ${search}::tsquery`,
    allRows: (search, filter, upTo) => `SELECT c.${order} AS rank_row FROM ${matching(search)}${upTo === undefined ? "" : ` AND c.${order} <= ${upTo}`}${and(filter)}`,
    // A GIN index gives no order: the first rows are sought among the first `scan` rows of the
    // order column's index, so that a search that finds few rows never reads the whole table.
    firstRows: (search, count, filter, frequent) =>
      frequent
        ? `(SELECT c.${order} AS rank_row FROM ${matching(search)}${and(filter)} ORDER BY c.${order} LIMIT ${count})`
        : `(SELECT c.${order} AS rank_row FROM (SELECT * FROM ${table} ORDER BY ${order} LIMIT ${FIRST_SCAN}) AS c WHERE c.lexeme_vector @@ ${search}::tsquery${and(filter)} LIMIT ${count})`,
    phraseRows: (search, scan, phrase, count, filter) =>
      `(SELECT c.${order} AS rank_row FROM (SELECT * FROM ${table} ORDER BY ${order} LIMIT ${scan}) AS c WHERE c.lexeme_vector @@ ${search}::tsquery${and(filter)}` +
      ` AND strpos(c.title_phrase, ${phrase}::text) > 0 LIMIT ${count})`,
    count: (token, field, prefix, cap) =>
      `(SELECT count(*) FROM (SELECT 1 FROM ${table} AS c WHERE c.lexeme_vector @@ (${prefix ? `'${TAGS[field]!.toUpperCase()}' || left(${token}, ${PREFIX_LENGTH})` : `'${TAGS[field]}' || ${token}`})::tsquery LIMIT ${cap}) AS rank_probe)`,
  };
}

/** The dialect `name` for the table of `options`; throws for an FTS5 table name that is not plain. */
export function dialectFor(name: DialectName, builder: string, options: TableOptions): Dialect {
  return name === "sqlite" ? sqlite(builder, options) : postgres(builder, options);
}
