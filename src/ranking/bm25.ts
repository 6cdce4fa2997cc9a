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
 * text; see {@link BM25_DEFAULTS}. P is the prefix discount.
 *
 * Long documents: the score above is computed in three views of the collection, each with its
 * own N, df and avglen, and summed:
 *
 * ```text
 * final(d) = score_whole(d) + γ × score_lead(lead(d)) + α × max over passages p of d of score_passages(p)
 * ```
 *
 * `lead(d)` is d with its text cut to its first L tokens; the passages of d are d with its text
 * cut into windows of W tokens, starting every W/2 tokens ({@link passageStarts}). The views
 * were measured on the relevance bench (docs/drafts/issue-15.md): a document's start states its
 * subject, and a passage that holds the query's words together beats the same words scattered.
 * Entries with final score 0 are not results; ties keep collection order.
 *
 * Everything a search reads from the collection is kept as counts (postings per field, field
 * lengths, their totals), so adding or removing one entry is a matter of adjusting counts and
 * the per-entry normalisation; this build does it once for the whole collection.
 */
import type { SearchResult } from "../contract/schemas.js";
import { checkEntries, type RankedEntry } from "./entries.js";
import { normalizeText } from "./normalize.js";
import { countPostings, lowerBound, sortDictionary, type CountedPostings } from "./postings.js";

/** Fields in the counted postings, in the order of the weights: id, title, keywords, text. */
const FIELDS = 4;

/** The parameters of the formula above; tests and the bench may pass others. */
export interface Bm25Parameters {
  /** Term-frequency saturation. */
  readonly k1: number;
  /** Per-field weight w_f: id, title, keywords, text. */
  readonly weights: readonly [number, number, number, number];
  /** Per-field length normalisation b_f: id, title, keywords, text. */
  readonly b: readonly [number, number, number, number];
  /** L: how many text tokens make an entry's lead. */
  readonly lead: number;
  /** γ: what the lead view's score counts; 0 leaves it out. */
  readonly leadWeight: number;
  /** W: text tokens per passage (passages overlap by half). */
  readonly passage: number;
  /** α: what the best passage's score counts; 0 leaves passages out. */
  readonly passageWeight: number;
  /** P: what a word-start prefix occurrence counts, against 1 for the whole word. */
  readonly prefix: number;
  /** Fold English and Portuguese plurals on both sides ({@link foldPlural}). */
  readonly fold: boolean;
  /** Words never indexed nor searched (normalised). */
  readonly stopwords: ReadonlySet<string>;
}

/**
 * Function words of Portuguese and English; never tokens. A superset of the rule's list: BM25's
 * idf already discounts them, dropping them keeps their long postings out of every query.
 */
export const SHORT_STOPWORDS: ReadonlySet<string> = new Set(
  ("a o as os um uma uns umas de da do das dos e em no na nos nas ao aos por para com sem que ou se " +
    "the of in and for by to is are was be an on at as or it its this that with from into than").split(" "),
);

/** A longer list of function words, English then Portuguese. */
export const LONG_STOPWORDS: ReadonlySet<string> = new Set(
  ("a about above after again against all am an and any are as at be because been before being below between both but by can could " +
    "did do does doing during each few for from further had has have having he her here hers herself him himself his how i if in into " +
    "is it its itself just me more most my myself of off on once only or other our ours out own same she should so some such than that " +
    "the their theirs them themselves then there these they this those through to too until very was we were what when where which " +
    "while who whom why will with would you your yours " +
    "o os as um uma uns umas de da do das dos e em no na nos nas ao aos por para com sem que ou se seu sua seus suas ele ela eles " +
    "elas este esta isto esse essa isso aquele aquela como mais mas ja foi ser sao era pelo pela pelos pelas entre sobre ate quando " +
    "muito tambem").split(" "),
);

