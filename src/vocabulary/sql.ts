/**
 * The vocabulary's word-start rule in SQL. SQLite and Cloudflare D1 get GLOB, never LIKE, because
 * `LIKE '%p%'` is exactly the match without a boundary; PostgreSQL gets a regular expression.
 * Both builders read the expansion through one function (`readClauseTerms`), so they strip,
 * de-duplicate and cap exactly alike, and only the rendering differs.
 */
import { McpSearchError } from "../errors.js";
import { stripGlobMetacharacters } from "./glob.js";
import { WORD_CHARACTERS, decisivePatterns } from "./word-start.js";
import type { ExpandedTerm } from "./vocabulary.js";

/**
 * A WHERE-clause fragment and the values bound to its `?` placeholders, in order.
 *
 * @example
 * const clause: GlobClause = { sql: "(nome_lc GLOB ? OR nome_lc GLOB ?)", params: ["soja*", "*[^a-z0-9]soja*"] };
 */
export interface GlobClause {
  /** The WHERE-clause fragment, with one `?` per value. */
  readonly sql: string;
  /** The values bound to its `?` placeholders, in order. */
  readonly params: readonly string[];
}

/**
 * A PostgreSQL WHERE-clause fragment and the values bound to its `$n` placeholders, in order:
 * `params[0]` is `$firstParameter`.
 *
 * @example
 * const clause: PostgresClause = { sql: "nome_lc ~ $1", params: ["(^|[^abcdefghijklmnopqrstuvwxyz0123456789])(?:soja)"] };
 */
export interface PostgresClause {
  /** The WHERE-clause fragment, with `$n` placeholders from `$firstParameter` on. */
  readonly sql: string;
  /** The values bound to the placeholders, in order. */
  readonly params: readonly string[];
}

/**
 * Options of {@link buildPostgresClause}.
 *
 * @example
 * buildPostgresClause(expanded, "name_lc", { firstParameter: 3 } satisfies PostgresClauseOptions);
 */
export interface PostgresClauseOptions {
  /**
   * Number of the first placeholder, for a clause that follows other bound values
   * (`WHERE tenant = $1 AND …` wants `firstParameter: 2`). An integer from 1 to 65535.
   * @default 1
   */
  readonly firstParameter?: number;
}

/**
 * The caps on what one clause may hold, shared by {@link buildGlobClause} and
 * {@link buildPostgresClause}. Counted after stripping, de-duplication and dropping the patterns
 * another pattern of the same term already covers. Beyond a cap the builders throw
 * {@link McpSearchError} naming it: they never truncate, because fewer terms would select rows
 * `matchesQuery` refuses. A caller that prefers a shorter query can cut `expanded` itself.
 *
 * - `maxTerms` (16): terms AND-ed together.
 * - `maxPatterns` (32): patterns over all terms. SQLite binds two values a pattern, so a clause
 *   binds at most 64 values: far below `SQLITE_MAX_VARIABLE_NUMBER` (999 before SQLite 3.32,
 *   32766 since) and below the 100 bound parameters a Cloudflare D1 query accepts (D1's limits
 *   page, as remembered when this was written: check it if you raise the cap). PostgreSQL binds
 *   one value a term (its limit is 65535).
 * - `maxPatternLength` (4096 UTF-16 code units, at most 12 KiB of UTF-8): far below
 *   `SQLITE_MAX_LIKE_PATTERN_LENGTH` (50000 bytes, which GLOB obeys too). The longest query the
 *   contract accepts (2047 characters) fits in one pattern.
 *
 * The expression is balanced (SQLite) or flat (PostgreSQL folds an AND chain into one node), so
 * its depth grows with the logarithm of the caps: about a dozen levels at most, against SQLite's default
 * `SQLITE_MAX_EXPR_DEPTH` of 1000.
 *
 * @example
 * SQL_CLAUSE_LIMITS.maxTerms // => 16
 */
export const SQL_CLAUSE_LIMITS: {
  readonly maxTerms: number;
  readonly maxPatterns: number;
  readonly maxPatternLength: number;
} = Object.freeze({ maxTerms: 16, maxPatterns: 32, maxPatternLength: 4096 });

const PLAIN_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** The most placeholders one PostgreSQL statement can number ($1 … $65535). */
const POSTGRES_MAX_PARAMETER = 65_535;

