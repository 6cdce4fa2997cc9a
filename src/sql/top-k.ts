/**
 * The arithmetic behind the ranked search (./ranked-search.ts): which rows can still reach a
 * score, known from the query alone. A row's score is a sum over the query tokens of a few
 * discrete parts (a field's weight for an exact hit, half of it for a word start, +20 a covered
 * token) and +10 for the phrase, in half points. So a row that holds a token in only some fields
 * has a ceiling, and the rows whose ceiling reaches a score are those holding the right
 * combinations of (token, field) hits: a search of the candidates' index.
 *
 * A (token, field) pair whose index term finds few rows ("rare") has all its rows scored; the
 * other pairs ("frequent") have levels: absent, a word-start hit (the prefix term), an exact hit
 * (the exact term). A vector of levels, one a frequent pair, has a ceiling; the rows that can
 * reach a score τ without a rare pair are those at or above one of the minimal vectors whose
 * ceiling reaches τ: an OR of ANDs of index terms.
 */
import { FIELD, MIN_PREFIX_LENGTH, ORIGINAL_RULE_STOPWORDS } from "../ranking/rule/definition.js";
import { COVERED, FIELDS, PHRASE } from "./ranked-query.js";
import type { IndexTerm, TermSearch } from "./terms.js";

/** How many rows hold a (token, field) pair, counted up to a cap: exactly, and as a prefix (the same for a 2-character token). */
export interface PairCount {
  readonly token: number;
  readonly field: number;
  readonly exact: number;
  readonly prefix: number;
}

/** A frequent pair's levels, lowest first: the term a row at that level holds, and its ceiling in half points. */
interface FrequentPair {
  readonly token: number;
  readonly field: number;
  readonly levels: readonly { readonly term: IndexTerm; readonly half: number }[];
}

/** What the ranked search knows of a query once its pairs are counted. */
interface TopKPlan {
  /** The terms whose every row is scored. */
  readonly rare: readonly IndexTerm[];
  /** The pairs left to the ceilings. */
  readonly frequent: readonly FrequentPair[];
  /** The highest score a row without a rare term can reach. */
  readonly ceiling: number;
  /**
   * The rows without a rare term that can reach `half`: a search, exact while it has at most
   * `maxItems` items, otherwise widened (any level of each pair, then any field of each token),
   * still holding every such row; undefined when even that is too long.
   */
  reaching(half: number): TermSearch | undefined;
}

/** The most items of a search before it is widened, and the most vectors enumerated. */
const MAX_ITEMS = 32;
const MAX_VECTORS = 4096;
/**
 * The rule's stopwords of 3 letters or more: a title word that begins with the query's last word
 * is a title token unless it is one of these.
 */
const LONG_STOPWORDS = [...ORIGINAL_RULE_STOPWORDS].filter((word) => word.length >= MIN_PREFIX_LENGTH);

/**
 * What a title holding the phrase must hold among its tokens: a query word with a non-word
 * character on both sides in the phrase is a whole title word, so an exact title hit; the last
 * word, with one before it, starts a title word, so a word-start hit (3 characters or more, and
 * no stopword could be that title word). The first word may end a longer title word: nothing.
 */
export function phraseNeeds(phrase: string, tokens: readonly string[]): { readonly token: number; readonly exact: boolean }[] {
  const needs: { token: number; exact: boolean }[] = [];
  for (const match of phrase.matchAll(/[a-z0-9]+/g)) {
    const word = match[0];
    const token = tokens.indexOf(word);
    if (match.index === 0 || token < 0) continue;
    if (match.index + word.length < phrase.length) needs.push({ token, exact: true });
    else if (word.length >= MIN_PREFIX_LENGTH && !LONG_STOPWORDS.some((stopword) => stopword !== word && stopword.startsWith(word))) needs.push({ token, exact: false });
  }
  return needs;
}

/** Drops the items that hold another item: they find no row it does not. */
function minimal(items: readonly (readonly string[])[]): string[][] {
  const sets = [...new Map(items.map((item) => [[...item].sort().join("\n"), [...item].sort()])).values()];
  return sets.filter((set) => !sets.some((other) => other !== set && other.length < set.length && other.every((key) => set.includes(key))));
}

/**
 * Splits the pairs of `tokens` (already cut to the index's length) by their counts: a pair found
 * in at most `cap` rows is rare; a frequent one whose exact term is rare keeps only its prefix
 * level, the exact term joining the rare ones.
 */
