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
 * lengths, their integer totals, the live count), so adding or removing one entry adjusts counts
 * and the statistics stay exact; the per-entry normalisation w_f / norm(e, f) is recomputed from
 * them on the first search after a change (linear in the entries, about 1 ms per 100k).
 */
import type { SearchResult } from "../contract/schemas.js";
import { Collection, grown, selectTop, type RankedEntry, type RankingCore } from "./entries.js";
import { normalizeText } from "./normalize.js";
import { SegmentedPostings, type TermRange } from "./postings.js";

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

/** A built BM25F ranking over a fixed collection, for tests and the bench. */
export interface Bm25Ranking {
  readonly ids: readonly string[];
  readonly urls: readonly string[];
  /** The `limit` best entries, best first, ties by collection order. */
  search(query: string, limit: number): SearchResult[];
  /** Every entry's score, 0 for no match (tests compare it with the formula). */
  scores(query: string): Float64Array;
}

/** The BM25F side of an index: counted postings, field lengths and their totals, scratch. */
class Bm25Core implements RankingCore {
  readonly postings = new SegmentedPostings(FIELDS);
  /** lengths[e × 4 + f]: tokens of field f in slot e. */
  lengths: Uint32Array = new Uint32Array(0);
  /** coef[e × 4 + f] = w_f / norm(e, f), recomputed on the first search after a change. */
  coef: Float64Array = new Float64Array(0);
  readonly totals = [0, 0, 0, 0];
  live = 0;
  private coefFresh = false;
  tf: Float64Array = new Float64Array(0);
  score: Float64Array = new Float64Array(0);
  listed: Int32Array = new Int32Array(0);
  touched: Int32Array = new Int32Array(0);
  private readonly range: TermRange = { baseFrom: 0, baseTo: 0, deltaFrom: 0, deltaTo: 0 };

  constructor(readonly parameters: Bm25Parameters) {}

  index(entry: RankedEntry, slot: number): void {
    this.lengths = grown(this.lengths, (slot + 1) * FIELDS);
    this.lengths.fill(0, slot * FIELDS, (slot + 1) * FIELDS);
    this.addField(entry.id, slot, ID);
    this.addField(entry.title, slot, TITLE);
    for (const keyword of entry.keywords ?? []) this.addField(keyword, slot, KEYWORDS);
    this.addField(entry.text ?? "", slot, TEXT);
    this.live += 1;
    this.coefFresh = false;
  }

  private addField(text: string, slot: number, field: number): void {
    let count = 0;
    for (const token of bm25Tokens(text, this.parameters.fold)) {
      this.postings.add(token, slot, field, 1);
      count++;
    }
    this.lengths[slot * FIELDS + field]! += count;
    this.totals[field]! += count;
  }

  unindex(slot: number): void {
    for (let f = 0; f < FIELDS; f++) this.totals[f]! -= this.lengths[slot * FIELDS + f]!;
    this.live -= 1;
    this.coefFresh = false;
  }

  remap(remap: Int32Array, live: number): void {
    const { lengths } = this;
    for (let slot = 0; slot < remap.length; slot++) {
      const to = remap[slot] as number;
      if (to < 0 || to === slot) continue;
      lengths.copyWithin(to * FIELDS, slot * FIELDS, (slot + 1) * FIELDS);
    }
    this.lengths = lengths.slice(0, live * FIELDS);
    this.coefFresh = false;
  }

  /** w_f / norm(e, f) for every slot, from the exact totals (integers) and the live count. */
  private refreshCoef(): void {
    const slots = this.postings.slots;
    const { lengths, totals, live, parameters } = this;
    this.coef = grown(this.coef, slots * FIELDS);
    const coef = this.coef;
    for (let f = 0; f < FIELDS; f++) {
      const average = live === 0 ? 0 : (totals[f] as number) / live;
      const b = parameters.b[f] as number;
      const weight = parameters.weights[f] as number;
      for (let e = 0; e < slots; e++) {
        const length = lengths[e * FIELDS + f] as number;
        coef[e * FIELDS + f] = length === 0 ? 0 : weight / (1 - b + (b * length) / average);
      }
    }
    this.coefFresh = true;
  }

