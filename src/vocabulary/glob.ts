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
 * - A lone UTF-16 surrogate (half of an emoji, say): it has no UTF-8 form, so a database driver
 *   sends U+FFFD instead, and the SQL would look for another character than `matchesQuery`.
 */

const GLOB_METACHARACTERS = /[*?[\]\0]|\p{Cs}/gu;

/**
 * The text without `*`, `?`, `[`, `]`, NUL and lone surrogates:
 * `stripGlobMetacharacters("a*b[c]\0\uD83D")` is "abc"; a whole emoji stays.
 */
export function stripGlobMetacharacters(text: string): string {
  return text.replace(GLOB_METACHARACTERS, "");
}
