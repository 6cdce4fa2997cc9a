/**
 * The prose ranking of `createIndex(entries, { ranking: "bm25" })`: BM25F over the four fields of
 * an entry, computed from counted postings over a sorted term dictionary (./_postings.ts), so a
 * word-start prefix is a range and a query touches only the entries that share a term with it.
 *
 * The formula, for a query whose distinct folded tokens are q₁…qₙ (see {@link bm25Tokens}):
 *
 * ```text
 * matches(q)     = { q } ∪ { t in the dictionary : t starts with q, t ≠ q }   (prefixes only when |q| ≥ 3)
 * tf(q, d, f)    = count of q in field f of d + P × Σ count of t in f, t ∈ matches(q) \ { q }
 * norm(d, f)     = 1 − b_f + b_f × len(d, f) / avglen(f)          (len: tokens of f in d)
 * tf~(q, d)      = Σ_f w_f × tf(q, d, f) / norm(d, f)                 (over the fields with len > 0)
 * df(q)          = number of entries with tf~(q, d) > 0
 * idf(q)         = ln(1 + (N − df(q) + 0.5) / (df(q) + 0.5))
 * score(d)       = Σ_q idf(q) × tf~(q, d) / (k1 + tf~(q, d))
 * ```
 *
 * Fields f, with weight w_f and length normalisation b_f: id (weak evidence), title, keywords,
 * text; see {@link BM25_DEFAULTS}. P is the prefix discount. Entries with score 0 are not
 * results; ties keep collection order.
 *
 * Everything a search reads from the collection is kept as counts (postings per field, field
 * lengths, their totals), so adding or removing one entry is a matter of adjusting counts and
 * the per-entry normalisation; this build does it once for the whole collection.
 */
import type { SearchResult } from "../contract/schemas.js";
import { checkEntries, type RankedEntry } from "./entries.js";
import { normalizeText } from "./normalize.js";
import { CountedPostingsBuilder, lowerBound, type CountedPostings } from "./postings.js";

/** Field numbers in the counted postings, in the order of the weights. */
const FIELDS = 4;
const [ID, TITLE, KEYWORDS, TEXT] = [0, 1, 2, 3] as const;

/** The parameters of the formula above; tests and the bench may pass others. */
export interface Bm25Parameters {
  /** Term-frequency saturation. */
  readonly k1: number;
  /** Per-field weight w_f: id, title, keywords, text. */
  readonly weights: readonly [number, number, number, number];
  /** Per-field length normalisation b_f: id, title, keywords, text. */
  readonly b: readonly [number, number, number, number];
  /** P: what a word-start prefix occurrence counts, against 1 for the whole word. */
  readonly prefix: number;
  /** Fold English and Portuguese plurals on both sides ({@link foldPlural}). */
  readonly fold: boolean;
}

/** The parameters `createIndex` uses, chosen on the relevance bench (docs/drafts/issue-15.md). */
export const BM25_DEFAULTS: Bm25Parameters = {
  k1: 1.2,
  weights: [0.5, 3, 1.5, 1],
  b: [0.5, 0.5, 0.5, 0.75],
  prefix: 0.3,
  fold: true,
};

/**
 * Function words of Portuguese and English; never tokens. A superset of the rule's list: BM25's
 * idf already discounts them, dropping them keeps their long postings out of every query.
 */
const STOPWORDS: ReadonlySet<string> = new Set(
  ("a o as os um uma uns umas de da do das dos e em no na nos nas ao aos por para com sem que ou se " +
    "the of in and for by to is are was be an on at as or it its this that with from into than").split(" "),
);
const NON_ALPHANUMERIC = /[^a-z0-9]+/;

/**
 * Folds a normalised English or Portuguese plural to its singular, or returns the word unchanged:
 * it only removes plural endings, so it never cuts a word into a fragment that is not a word
 * form ("processes" → "process", "libraries" → "library", "informacoes" → "informacao",
 * "files" → "file"; "status", "class", "analysis", "gas" unchanged). Words under 4 characters and
 * words with a digit are unchanged.
 *
 * @example
 * foldPlural("populacoes"); // => "populacao"
 * foldPlural("boxes");      // => "box"
 */