  /** Scores the query into `score`; returns how many slots it touched (listed in `touched`). */
  scoreQuery(query: string): number {
    const slots = this.postings.slots;
    if (!this.coefFresh) this.refreshCoef();
    if (this.tf.length < slots) {
      this.tf = grown(this.tf, slots);
      this.score = grown(this.score, slots);
      this.listed = grown(this.listed, slots);
      this.touched = grown(this.touched, slots);
    }
    const { parameters: { k1, prefix: discount, fold }, postings, coef, live: size, tf, score, listed, touched } = this;
    const { baseTerms, baseStart, baseEntry, baseData, deltaSorted, deltaSortedTerms, deltaHead, deltaEntry, deltaNext, deltaData, alive } = postings;
    let touchedCount = 0;
    for (const token of new Set(bm25Tokens(query, fold))) {
      let count = 0;
      const range = postings.range(token, token.length >= 3, this.range);
      // An entry sits in one segment, so its terms are visited in dictionary order either way:
      // its sum is the same, bit for bit, as in a fresh build.
      for (let term = range.baseFrom; term < range.baseTo; term++) {
        const factor = baseTerms[term] === token ? 1 : discount;
        for (let p = baseStart[term]!, last = baseStart[term + 1]!; p < last; p++) {
          const e = baseEntry[p]!;
          if (alive[e] === 0) continue;
          const c = p * FIELDS, k = e * FIELDS;
          const add = factor * (baseData[c]! * coef[k]! + baseData[c + 1]! * coef[k + 1]! + baseData[c + 2]! * coef[k + 2]! + baseData[c + 3]! * coef[k + 3]!);
          if (add === 0) continue;
          if (tf[e] === 0) listed[count++] = e;
          tf[e]! += add;
        }
      }
      for (let d = range.deltaFrom; d < range.deltaTo; d++) {
        const factor = deltaSortedTerms[d] === token ? 1 : discount;
        for (let p = deltaHead[deltaSorted[d]!]!; p !== -1; p = deltaNext[p]!) {
          const e = deltaEntry[p]!;
          if (alive[e] === 0) continue;
          const c = p * FIELDS, k = e * FIELDS;
          const add = factor * (deltaData[c]! * coef[k]! + deltaData[c + 1]! * coef[k + 1]! + deltaData[c + 2]! * coef[k + 2]! + deltaData[c + 3]! * coef[k + 3]!);
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

  search(query: string, limit: number, order: Float64Array): number[] {
    const count = this.scoreQuery(query);
    const top = selectTop(this.score, order, this.touched, count, limit);
    for (let i = 0; i < count; i++) this.score[this.touched[i]!] = 0;
    return top;
  }
}

/** The BM25F core `createIndex` builds for `ranking: "bm25"`. */
export function createBm25Core(parameters: Bm25Parameters = BM25_DEFAULTS): RankingCore {
  return new Bm25Core(parameters);
}

/**
 * Builds the BM25F ranking of `entries`. Throws `McpSearchError` as `createIndex` does.
 *
 * @example
 * const ranking = createBm25Ranking([{ id: "a", title: "Zip files", url: "https://x.org/a" }]);
 * ranking.search("zip", 10); // => [{ id: "a", title: "Zip files", url: "https://x.org/a" }]
 */
export function createBm25Ranking(entries: readonly RankedEntry[], parameters: Bm25Parameters = BM25_DEFAULTS): Bm25Ranking {
  const core = new Bm25Core(parameters);
  const collection = new Collection(core);
  collection.addAll(entries);
  // A fresh build: slot e is entry e.
  return {
    ids: collection.ids,
    urls: collection.urls,
    search: (query, limit) => collection.search(query, limit),
    scores(query) {
      const size = collection.size;
      if (size === 0) return new Float64Array(0);
      core.postings.prepare();
      const count = core.scoreQuery(query);
      const copy = core.score.slice(0, size);
      for (let i = 0; i < count; i++) core.score[core.touched[i]!] = 0;
      return copy;
    },
  };
}
