/**
 * The word-start rule, in one place: a pattern matches a normalised text when it occurs at
 * position 0 or just after a character outside [a-z0-9]. `matchesQuery` (src/vocabulary.ts)
 * runs it in JavaScript; `buildGlobClause` and `buildPostgresClause` (src/sql.ts) state it in
 * SQL. Private: never re-exported.
 *
 * Other scripts: every letter outside a–z is "outside [a-z0-9]", so a pattern in Cyrillic, Greek,
 * Han or kana matches anywhere in a word, not only at its start ("сеть" inside "подсеть"); the
 * SQL clauses state the same rule. The folder server's snippets keep word starts in every script
 * written with spaces (packages/cli/src/mcp/snippet.ts).
 */

/** The only characters that continue a word, in code point order: a–z, then 0–9. */
export const WORD_CHARACTERS = "abcdefghijklmnopqrstuvwxyz0123456789";

/** True for a UTF-16 code in [a-z0-9]: the only characters that continue a word. */
function isWordCode(code: number): boolean {
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

/**
 * Letters that make a good anchor, rarest first: the ones under 2% of the letters of both
 * Portuguese and English text, ranked by the mean of their frequencies in the two languages.
 * Common letters, digits, punctuation and other scripts stay out: each place of the anchor costs
 * one more `indexOf` and a `startsWith`, so a letter found in most names gains nothing (adding
 * p, c, l, m, u, h and d measured no gain on the bench's names).
 */
const ANCHOR_LETTERS = "xzjkqywbvfg";

/**
 * Where to start looking for a pattern: its rarest letter (see {@link ANCHOR_LETTERS}, the
 * first one on a tie) and that letter's offset in the pattern, or null when the pattern holds
 * none of them. Only the speed depends on this choice, never the answer.
 *
 * @example
 * findAnchor("soja") // => { anchor: "j", offset: 2 }
 * findAnchor("fabricacao") // => { anchor: "b", offset: 2 }
 * findAnchor("pro") // => null
 */
export function findAnchor(pattern: string): { anchor: string; offset: number } | null {
  let best: { anchor: string; offset: number } | null = null;
  let bestRank = ANCHOR_LETTERS.length;
  for (let offset = 0; offset < pattern.length; offset += 1) {
    const anchor = pattern.charAt(offset);
    const rank = ANCHOR_LETTERS.indexOf(anchor);
    if (rank !== -1 && rank < bestRank) {
      best = { anchor, offset };
      bestRank = rank;
    }
  }
  return best;
}

/**
 * One step of a compiled expansion: a term reduced to one pattern, or to one regex for its
 * several patterns. A single pattern is found by its `anchor` letter when it has one (an
 * `indexOf` of that letter, then `startsWith` of the pattern where it would begin), by an
 * `indexOf` walk of the whole pattern when `anchor` is "". Plain data, so one monomorphic loop
 * runs every expansion.
 */
interface Step {
  readonly pattern: string;
  readonly anchor: string;
  readonly offset: number;
  readonly regex: RegExp | null;
}

/** An expansion compiled, with the term objects and pattern lists it was compiled from. */
interface CompiledExpansion {
  readonly source: readonly TermPatterns[];
  readonly terms: readonly TermPatterns[];
  readonly patterns: readonly (readonly string[])[];
  readonly steps: readonly Step[];
}

/** Matches nowhere: the step of a term left with no pattern. */
const NEVER: Step = { pattern: "", anchor: "", offset: 0, regex: /(?!)/ };

function compileStep(patterns: readonly string[]): Step {
  const [only] = patterns;
  if (only === undefined) return NEVER;
  if (patterns.length === 1) {
    // V8's `indexOf` of a short pattern stops at every place of its first letter to compare
    // the rest, and most patterns start with a common letter ("s" of "soja"). Looking up the
    // rarest letter instead stops far less often: measured on bench/vocabulary.bench.ts, a
    // query like "soja" or "professores" takes about half the time of the plain walk.
    const found = findAnchor(only);
    return { pattern: only, anchor: found?.anchor ?? "", offset: found?.offset ?? 0, regex: null };
  }
  // One pass for all the patterns instead of one `indexOf` walk each; the lookbehind is the
  // rule itself (no [a-z0-9] code unit just before), and without the `u` flag the regex reads
  // UTF-16 code units, exactly as `indexOf` and `charCodeAt` do.
  const alternatives = patterns.map((pattern) => pattern.replace(/[$()*+./?[\\\]^{|}-]/g, "\\$&"));
  return { pattern: "", anchor: "", offset: 0, regex: new RegExp(`(?<![a-z0-9])(?:${alternatives.join("|")})`) };
}

function compileExpansion(expanded: readonly TermPatterns[]): CompiledExpansion {
  const terms = expanded.slice();
  const patterns = terms.map((term) => term.patterns);
  // AND is order-free, so the term most likely to fail goes first: the one whose shortest
  // pattern is longest (long words are rarer, and `indexOf` skips faster on them). Stable sort.
  const shortest = (list: readonly string[]) => Math.min(...list.map((pattern) => pattern.length));
  const steps = patterns
    .map(decisivePatterns)
    .map((list) => ({ length: list.length === 0 ? Infinity : shortest(list), step: compileStep(list) }))
    .sort((a, b) => b.length - a.length)
    .map(({ step }) => step);
  return { source: expanded, terms, patterns, steps };
}

/** True while `expanded` still holds the very term objects and pattern lists `entry` was compiled from. */
function isCurrent(entry: CompiledExpansion, expanded: readonly TermPatterns[]): boolean {
  const { terms, patterns } = entry;
  if (terms.length !== expanded.length) return false;
  for (let i = 0; i < terms.length; i += 1) {
    const term = expanded[i];
    if (term !== terms[i] || term?.patterns !== patterns[i]) return false;
  }
  return true;
}

const compiledExpansions = new WeakMap<readonly TermPatterns[], CompiledExpansion>();
/** The expansion used last: a filter calls with the same one for every row, so this skips the map. */
let lastCompiled: CompiledExpansion | undefined;

function compiledFor(expanded: readonly TermPatterns[]): CompiledExpansion {
  const last = lastCompiled;
  if (last !== undefined && last.source === expanded && last.terms.length === expanded.length) return last;
  let entry = compiledExpansions.get(expanded);
  if (entry === undefined || !isCurrent(entry, expanded)) {
    entry = compileExpansion(expanded);
    compiledExpansions.set(expanded, entry);
  }
  lastCompiled = entry;
  return entry;
}

/**
 * True when the step's pattern occurs at a word start of `text`, found through its anchor: every
 * place of the anchor letter, from the pattern's offset on, is where one occurrence would put it,
 * so no occurrence is missed.
 */
function findsAnchored(text: string, step: Step): boolean {
  const { pattern, anchor, offset } = step;
  for (let found = text.indexOf(anchor, offset); found !== -1; found = text.indexOf(anchor, found + 1)) {
    const at = found - offset;
    if (text.startsWith(pattern, at) && (at === 0 || !isWordCode(text.charCodeAt(at - 1)))) return true;
  }
  return false;
}

/**
 * True when every term has a pattern at a word start of `text`; an empty expansion matches
 * nothing. The same answer as testing each pattern with {@link matchesAtWordStart}, faster:
 * each expansion is compiled once (covered patterns dropped, the likeliest-to-fail term first,
 * a lone pattern looked up by its rarest letter, one regex for a term of several patterns) and
 * kept while the array lives. An expansion is
 * read-only (its type says so): build a new one rather than editing it. When it comes back
 * after another one was used, a replaced term or `patterns` list, or a changed length, is
 * noticed and recompiled; between two calls in a row only a changed length is.
 *
 * @example
 * matchesExpansion("cultivo de soja", [{ patterns: ["soja"] }, { patterns: ["cultivos", "cultivo"] }]) // => true
 */
export function matchesExpansion(text: string, expanded: readonly TermPatterns[]): boolean {
  const steps = compiledFor(expanded).steps;
  if (steps.length === 0) return false;
  for (let s = 0; s < steps.length; s += 1) {
    const step = steps[s] as Step;
    const { pattern, regex } = step;
    if (regex !== null) {
      if (!regex.test(text)) return false;
      continue;
    }
    if (step.anchor !== "") {
      if (!findsAnchored(text, step)) return false;
      continue;
    }
    let at = text.indexOf(pattern);
    while (at > 0 && isWordCode(text.charCodeAt(at - 1))) at = text.indexOf(pattern, at + 1);
    if (at === -1) return false;
  }
  return true;
}