/**
 * The expansion as the clause will state it: one list of patterns a term, every list non-empty,
 * or `undefined` when the clause can match nothing (an empty expansion, or a term left with no
 * usable pattern, exactly where `matchesQuery` is false). Throws on an unsafe column or over a cap.
 */
function readClauseTerms(builder: string, expanded: readonly ExpandedTerm[], column: string): string[][] | undefined {
  const fail = (message: string): never => {
    throw new McpSearchError(`${builder}: ${message}`);
  };
  if (typeof column !== "string" || !PLAIN_IDENTIFIER.test(column)) {
    fail(`column ${JSON.stringify(column)} is not a plain identifier ([A-Za-z_][A-Za-z0-9_]*).`);
  }
  const badExpansion = 'the expansion must be a list of terms { term, patterns }, with "patterns" a list of text (use vocab.expandQuery).';
  if (!Array.isArray(expanded)) fail(badExpansion);
  const terms = expanded.map((term: ExpandedTerm | undefined) => {
    const patterns: unknown = term?.patterns;
    if (!Array.isArray(patterns) || !patterns.every((pattern) => typeof pattern === "string")) fail(badExpansion);
    return decisivePatterns((patterns as string[]).map(stripGlobMetacharacters));
  });
  if (terms.length === 0 || terms.some((patterns) => patterns.length === 0)) return undefined;
  const { maxTerms, maxPatterns, maxPatternLength } = SQL_CLAUSE_LIMITS;
  if (terms.length > maxTerms) fail(`the query has ${terms.length} terms; the maximum is ${maxTerms} (SQL_CLAUSE_LIMITS.maxTerms). Shorten the query.`);
  const patternCount = terms.reduce((sum, patterns) => sum + patterns.length, 0);
  if (patternCount > maxPatterns) {
    fail(`the expansion has ${patternCount} patterns; the maximum is ${maxPatterns} (SQL_CLAUSE_LIMITS.maxPatterns). Shorten the query or the vocabulary's sources.`);
  }
  const longest = Math.max(...terms.flat().map((pattern) => pattern.length));
  if (longest > maxPatternLength) fail(`a pattern has ${longest} characters; the maximum is ${maxPatternLength} (SQL_CLAUSE_LIMITS.maxPatternLength).`);
  return terms;
}

/**
 * `items` joined by `operator` as a balanced tree: `(a OR b)`, `((a OR b) OR (c OR d))`. SQLite
 * nests a plain chain one level an operator (its parser is left-recursive), so a balanced tree
 * keeps the depth at log2 of the count instead.
 */
function balanced(items: readonly string[], operator: string): string {
  if (items.length === 1) return items[0] as string;
  const middle = Math.ceil(items.length / 2);
  return `(${balanced(items.slice(0, middle), operator)} ${operator} ${balanced(items.slice(middle), operator)})`;
}

/**
 * Builds the SQLite / Cloudflare D1 form of `matchesQuery`: each pattern `p` becomes
 * `(col GLOB ? OR col GLOB ?)` bound to `p*` and `*[^a-z0-9]p*`; a term is the OR of its
 * patterns; terms are AND-ed. Every value is a bound parameter, nothing is interpolated but the
 * column, which must be a plain identifier (`[A-Za-z_][A-Za-z0-9_]*`) holding normalised text
 * (`vocab.normalize`), or {@link McpSearchError} is thrown.
 *
 * GLOB has no escape character, so `*`, `?`, `[` and `]` are stripped from each pattern, and so
 * is NUL (SQLite would cut the pattern there). A pattern that is empty after stripping is left
 * out (it never matches, as in `matchesTerm`), and so is one that starts with another pattern of
 * the same term (the shorter one already matches wherever it does). A term left with no pattern,
 * or an empty expansion, gives `{ sql: "0", params: [] }`, which matches nothing, just as
 * `matchesQuery` is false for them. The ORs and ANDs form a balanced tree, and the expansion must
 * stay within {@link SQL_CLAUSE_LIMITS}, so SQLite never refuses the statement as too deep or
 * too wide.
 *
 * @example
 * const vocab = createVocabulary({ sourceName: "o IBGE", entries: [{ asked: "renda", source: ["rendimento"] }] });
 * buildGlobClause(vocab.expandQuery("renda"), "nome_lc");
 * // => {
 * //   sql: "((nome_lc GLOB ? OR nome_lc GLOB ?) OR (nome_lc GLOB ? OR nome_lc GLOB ?))",
 * //   params: ["renda*", "*[^a-z0-9]renda*", "rendimento*", "*[^a-z0-9]rendimento*"],
 * // }
 */
