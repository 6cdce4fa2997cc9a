/**
 * The word-start rule, in one place: a pattern matches a normalised text when it occurs at
 * position 0 or just after a character outside [a-z0-9]. `matchesQuery` (src/vocabulary.ts)
 * runs it in JavaScript; `buildGlobClause` and `buildPostgresClause` (src/sql.ts) state it in
 * SQL. Private: never re-exported.
 */

/** The only characters that continue a word, in code point order: a–z, then 0–9. */
export const WORD_CHARACTERS = "abcdefghijklmnopqrstuvwxyz0123456789";

/** True for a UTF-16 code in [a-z0-9]: the only characters that continue a word. */
export function isWordCode(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
}

/** True when `pattern` occurs at position 0 or just after a character outside [a-z0-9]. */
export function matchesAtWordStart(text: string, pattern: string): boolean {
  if (pattern === "") return false;
  for (let at = text.indexOf(pattern); at !== -1; at = text.indexOf(pattern, at + 1)) {
    if (at === 0 || !isWordCode(text.charCodeAt(at - 1))) return true;
  }
  return false;
}

/**
 * The patterns of one term that can decide a match: empty ones and repeats are dropped, and so
 * is every pattern that starts with another pattern of the term ("carros" when "carro" is there),
 * since wherever the longer one starts a word the shorter one does too. Same answer, less work.
 * Keeps the first-seen order.
 *
 * @example
 * decisivePatterns(["carros", "automoveis", "carro", "automove", "carro"]) // => ["carro", "automove"]
 */
export function decisivePatterns(patterns: readonly string[]): string[] {
  const unique = patterns.filter((pattern, index) => pattern !== "" && patterns.indexOf(pattern) === index);
  return unique.filter((pattern) => !unique.some((other) => other !== pattern && pattern.startsWith(other)));
}
