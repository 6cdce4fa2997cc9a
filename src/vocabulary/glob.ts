/**
 * The characters a SQL pattern cannot carry, shared by the vocabulary (src/vocabulary.ts drops
 * them from query words) and its SQL forms (src/sql.ts drops them from patterns), so
 * `matchesQuery` and the clauses always see the same words. Private: never re-exported.
 *
 * - `*`, `?`, `[` and `]` change a SQLite GLOB pattern's meaning, and GLOB has no escape
 *   character, so they cannot be kept (`]` alone is literal, but dropping it keeps the rule
 *   simple: no bracket character ever reaches a pattern).
 * - NUL (U+0000): SQLite reads a pattern as a C string and cuts it at the first NUL (`"\0zz"`
 *   would become `*[^a-z0-9]`, which matches any row with punctuation), and PostgreSQL text
 *   cannot hold NUL at all.
 */

const GLOB_METACHARACTERS = /[*?[\]\0]/g;

/** The text without `*`, `?`, `[`, `]` and NUL: `stripGlobMetacharacters("a*b[c]\0")` is "abc". */
export function stripGlobMetacharacters(text: string): string {
  return text.replace(GLOB_METACHARACTERS, "");
}