export function foldPlural(word: string): string {
  const n = word.length;
  if (n < 4 || word.charCodeAt(n - 1) !== 115 /* s */ || /\d/.test(word)) return word;
  if (word.endsWith("coes") || word.endsWith("soes")) return `${word.slice(0, -3)}ao`;
  if (n > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.endsWith("sses") || word.endsWith("xes") || word.endsWith("ches") || word.endsWith("shes") || word.endsWith("zes")) {
    return word.slice(0, -2);
  }
  const before = word.charCodeAt(n - 2);
  if (before === 115 /* s */ || before === 117 /* u */ || before === 105 /* i */) return word;
  return word.slice(0, -1);
}

/**
 * The tokens BM25 indexes and searches, repeats included: normalised, split on `[^a-z0-9]+`,
 * 2 or more characters, not a stopword, plurals folded when `fold` is true.
 *
 * @example
 * bm25Tokens("Reading the ZIP files"); // => ["reading", "zip", "file"]
 */
export function bm25Tokens(text: string, fold = BM25_DEFAULTS.fold): string[] {
  const tokens: string[] = [];
  for (const run of normalizeText(text).split(NON_ALPHANUMERIC)) {
    if (run.length >= 2 && !STOPWORDS.has(run)) tokens.push(fold ? foldPlural(run) : run);
  }
  return tokens;
}

/** A built BM25F ranking: what `createIndex` needs, and the scores for tests. */
export interface Bm25Ranking {
  readonly ids: readonly string[];
  readonly urls: readonly string[];
  /** The `limit` best entries, best first, ties by collection order. */
  search(query: string, limit: number): SearchResult[];
  /** Every entry's score, 0 for no match (tests compare it with the formula). */
  scores(query: string): Float64Array;
}

interface Bm25Data {
  readonly parameters: Bm25Parameters;
  readonly postings: CountedPostings;
  /** coef[e × 4 + f] = w_f / norm(e, f). */
  readonly coef: Float64Array;
  readonly size: number;
  readonly tf: Float64Array;
  readonly score: Float64Array;
  readonly listed: Int32Array;
  readonly touched: Int32Array;
}

/**
 * Builds the BM25F ranking of `entries`. Throws `McpSearchError` as `createIndex` does.
 *
 * @example
 * const ranking = createBm25Ranking([{ id: "a", title: "Zip files", url: "https://x.org/a" }]);
 * ranking.search("zip", 10); // => [{ id: "a", title: "Zip files", url: "https://x.org/a" }]
 */
export function createBm25Ranking(entries: readonly RankedEntry[], parameters: Bm25Parameters = BM25_DEFAULTS): Bm25Ranking {
  const { ids, titles, urls } = checkEntries(entries);
  const size = ids.length;
  const builder = new CountedPostingsBuilder(FIELDS);
  const lengths = new Uint32Array(size * FIELDS);
  const totals = [0, 0, 0, 0];
  const addField = (text: string, e: number, field: number) => {
    for (const token of bm25Tokens(text, parameters.fold)) {
      builder.add(token, e, field);
      lengths[e * FIELDS + field]! += 1;
      totals[field]! += 1;
    }
  };
  entries.forEach((entry, e) => {
    addField(entry.id, e, ID);
    addField(entry.title, e, TITLE);
    for (const keyword of entry.keywords ?? []) addField(keyword, e, KEYWORDS);
    addField(entry.text ?? "", e, TEXT);
  });
  const coef = new Float64Array(size * FIELDS);
  for (let f = 0; f < FIELDS; f++) {
    const average = size === 0 ? 0 : (totals[f] as number) / size;
    const b = parameters.b[f] as number;
    const weight = parameters.weights[f] as number;
    for (let e = 0; e < size; e++) {
      const length = lengths[e * FIELDS + f] as number;
      coef[e * FIELDS + f] = length === 0 ? 0 : weight / (1 - b + (b * length) / average);
    }
  }
  const data: Bm25Data = {
    parameters, postings: builder.finish(), coef, size,
    tf: new Float64Array(size), score: new Float64Array(size), listed: new Int32Array(size), touched: new Int32Array(size),
  };
  return {
    ids,
    urls,
    search(query, limit) {
      const max = Math.floor(limit);
      if (!(max > 0)) return [];
      const count = scoreQuery(data, query);
      const top = selectTop(data.score, data.touched, count, max);
      for (let i = 0; i < count; i++) data.score[data.touched[i]!] = 0;
      return top.map((e) => ({ id: ids[e]!, title: titles[e]!, url: urls[e]! }));
    },
    scores(query) {
      const count = scoreQuery(data, query);
      const copy = data.score.slice();
      for (let i = 0; i < count; i++) data.score[data.touched[i]!] = 0;
      return copy;
    },
  };
}