/** The parameters `createIndex` uses, chosen on the relevance bench (docs/drafts/issue-15.md). */
export const BM25_DEFAULTS: Bm25Parameters = {
  k1: 1.2,
  weights: [0.5, 3, 1.5, 1],
  b: [0.5, 0.5, 0.5, 0.75],
  lead: 30,
  leadWeight: 1,
  passage: 100,
  passageWeight: 0.75,
  prefix: 0.3,
  fold: true,
  stopwords: SHORT_STOPWORDS,
};

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
export function bm25Tokens(text: string, parameters: Pick<Bm25Parameters, "fold" | "stopwords"> = BM25_DEFAULTS): string[] {
  const { fold, stopwords } = parameters;
  const tokens: string[] = [];
  for (const run of normalizeText(text).split(NON_ALPHANUMERIC)) {
    if (run.length >= 2 && !stopwords.has(run)) tokens.push(fold ? foldPlural(run) : run);
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

/** One entry's tokens as sorted-dictionary ids, field by field: id, title, keywords, text. */
type Unit = readonly [Int32Array, Int32Array, Int32Array, Int32Array];

/** One BM25F collection over units: the whole entries, their leads, or their passages. */
interface View {
  readonly postings: CountedPostings;
  /** coef[u × 4 + f] = w_f / norm(u, f). */
  readonly coef: Float64Array;
  readonly size: number;
  /** The entry each unit belongs to. */
  readonly owner: Int32Array;
  readonly tf: Float64Array;
  readonly score: Float64Array;
  readonly listed: Int32Array;
  readonly touched: Int32Array;
}

function buildView(termCount: number, units: readonly Unit[], owner: Int32Array, parameters: Bm25Parameters): View {
  const size = units.length;
  const totals = [0, 0, 0, 0];
  for (const unit of units) unit.forEach((tokens, f) => (totals[f]! += tokens.length));
  const coef = new Float64Array(size * FIELDS);
  for (let f = 0; f < FIELDS; f++) {
    const average = size === 0 ? 0 : (totals[f] as number) / size;
    const b = parameters.b[f] as number;
    const weight = parameters.weights[f] as number;
    units.forEach((unit, u) => {
      const length = unit[f]!.length;
      coef[u * FIELDS + f] = length === 0 ? 0 : weight / (1 - b + (b * length) / average);
    });
  }
  return {
    postings: countPostings(termCount, units, FIELDS), coef, size, owner,
    tf: new Float64Array(size), score: new Float64Array(size), listed: new Int32Array(size), touched: new Int32Array(size),
  };
}

/**
 * Builds the BM25F ranking of `entries`. Throws `McpSearchError` as `createIndex` does. Three
 * views, each its own BM25F collection with its own statistics: the whole entries; their leads
 * (the same fields, the text cut to its first L tokens); their passages (the same id, title and
 * keywords, the text cut into windows of W tokens overlapping by half). When no text is longer
 * than L (or W), a view would equal the whole one, and the whole one's scores are reused.
 *
 * @example
 * const ranking = createBm25Ranking([{ id: "a", title: "Zip files", url: "https://x.org/a" }]);
 * ranking.search("zip", 10); // => [{ id: "a", title: "Zip files", url: "https://x.org/a" }]
 */
export function createBm25Ranking(entries: readonly RankedEntry[], parameters: Bm25Parameters = BM25_DEFAULTS): Bm25Ranking {
  const { ids, titles, urls } = checkEntries(entries);
  const size = ids.length;
  // Every token becomes a dictionary id once; the views share the one sorted dictionary.
  const idOf = new Map<string, number>();
  const firstSeen: string[] = [];
  const idsOf = (tokens: readonly string[]) => Int32Array.from(tokens, (token) => {
    let id = idOf.get(token);
    if (id === undefined) {
      id = firstSeen.length;
      idOf.set(token, id);
      firstSeen.push(token);
    }
    return id;
  });
  const seen: Unit[] = entries.map((entry) => [
    idsOf(bm25Tokens(entry.id, parameters)),
    idsOf(bm25Tokens(entry.title, parameters)),
    idsOf((entry.keywords ?? []).flatMap((keyword) => bm25Tokens(keyword, parameters))),
    idsOf(bm25Tokens(entry.text ?? "", parameters)),
  ]);
  const { terms, rank } = sortDictionary(firstSeen);
  const units = seen.map((unit) => unit.map((tokens) => tokens.map((id) => rank[id]!)) as unknown as Unit);
  const termCount = terms.length;
  const identity = Int32Array.from(units, (_, e) => e);
  const whole = buildView(termCount, units, identity, parameters);
  const longest = units.reduce((max, unit) => Math.max(max, unit[3].length), 0);
  const { lead, leadWeight, passage, passageWeight } = parameters;
  const views: [View, number][] = [[whole, 1]];
  if (leadWeight > 0) {
    if (longest <= lead) views[0]![1] += leadWeight;
    else views.push([buildView(termCount, units.map(([id, title, keywords, text]) => [id, title, keywords, text.subarray(0, lead)]), identity, parameters), leadWeight]);
  }
  if (passageWeight > 0) {
    if (longest <= passage) views[0]![1] += passageWeight;
    else {
      const windows: Unit[] = [];
      const owner: number[] = [];
      units.forEach(([id, title, keywords, text], e) => {
        for (const from of passageStarts(text.length, passage)) {
          windows.push([id, title, keywords, text.subarray(from, from + passage)]);
          owner.push(e);
        }
      });
      views.push([buildView(termCount, windows, Int32Array.from(owner), parameters), passageWeight]);
    }
  }
  const total = new Float64Array(size);
  const best = new Float64Array(size);
  const touched = new Int32Array(size);
  /** Sums the views into `total`; returns how many entries scored. */
  const scoreAll = (query: string): number => {
    const tokens = [...new Set(bm25Tokens(query, parameters))];
    let count = 0;
    for (const [view, weight] of views) {
      const scored = scoreView(view, terms, tokens, parameters);
      for (let i = 0; i < scored; i++) {
        const u = view.touched[i]!;
        const e = view.owner[u]!;
        if (total[e] === 0 && best[e] === 0) touched[count++] = e;
        if (view.owner === identity) total[e]! += weight * view.score[u]!;
        else if (view.score[u]! > best[e]!) best[e] = view.score[u]!;
        view.score[u] = 0;
      }
    }
    for (let i = 0; i < count; i++) {
      const e = touched[i]!;
      total[e]! += passageWeight * best[e]!;
      best[e] = 0;
    }
    return count;
  };
  return {
    ids,
    urls,
    search(query, limit) {
      const max = Math.floor(limit);
      if (!(max > 0)) return [];
      const count = scoreAll(query);
      const top = selectTop(total, touched, count, max);
      for (let i = 0; i < count; i++) total[touched[i]!] = 0;
      return top.map((e) => ({ id: ids[e]!, title: titles[e]!, url: urls[e]! }));
    },
    scores(query) {
      const count = scoreAll(query);
      const copy = total.slice();
      for (let i = 0; i < count; i++) total[touched[i]!] = 0;
      return copy;
    },
  };
}

/** Where each passage of a text of `length` tokens starts: at 0, then every max(1, ⌊W/2⌋) tokens while the previous window ends before the text does. */
export function passageStarts(length: number, size: number): number[] {
  const step = Math.max(1, Math.floor(size / 2));
  const starts = [0];
  for (let from = step; from + size - step < length; from += step) starts.push(from);
  return starts;
}

/** Scores one view's units for the query tokens into `view.score`; returns how many it touched. */
function scoreView(view: View, terms: readonly string[], tokens: readonly string[], parameters: Bm25Parameters): number {
  const { k1, prefix: discount } = parameters;
  const { postings: { start, entry, counts }, coef, size, tf, score, listed, touched } = view;
  let touchedCount = 0;
  for (const token of tokens) {
    let count = 0;
    let term = lowerBound(terms, token);
    const end = token.length >= 3 ? lowerBound(terms, `${token}\uffff`) : terms[term] === token ? term + 1 : term;
    for (; term < end; term++) {
      const factor = terms[term] === token ? 1 : discount;
      for (let p = start[term]!, last = start[term + 1]!; p < last; p++) {
        const u = entry[p]!;
        const c = p * FIELDS, k = u * FIELDS;
        const add = factor * (counts[c]! * coef[k]! + counts[c + 1]! * coef[k + 1]! + counts[c + 2]! * coef[k + 2]! + counts[c + 3]! * coef[k + 3]!);
        if (add === 0) continue;
        if (tf[u] === 0) listed[count++] = u;
        tf[u]! += add;
      }
    }
    const idf = Math.log(1 + (size - count + 0.5) / (count + 0.5));
    for (let i = 0; i < count; i++) {
      const u = listed[i]!;
      const t = tf[u]!;
      if (score[u] === 0) touched[touchedCount++] = u;
      score[u]! += (idf * t) / (k1 + t);
      tf[u] = 0;
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
