/**
 * The vocabulary's word-start rule in SQL (SQLite, Cloudflare D1): GLOB, never LIKE, because
 * `LIKE '%p%'` is exactly the match without a boundary.
 */
import { localeTexts } from "../locales/index.js";
import { McpSearchError } from "../errors.js";
import { stripGlobMetacharacters } from "./glob.js";
import type { ExpandedTerm, VocabularyLocale } from "./vocabulary.js";

/**
 * A WHERE-clause fragment and the values bound to its `?` placeholders, in order.
 *
 * @example
 * const clause: GlobClause = { sql: "(nome_lc GLOB ? OR nome_lc GLOB ?)", params: ["soja*", "*[^a-z0-9]soja*"] };
 */
export interface GlobClause {
  readonly sql: string;
  readonly params: readonly string[];
}

/**
 * Options of {@link buildGlobClause}.
 *
 * @example
 * buildGlobClause(expanded, "name_lc", { locale: "en" } satisfies GlobClauseOptions);
 */
export interface GlobClauseOptions {
  /** Language of the error thrown for an unsafe column name. @default "pt-BR" */
  readonly locale?: VocabularyLocale;
}

/** SQL that is never true: what an empty expansion, or a term with no usable pattern, gives. */
const NEVER = "0";
const PLAIN_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Builds the SQL form of `matchesQuery`: each pattern `p` becomes
 * `(col GLOB ? OR col GLOB ?)` bound to `p*` and `*[^a-z0-9]p*`; a term is the OR of its
 * patterns; terms are AND-ed. Every value is a bound parameter, nothing is interpolated but the
 * column, which must be a plain identifier (`[A-Za-z_][A-Za-z0-9_]*`) holding normalised text
 * (`vocab.normalize`), or {@link McpSearchError} is thrown.
 *
 * GLOB has no escape character, so `*`, `?`, `[` and `]` are stripped from each pattern.
 * A pattern that is empty after stripping is left out (it never matches, as in `matchesTerm`);
 * a term left with no pattern, or an empty expansion, gives `{ sql: "0", params: [] }`, which
 * matches nothing, just as `matchesQuery` is false for them.
 *
 * @example
 * const vocab = createVocabulary({ sourceName: "o IBGE", entries: [{ asked: "renda", source: ["rendimento"] }] });
 * buildGlobClause(vocab.expandQuery("renda"), "nome_lc");
 * // => {
 * //   sql: "((nome_lc GLOB ? OR nome_lc GLOB ?) OR (nome_lc GLOB ? OR nome_lc GLOB ?))",
 * //   params: ["renda*", "*[^a-z0-9]renda*", "rendimento*", "*[^a-z0-9]rendimento*"],
 * // }
 */
export function buildGlobClause(
  expanded: readonly ExpandedTerm[],
  column: string,
  options: GlobClauseOptions = {},
): GlobClause {
  if (typeof column !== "string" || !PLAIN_IDENTIFIER.test(column)) {
    throw new McpSearchError(localeTexts(options.locale ?? "pt-BR").vocabulary.unsafeColumn(JSON.stringify(column)));
  }
  const params: string[] = [];
  const terms: string[] = [];
  for (const term of expanded) {
    const pairs: string[] = [];
    const seen = new Set<string>();
    for (const pattern of term.patterns) {
      const safe = stripGlobMetacharacters(pattern);
      if (safe === "" || seen.has(safe)) continue;
      seen.add(safe);
      pairs.push(`(${column} GLOB ? OR ${column} GLOB ?)`);
      params.push(`${safe}*`, `*[^a-z0-9]${safe}*`);
    }
    if (pairs.length === 0) return { sql: NEVER, params: [] };
    terms.push(pairs.length === 1 ? (pairs[0] as string) : `(${pairs.join(" OR ")})`);
  }
  if (terms.length === 0) return { sql: NEVER, params: [] };
  return { sql: terms.length === 1 ? (terms[0] as string) : `(${terms.join(" AND ")})`, params };
}