/** Adds every query token's BM25F contribution to `score`; returns how many entries it touched. */
function scoreQuery(data: Bm25Data, query: string): number {
  const { parameters: { k1, prefix: discount, fold }, postings: { terms, start, entry, counts }, coef, size, tf, score, listed, touched } = data;
  let touchedCount = 0;
  for (const token of new Set(bm25Tokens(query, fold))) {
    let count = 0;
    let term = lowerBound(terms, token);
    const end = token.length >= 3 ? lowerBound(terms, `${token}\uffff`) : terms[term] === token ? term + 1 : term;
    for (; term < end; term++) {
      const factor = terms[term] === token ? 1 : discount;
      for (let p = start[term]!, last = start[term + 1]!; p < last; p++) {
        const e = entry[p]!;
        const c = p * FIELDS, k = e * FIELDS;
        const add = factor * (counts[c]! * coef[k]! + counts[c + 1]! * coef[k + 1]! + counts[c + 2]! * coef[k + 2]! + counts[c + 3]! * coef[k + 3]!);
        if (add === 0) continue;
        if (tf[e] === 0) listed[count++] = e;
        tf[e]! += add;
      }
    }
    const idf = Math.log(1 + (size - count + 0.5) / (count + 0.5));
    for (let i = 0; i < count; i++) {
      const e = listed[i]!;
      const t = tf[e]!;
      if (score[e] === 0) touched[touchedCount++] = e;
      score[e]! += (idf * t) / (k1 + t);
      tf[e] = 0;
    }
  }
  return touchedCount;
}

/** True when entry a ranks before entry b: higher score, then earlier in the collection. */
function before(score: Float64Array, a: number, b: number): boolean {
  return score[a]! > score[b]! || (score[a] === score[b] && a < b);
}

/** The `limit` best of the touched entries, best first: a heap whose root is the worst kept. */
function selectTop(score: Float64Array, touched: Int32Array, count: number, limit: number): number[] {
  const heap: number[] = [];
  const worse = (a: number, b: number) => before(score, b, a);
  for (let i = 0; i < count; i++) {
    const e = touched[i]!;
    if (heap.length < limit) {
      let child = heap.length;
      heap.push(e);
      while (child > 0) {
        const parent = (child - 1) >> 1;
        if (!worse(e, heap[parent]!)) break;
        heap[child] = heap[parent]!;
        child = parent;
      }
      heap[child] = e;
    } else if (before(score, e, heap[0]!)) {
      let parent = 0;
      for (let child = 1; child < heap.length; parent = child, child = 2 * child + 1) {
        if (child + 1 < heap.length && worse(heap[child + 1]!, heap[child]!)) child++;
        if (!worse(heap[child]!, e)) break;
        heap[parent] = heap[child]!;
      }
      heap[parent] = e;
    }
  }
  return heap.sort((a, b) => (before(score, a, b) ? -1 : 1));
}