export function buildGlobClause(expanded: readonly ExpandedTerm[], column: string): GlobClause {
  const terms = readClauseTerms("buildGlobClause", expanded, column);
  if (terms === undefined) return { sql: "0", params: [] };
  const params: string[] = [];
  const sql = balanced(
    terms.map((patterns) =>
      balanced(
        patterns.map((pattern) => {
          params.push(`${pattern}*`, `*[^a-z0-9]${pattern}*`);
          return `(${column} GLOB ? OR ${column} GLOB ?)`;
        }),
        "OR",
      ),
    ),
    "AND",
  );
  return { sql, params };
}

/** Every ASCII character but a letter or digit: the only ones a PostgreSQL regex can read as syntax. */
const POSTGRES_REGEX_SYNTAX = /[^A-Za-z0-9\u0080-\uffff]/g;

/**
 * Builds the PostgreSQL form of `matchesQuery` (also Supabase, Neon, RDS, Citus): one bound
 * regular expression a term, `col ~ $n`, its patterns as alternatives after
 * `(^|[^abcdefghijklmnopqrstuvwxyz0123456789])`, the terms AND-ed. Nothing is interpolated but
 * the column, a plain identifier (`[A-Za-z_][A-Za-z0-9_]*`, so PostgreSQL folds it to lower case)
 * holding normalised text (`vocab.normalize`), or {@link McpSearchError} is thrown. Patterns are
 * read exactly as by {@link buildGlobClause} (same stripping, same {@link SQL_CLAUSE_LIMITS}), and
 * an expansion that can match nothing gives `{ sql: "FALSE", params: [] }`.
 *
 * Why a regex, escaped: `LIKE` cannot say "after a character outside [a-z0-9]", and `position`
 * finds only the first occurrence, which may sit inside a word. So each pattern is escaped by a
 * backslash before every ASCII character that is not a letter or digit. In PostgreSQL's regex
 * flavour (ARE) a backslash before a non-alphanumeric character always means that very
 * character, every metacharacter is ASCII, and letters, digits and non-ASCII characters are never
 * syntax: so the pattern is matched literally whatever it holds. The word characters are spelt
 * out rather than written as the range `a-z0-9`, so no collation can widen them. The regex is
 * also what a `pg_trgm` GIN index accelerates (`CREATE INDEX … USING gin (col gin_trgm_ops)`).
 *
 * @example
 * const vocab = createVocabulary({ sourceName: "o IBGE", entries: [{ asked: "renda", source: ["rendimento"] }] });
 * buildPostgresClause(vocab.expandQuery("renda média"), "nome_lc", { firstParameter: 2 });
 * // => {
 * //   sql: "(nome_lc ~ $2 AND nome_lc ~ $3)",
 * //   params: [
 * //     "(^|[^abcdefghijklmnopqrstuvwxyz0123456789])(?:renda|rendimento)",
 * //     "(^|[^abcdefghijklmnopqrstuvwxyz0123456789])(?:media)",
 * //   ],
 * // }
 */
export function buildPostgresClause(
  expanded: readonly ExpandedTerm[],
  column: string,
  options: PostgresClauseOptions = {},
): PostgresClause {
  const first = options.firstParameter ?? 1;
  const badFirst = () =>
    new McpSearchError(`buildPostgresClause: "firstParameter" ${String(first)} must be an integer from 1 to 65535, and the parameters must not run past $65535.`);
  if (!Number.isInteger(first) || first < 1 || first > POSTGRES_MAX_PARAMETER) throw badFirst();
  const terms = readClauseTerms("buildPostgresClause", expanded, column);
  if (terms === undefined) return { sql: "FALSE", params: [] };
  if (first + terms.length - 1 > POSTGRES_MAX_PARAMETER) throw badFirst();
  const params = terms.map(
    (patterns) =>
      `(^|[^${WORD_CHARACTERS}])(?:${patterns.map((pattern) => pattern.replace(POSTGRES_REGEX_SYNTAX, "\\$&")).join("|")})`,
  );
  const tests = params.map((_, index) => `${column} ~ $${first + index}`);
  return { sql: tests.length === 1 ? (tests[0] as string) : `(${tests.join(" AND ")})`, params };
}
