/**
 * The parameters of BM25F (./core.ts has the formula): the fields' weights and length
 * normalisation, the views' sizes and weights, the prefix discount, the coordination and the text
 * analysis; and the defaults `createIndex` uses.
 */
import type { AnalysisSettings } from "../analysis/analyze.js";

/** Fields in the counted postings, in the order of the weights: id, title, keywords, text. */
export const FIELDS = 4;

/** The parameters of the formula in ./core.ts; tests and the bench may pass others. */
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
  /** W: text tokens per passage (passages follow one another). */
  readonly passage: number;
  /** α: what the best passage's score counts; 0 leaves passages out. */
  readonly passageWeight: number;
  /**
   * λ: what the exact-word view's score counts: the same BM25F over the words as written
   * (folded, stopwords dropped, neither plural-folded nor stemmed); 0 leaves the view out.
   */
  readonly exactWeight: number;
  /** P: what a word-start prefix occurrence counts, against 1 for the whole word. */
  readonly prefix: number;
  /**
   * κ: how much holding every query word counts: the score is multiplied by
   * (m / n)^(κ / (n − 1)^δ), where the entry holds m of the query's n words (n ≥ 2); 0 leaves it out.
   */
  readonly coordination: number;
  /** δ: how fast the coordination's exponent falls as the query grows (see `coordination`). */
  readonly coordinationDecay: number;
  /** The text analysis: language, plural folding, segmentation (../analysis/analyze.ts). */
  readonly analysis: AnalysisSettings;
}

/**
 * The parameters `createIndex` uses, chosen on the relevance bench (docs/performance.md,
 * "Relevance"). The keywords weigh less than the text's words because, in prose, they are section
 * headings (the folder server's use): 0.75 scored best there. The coordination κ is 0.5, the
 * least that ranks a long guide holding both words of a two-word query above a one-line note
 * holding one (packages/cli/test/cli/cli-languages.test.ts); on the known-item benches of five languages it costs
 * 0 to 0.01 MRR@10 against none, and 1 cost twice that. Its decay δ is 2: on the development
 * corpora's titles every δ from 1 to 3 scored alike (within 0.0004 MRR@10), and on their first
 * sentences as queries (bench/verbose-queries.ts) δ = 2 scored 0.0035 above δ = 1, 9 of 11 up.
 * The analysis detects each entry's language, English when unsure.
 */
export const BM25_DEFAULTS: Bm25Parameters = {
  k1: 1.2,
  weights: [0.5, 3, 0.75, 1],
  b: [0.5, 0.5, 0.5, 0.75],
  lead: 30,
  leadWeight: 1,
  passage: 100,
  passageWeight: 0.75,
  exactWeight: 0.6,
  prefix: 0.3,
  coordination: 0.5,
  coordinationDecay: 2,
  analysis: { language: "auto", fallback: "en", fold: true, segmentation: "words" },
};

/** The shortest query form that may reach longer words by prefix. */
export const MIN_PREFIX = 4;
