/**
 * SQLite GLOB's metacharacters, shared by the vocabulary (src/vocabulary.ts drops them from
 * query words) and its SQL form (src/sql.ts drops them from patterns), so `matchesQuery` and
 * `buildGlobClause` always see the same words. GLOB has no escape character, so they cannot be
 * kept. Private: never re-exported.
 */

const GLOB_METACHARACTERS = /[*?[\]]/g;

/** The text without `*`, `?`, `[` and `]`: `stripGlobMetacharacters("a*b[c]")` is "abc". */
export function stripGlobMetacharacters(text: string): string {
  return text.replace(GLOB_METACHARACTERS, "");
}
