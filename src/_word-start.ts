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

/** What the matcher reads of an expanded term (`ExpandedTerm` without the fields it ignores). */
interface TermPatterns {
  readonly patterns: readonly string[];
}

/** One term's test, built once: an `indexOf` walk for one pattern, one regex for several. */
function compileTerm(patterns: readonly string[]): (text: string) => boolean {
  const [only] = patterns;
  if (patterns.length === 0 || only === undefined) return () => false;
  if (patterns.length === 1) {
    return (text) => {
      for (let at = text.indexOf(only); at !== -1; at = text.indexOf(only, at + 1)) {
        if (at === 0 || !isWordCode(text.charCodeAt(at - 1))) return true;
      }
      return false;
    };
  }
  // One pass for all the patterns instead of one `indexOf` walk each; the lookbehind is the
  // rule itself (no [a-z0-9] code unit just before), and without the `u` flag the regex reads
  // UTF-16 code units, exactly as `indexOf` and `charCodeAt` do.
  const alternatives = patterns.map((pattern) => pattern.replace(/[$()*+./?[\\\]^{|}-]/g, "\\$&"));
  const regex = new RegExp(`(?<![a-z0-9])(?:${alternatives.join("|")})`);
  return (text) => regex.test(text);
}

/** An expansion compiled, with the term objects and pattern lists it was compiled from. */
interface CompiledExpansion {
  readonly terms: readonly TermPatterns[];
  readonly patterns: readonly (readonly string[])[];
  readonly test: (text: string) => boolean;
}

/** The AND of the terms' tests, with no loop for the usual one or two terms. */
function conjunction(tests: readonly ((text: string) => boolean)[]): (text: string) => boolean {
  const [first, second] = tests;
  if (first === undefined) return () => false;
  if (second === undefined) return first;
  if (tests.length === 2) return (text) => first(text) && second(text);
  return (text) => {
    for (const test of tests) if (!test(text)) return false;
    return true;
  };
}

function compileExpansion(expanded: readonly TermPatterns[]): CompiledExpansion {
  const terms = expanded.slice();
  const patterns = terms.map((term) => term.patterns);
  const decisive = patterns.map(decisivePatterns);
  if (decisive.length === 0 || decisive.some((list) => list.length === 0)) return { terms, patterns, test: () => false };
  // AND is order-free, so the term most likely to fail goes first: the one whose shortest
  // pattern is longest (long words are rarer, and `indexOf` skips faster on them). Stable sort.
  const shortest = (list: readonly string[]) => Math.min(...list.map((pattern) => pattern.length));
  const tests = decisive
    .map((list) => ({ length: shortest(list), test: compileTerm(list) }))
    .sort((a, b) => b.length - a.length)
    .map(({ test }) => test);
  return { terms, patterns, test: conjunction(tests) };
}

/** True while `expanded` still holds the very term objects and pattern lists `entry` was compiled from. */
function isCurrent(entry: CompiledExpansion, expanded: readonly TermPatterns[]): boolean {
  if (entry.terms.length !== expanded.length) return false;
  for (let i = 0; i < expanded.length; i += 1) {
    const term = expanded[i];
    if (term !== entry.terms[i] || term?.patterns !== entry.patterns[i]) return false;
  }
  return true;
}

const compiledExpansions = new WeakMap<readonly TermPatterns[], CompiledExpansion>();

/**
 * True when every term has a pattern at a word start of `text`; an empty expansion matches
 * nothing. The same answer as testing each pattern with {@link matchesAtWordStart}, faster:
 * each expansion is compiled once (covered patterns dropped, the likeliest-to-fail term first,
 * one regex for a term of several patterns) and kept while the array lives. It is recompiled
 * when a term or a term's `patterns` list is replaced; a `patterns` list written in place (its
 * type is `readonly`) is not noticed.
 *
 * @example
 * matchesExpansion("cultivo de soja", [{ patterns: ["soja"] }, { patterns: ["cultivos", "cultivo"] }]) // => true
 */
export function matchesExpansion(text: string, expanded: readonly TermPatterns[]): boolean {
  let entry = compiledExpansions.get(expanded);
  if (entry === undefined || !isCurrent(entry, expanded)) {
    entry = compileExpansion(expanded);
    compiledExpansions.set(expanded, entry);
  }
  return entry.test(text);
}