export function planTopK(tokens: readonly string[], phrase: string | undefined, counts: readonly PairCount[], cap: number): TopKPlan {
  const rare: IndexTerm[] = [];
  const frequent: FrequentPair[] = [];
  for (const { token, field, exact, prefix } of counts) {
    const text = tokens[token]!;
    const wide: IndexTerm = { token: text, field, prefix: text.length >= MIN_PREFIX_LENGTH };
    const weight = FIELDS[field]![1];
    if (prefix === 0) continue;
    if (prefix <= cap) rare.push(wide);
    else if (!wide.prefix) frequent.push({ token, field, levels: [{ term: wide, half: weight }] });
    else {
      const exactTerm: IndexTerm = { ...wide, prefix: false };
      if (exact > cap) frequent.push({ token, field, levels: [{ term: wide, half: weight / 2 }, { term: exactTerm, half: weight }] });
      else {
        if (exact > 0) rare.push(exactTerm);
        frequent.push({ token, field, levels: [{ term: wide, half: weight / 2 }] });
      }
    }
  }
  // The phrase needs some title hits: without them in the vector, no +10.
  const needs = phrase === undefined ? undefined : phraseNeeds(phrase, tokens).map(({ token, exact }) => {
    const index = frequent.findIndex((pair) => pair.token === token && pair.field === FIELD.title);
    const pair = frequent[index];
    // A need no frequent level meets: only rows with a rare term (scored anyway) can have the phrase.
    const level = pair === undefined ? Infinity : exact ? pair.levels.findIndex((level) => !level.term.prefix) + 1 || Infinity : 1;
    return { index, level };
  });
  const bound = (vector: readonly number[]): number => {
    const perToken = new Map<number, number>();
    vector.forEach((level, i) => {
      if (level === 0) return;
      const pair = frequent[i]!;
      perToken.set(pair.token, (perToken.get(pair.token) ?? COVERED) + pair.levels[level - 1]!.half);
    });
    let half = 0;
    for (const value of perToken.values()) half += value;
    const phraseBonus = needs !== undefined && needs.every(({ index, level }) => (vector[index] ?? 0) >= level);
    return half + (phraseBonus ? PHRASE : 0);
  };
  const top = frequent.map((pair) => pair.levels.length);
  const keyOf = (term: IndexTerm): string => `${term.field}:${term.prefix ? "p" : "e"}:${term.token}`;
  const terms = new Map(frequent.flatMap((pair) => pair.levels.map(({ term }) => [keyOf(term), term] as const)));
  const searchOf = (items: readonly (readonly string[])[]): TermSearch => minimal(items).map((item) => item.map((key) => [terms.get(key)!]));

  function reaching(half: number): TermSearch | undefined {
    if (frequent.length === 0 || bound(top) < half) return [];
    // Every minimal vector whose ceiling reaches `half`, lowest levels first; a branch stops once
    // even its highest levels fall short.
    const vectors: number[][] = [];
    const vector = frequent.map(() => 0);
    const walk = (i: number): boolean => {
      if (bound(vector) >= half) {
        const least = vector.every((level, j) => {
          if (level === 0) return true;
          vector[j] = level - 1;
          const below = bound(vector) < half;
          vector[j] = level;
          return below;
        });
        if (least) vectors.push([...vector]);
        return vectors.length <= MAX_VECTORS;
      }
      if (i === frequent.length || bound([...vector.slice(0, i), ...top.slice(i)]) < half) return true;
      for (let level = 0; level <= top[i]!; level++) {
        vector[i] = level;
        if (!walk(i + 1)) return false;
      }
      vector[i] = 0;
      return true;
    };
    if (!walk(0)) return undefined;
    const levels = vectors.map((found) => found.flatMap((level, i) => (level === 0 ? [] : [keyOf(frequent[i]!.levels[level - 1]!.term)])));
    if (minimal(levels).length <= MAX_ITEMS) return searchOf(levels);
    // Wider: each pair at any level (its prefix term holds its exact one).
    const pairs = vectors.map((found) => found.flatMap((level, i) => (level === 0 ? [] : [keyOf(frequent[i]!.levels[0]!.term)])));
    if (minimal(pairs).length <= MAX_ITEMS) return searchOf(pairs);
    // Wider still: each token in any of its frequent fields.
    const bySet = minimal(vectors.map((found) => [...new Set(found.flatMap((level, i) => (level === 0 ? [] : [String(frequent[i]!.token)])))]));
    if (bySet.length > MAX_ITEMS) return undefined;
    return bySet.map((set) => set.map((token) => frequent.filter((pair) => String(pair.token) === token).map((pair) => pair.levels[0]!.term)));
  }

  return { rare, frequent, ceiling: bound(top), reaching };
}
