/**
 * The prose ranking of `createIndex(entries, { ranking: "bm25" })`: BM25F over the four fields of
 * an entry, computed from counted postings over a sorted term dictionary (./postings.ts), so a
 * word-start prefix is a range and a query touches only the entries that share a term with it.
 *
 * Text analysis (./analysis/): each entry is analysed in one language, given or detected from its
 * words ({@link entryTokens}); the query is analysed in every language the collection holds, as
 * groups G₁…Gₙ, one per concept of the query: a query word with its expansions (`expand`, a
 * vocabulary's), each group holding their distinct forms q (one per language, see
 * `analyzeQuery`); groups that share a form are one. The formula:
 *
 * ```text
 * exact(q)       = some entry of the whole view has tf~(q, d) > 0 counting q itself only
 * prefixes(G)    = no form of G is exact, or G holds a query word's form in the collection's main language
 *                  (most entries') when that language reaches longer words (German:
 *                  `reachesLongerWords`); only for its forms of 4 characters or more
 * matches(q)     = { q } ∪ { t in the dictionary : t starts with q, t ≠ q }   (when prefixes(G))
 * tf(q, d, f)    = Σ count of t in field f of d, t ∈ { q } ∪ (matches(q) ∩ G), + P × Σ count of t in f, t ∈ matches(q) \ G   (q ∈ G)
 * tf(G, d, f)    = Σ count of t in f, t ∈ G, + P × Σ count of t in f, t ∈ ∪ matches(q) \ G   (each t once)
 * norm(d, f)     = 1 − b_f + b_f × len(d, f) / avglen(f)          (len: tokens of f in d)
 * tf~(x, d)      = Σ_f w_f × tf(x, d, f) / norm(d, f)     (x: a form q or a group G; fields with len > 0)
 * df(q)          = number of entries with tf~(q, d) > 0
 * idf(q)         = ln(1 + (N − df(q) + 0.5) / (df(q) + 0.5))
 * idf(G)         = idf(q) of the form q ∈ G with the largest df(q)
 * score(d)       = Σ_G idf(G) × tf~(G, d) / (k1 + tf~(G, d))
 * ```
 *
 * Fields f, with weight w_f and length normalisation b_f: id (weak evidence), title, keywords,
 * text; see {@link BM25_DEFAULTS}. P is the prefix discount. A word that the collection holds
 * as it is never reaches longer words, so a prefix match cannot lift a document above the exact
 * word's documents ("sour" does not reach "source" where "sour" is written), except in a
 * collection mostly in a language whose rules say otherwise: German writes compounds as one
 * word, so "Festplatte" reaches "Festplattenspeicher" at the discount P beside its own
 * documents. A form under 4 characters reaches nothing but itself.
 *
 * Long documents: the score above is computed in four views of the collection, each with its
 * own N, df and avglen, and summed:
 *
 * ```text
 * final(d) = (score_whole(d) + γ × score_lead(lead(d)) + α × max over passages p of d of score_passages(p)
 *             + λ × score_exact(d))
 *            × (m(d) / n)^(κ / (n − 1))
 * ```
 *
 * `score_exact` reads d's words as written (folded, stopwords dropped, neither plural-folded nor
 * stemmed), and the query's words likewise, whole words only: a stem finds every form of a word,
 * and the form the query wrote counts again where a document writes it so ("driver" above
 * "drivers" for "What is a driver?"). Fitted on the development corpora of the relevance bench
 * (λ = 0.6: +0.008 MRR@10 on average, all 11 up; docs/performance.md, "Languages").
 * `lead(d)` is d with its text cut to its first L tokens ({@link leadOf}: and to the first L
 * words of a spaceless script, where fewer of them came first); a d of at most W text tokens is
 * its own one passage, and the passages of a longer d are its text alone (no id, title or
 * keywords, which count in the other views), cut into windows of W tokens, one after another
 * ({@link passageStarts}). The views
 * were measured on the relevance bench (docs/performance.md): a document's start states its
 * subject, and a passage that holds the query's words together beats the same words scattered.
 * m(d) counts the groups G with tf~(G, d) > 0 in the whole view, n the query's groups: a
 * document that holds every concept of the query does not lose to one that holds only one of them, as a
 * short note that says "coffee" did against a long guide on "sour coffee" (κ, the coordination,
 * was measured on the relevance bench). Its exponent falls as the query grows: a query of two
 * concepts names both on purpose, while one word missing from a sentence-long query says little
 * of the document (κ / (n − 1) scored at least κ on every development corpus of the bench, and up
 * to 0.022 MRR@10 more on its test corpora). Entries with final score 0 are not results; ties
 * keep collection order.
 *
 * Everything a search reads from the collection is kept as counts (postings per field, field
 * lengths, their integer totals, the live count), per view, so adding or removing one entry
 * adjusts counts in each view and the statistics stay exact; the normalisation w_f / norm(u, f),
 * which depends on a unit only through its field's length, is tabled by length and recomputed
 * from them on the first search after a change (linear in the longest field). Each view keeps its units in segmented postings (./postings.ts); the whole, lead
 * and exact-word views have one unit per entry, in the entry's slot; an entry's passages are consecutive slots.
 */
import type { SearchResult } from "../contract/schemas.js";
import type { ByteReader, ByteWriter } from "./bytes.js";
import { Collection, selectTop, type AnalyzedQuery, type Expand, type RankedEntry, type RankingCore, type TextMatch } from "./entries.js";
import { forEachFoldedWord, MAX_MATCHES, WordValues } from "./matches.js";
import { LANGUAGES, languageRules, type Language } from "../languages/index.js";
import { ANALYSIS_VERSION, analyzeQuery, analyzeWithWritten, chooseLanguage, splitWords, wordAnalyzer, type AnalysisSettings } from "./analysis/analyze.js";
import { DETECTION_SAMPLE, detectLanguage } from "./analysis/language.js";
import { crossReferenceSpans, withoutCrossReferences } from "./analysis/references.js";
import { isSpacelessWord } from "./analysis/tokenize.js";
import { grown, SegmentedPostings, type TermRange } from "./postings.js";

/** Fields in the counted postings, in the order of the weights: id, title, keywords, text. */
const FIELDS = 4;
/** The longest field a snapshot may claim when its counts saturated (2^26 tokens, about 400 MB of text). */
const MAX_SATURATED_LENGTH = 2 ** 26;

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
   * κ: how much holding every query word counts: the score is multiplied by (m / n)^(κ / (n − 1)),
   * where the entry holds m of the query's n words (n ≥ 2); 0 leaves it out.
   */
  readonly coordination: number;
  /** The text analysis: language, plural folding, segmentation (./analysis/analyze.ts). */
  readonly analysis: AnalysisSettings;
}

/**
 * The parameters `createIndex` uses, chosen on the relevance bench (docs/performance.md,
 * "Relevance"). The keywords weigh less than the text's words because, in prose, they are section
 * headings (the folder server's use): 0.75 scored best there. The coordination κ is 0.5, the
 * least that ranks a long guide holding both words of a two-word query above a one-line note
 * holding one (packages/cli/test/cli/cli-languages.test.ts); on the known-item benches of five languages it costs
 * 0 to 0.01 MRR@10 against none, and 1 cost twice that. The analysis detects each entry's
 * language, English when unsure.
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
  analysis: { language: "auto", fallback: "en", fold: true, segmentation: "words" },
};

/** The shortest query form that may reach longer words by prefix. */
const MIN_PREFIX = 4;

/**
 * An entry's language, every language its words were read in, and its fields' tokens (id, title,
 * keywords, text), analysed (`fields`) and as written (`exact`: the same words, stopwords dropped,
 * neither plural-folded nor stemmed). The entry's language is chosen from its title's and text's words
 * (`chooseLanguage`); the id, the title and the keywords are read in it, and so is its text
 * (less the quoted titles of numbered cross-references, `withoutCrossReferences`), paragraph by
 * paragraph (blocks between blank lines), except a paragraph whose own function
 * words name another language (`detectLanguage` without the detector), read in that one: a page
 * translated in part keeps its English paragraphs English and its Italian ones Italian. With a
 * fixed `language`, every word is read in it.
 *
 * @example
 * entryTokens({ id: "a", title: "Ciudades", url: "https://x.org/a", text: "Las luces de la ciudad y del puerto" }, BM25_DEFAULTS);
 * // => { language: "es", languages: ["es"], fields: [[], ["ciudad"], [], ["luz", "ciudad", "puerto"]],
 * //      exact: [[], ["ciudades"], [], ["luces", "ciudad", "puerto"]] }
 */
export function entryTokens(entry: RankedEntry, parameters: Pick<Bm25Parameters, "analysis"> = BM25_DEFAULTS): { language: Language; languages: Language[]; fields: string[][]; exact: string[][] } {
  const { analysis } = parameters;
  const { segmentation } = analysis;
  const title = splitWords(entry.title, segmentation);
  const paragraphs = withoutCrossReferences(entry.text ?? "").split(PARAGRAPH_BREAK).map((paragraph) => splitWords(paragraph, segmentation));
  const auto = analysis.language === "auto";
  const language = chooseLanguage(auto ? title.concat(firstWords(paragraphs, DETECTION_SAMPLE)) : [], analysis);
  const keywords = (entry.keywords ?? []).flatMap((keyword) => splitWords(keyword, segmentation));
  const languages = [language];
  const text: string[] = [];
  const exactText: string[] = [];
  for (const words of paragraphs) {
    const own = (auto && paragraphs.length > 1 ? detectLanguage(words) : undefined) ?? language;
    if (!languages.includes(own)) languages.push(own);
    const [tokens, written] = analyzeWithWritten(words, own, analysis);
    for (const token of tokens) text.push(token);
    for (const token of written) exactText.push(token);
  }
  const heads = [splitWords(entry.id, segmentation), title, keywords].map((words) => analyzeWithWritten(words, language, analysis));
  const fields = [...heads.map(([tokens]) => tokens), text];
  const exact = [...heads.map(([, written]) => written), exactText];
  return { language, languages, fields, exact };
}

/** The first `count` words of `paragraphs`, in order. */
function firstWords(paragraphs: readonly (readonly string[])[], count: number): string[] {
  const words: string[] = [];
  for (const paragraph of paragraphs) {
    if (words.length >= count) break;
    words.push(...paragraph.slice(0, count - words.length));
  }
  return words;
}

/**
 * An entry's lead: its first `length` text tokens, then, when fewer than `length` of them are
 * words of a spaceless script (Han, kana, Thai, Lao), the next such words up to `length`. Cut by
 * the segmentation, those words are short (particles included), and a page translated in part
 * often opens with a paragraph left in English: GNOME's help in Japanese and Chinese ranked below
 * a plain BM25 with the first 30 tokens alone (0.675 and 0.558 MRR@10 against 0.684 and 0.577),
 * and above it with this lead (0.735, 0.607), for 0.003 and 0.007 on the Japanese and Chinese
 * development corpora; a lead per script cost the latter 0.014, and no lead 0.05
 * (docs/performance.md, "Languages"). Text with no such word keeps its first `length` tokens.
 * A shorter lead is tuned to the development corpora, not to the languages: 18 tokens (36 of a
 * spaceless script) gained 0.009 MRR@10 on all 11 of them, and lost 0.006 on the 25 test
 * corpora, 17 of them down (LibreOffice's help in Greek 0.039).
 *
 * @example
 * leadOf(["install", "the", "東京", "地下鉄"], 2); // => ["install", "the", "東京", "地下鉄"]
 */
export function leadOf(text: readonly string[], length: number): string[] {
  const lead = text.slice(0, length);
  let spaceless = 0;
  for (const word of lead) if (isSpacelessWord(word)) spaceless += 1;
  for (let i = length; i < text.length && spaceless < length; i++) {
    const word = text[i]!;
    if (isSpacelessWord(word)) {
      lead.push(word);
      spaceless += 1;
    }
  }
  return lead;
}

/** A blank line, with any spaces on it: where a paragraph ends. */
const PARAGRAPH_BREAK = /\n[ \t\r\f\v]*\n/;

/** One word of a query: its forms (one per language, distinct), and whether they reach longer words. */
interface QueryGroup {
  readonly forms: readonly string[];
  readonly prefixes: boolean;
}

/** BM25's analysis of a query: its groups, and the languages they were analysed in. */
interface Bm25Query extends AnalyzedQuery {
  readonly groups: readonly QueryGroup[];
  /** The query's words as written (folded, stopwords dropped): the exact-word view's groups. */
  readonly exactGroups: readonly QueryGroup[];
  readonly languages: readonly Language[];
}

/** A built BM25F ranking: what `createIndex` needs, and the scores for tests. */
interface Bm25Ranking {
  readonly ids: readonly string[];
  readonly urls: readonly string[];
  /** The `limit` best entries, best first, ties by collection order; `expand` as `SearchOptions.expand`. */
  search(query: string, limit: number, expand?: Expand): SearchResult[];
  /** Every entry's score, 0 for no match (tests compare it with the formula). */
  scores(query: string, expand?: Expand): Float64Array;
}

/** One BM25F collection over units (the whole entries, their leads, or their passages), updatable. */
class View {
  readonly postings = new SegmentedPostings(FIELDS);
  /** lengths[u × 4 + f]: tokens of field f in unit u. */
  lengths: Uint32Array = new Uint32Array(0);
  /**
   * Per field f, w_f / norm(u, f) by length: coefByLength[f][len(u, f)]. It depends on the unit
   * only through its length, so a table as long as the longest field replaces a number per unit:
   * less memory, and a refresh after an update costs the longest field, not every unit.
   */
  readonly coefByLength: Float64Array[] = [new Float64Array(1), new Float64Array(1), new Float64Array(1), new Float64Array(1)];
  /** The longest each field has been in any unit (never lowered: a longer table is still right). */
  private readonly longest = [0, 0, 0, 0];
  /** The entry slot each unit belongs to. */
  owner: Int32Array = new Int32Array(0);
  readonly totals = [0, 0, 0, 0];
  live = 0;
  fresh = false;
  tf: Float64Array = new Float64Array(0);
  score: Float64Array = new Float64Array(0);
  listed: Int32Array = new Int32Array(0);
  touched: Int32Array = new Int32Array(0);
  /** A group's tf~ per unit (its forms' summed), and the units that have one. */
  best: Float64Array = new Float64Array(0);
  bestListed: Int32Array = new Int32Array(0);
  /** How many of the query's groups each unit holds, when asked for (the whole view's). */
  matched: Int32Array = new Int32Array(0);
  private readonly range: TermRange = { baseFrom: 0, baseTo: 0, deltaFrom: 0, deltaTo: 0 };

  constructor(private readonly parameters: Bm25Parameters) {}

  /** Opens a unit of `fields` (token lists: id, title, keywords, text) for entry slot `owner`. */
  add(fields: readonly (readonly string[])[], owner: number): number {
    const unit = this.postings.open();
    this.fill(unit, fields, owner);
    return unit;
  }

  /** Counts `fields` into `unit`, already open in the postings, and into the statistics. */
  fill(unit: number, fields: readonly (readonly string[])[], owner: number): void {
    this.lengths = grown(this.lengths, (unit + 1) * FIELDS);
    this.owner = grown(this.owner, unit + 1);
    this.owner[unit] = owner;
    fields.forEach((tokens, f) => {
      for (const token of tokens) this.postings.add(token, unit, f, 1);
      this.lengths[unit * FIELDS + f] = tokens.length;
      this.totals[f]! += tokens.length;
      if (tokens.length > this.longest[f]!) this.longest[f] = tokens.length;
    });
    this.live += 1;
    this.fresh = false;
  }

  remove(unit: number): void {
    this.forget(unit);
    this.postings.remove(unit);
  }

  /** Takes `unit` out of the statistics; its postings stay for whoever owns them to remove. */
  forget(unit: number): void {
    for (let f = 0; f < FIELDS; f++) this.totals[f]! -= this.lengths[unit * FIELDS + f]!;
    this.live -= 1;
    this.fresh = false;
  }

  /** Compacts the postings; `entries` maps old entry slots to new ones. Returns the unit remap. */
  compact(entries: Int32Array): Int32Array {
    const remap = this.postings.compact();
    const live = this.postings.slots;
    const { lengths, owner } = this;
    for (let unit = 0; unit < remap.length; unit++) {
      const to = remap[unit] as number;
      if (to < 0) continue;
      lengths.copyWithin(to * FIELDS, unit * FIELDS, (unit + 1) * FIELDS);
      owner[to] = entries[owner[unit]!]!;
    }
    this.lengths = lengths.slice(0, live * FIELDS);
    this.owner = owner.slice(0, live);
    this.fresh = false;
    return remap;
  }

  /** Writes the postings and the field lengths (compact: every unit alive). */
  save(writer: ByteWriter): void {
    this.postings.save(writer);
    writer.int32Array(this.lengths, this.postings.slots * FIELDS);
  }

  /**
   * Reads what {@link save} wrote, with `owner` giving each unit's entry slot; the totals and the
   * live count follow from the lengths. Throws an `Error` when the lengths do not fit the units.
   */
  load(reader: ByteReader, owner: (unit: number) => number): void {
    const sums = this.postings.load(reader, true) as Float64Array;
    const units = this.postings.slots;
    const lengths = reader.uint32Array();
    if (lengths.length !== units * FIELDS) throw new Error("a view's field lengths do not match its units");
    // A field's length is its tokens, each counted once in its postings: the normalisation tables
    // are as long as the longest field, so a length the postings do not back is refused here
    // rather than trusted.
    for (let i = 0; i < lengths.length; i++) {
      const length = lengths[i]!;
      const counted = sums[i]!;
      if (counted === Infinity ? length > MAX_SATURATED_LENGTH : counted !== length) throw new Error("a view's field lengths do not match its postings");
    }
    this.lengths = lengths;
    this.owner = Int32Array.from({ length: units }, (_, unit) => owner(unit));
    for (let f = 0; f < FIELDS; f++) this.totals[f] = 0;
    for (let f = 0; f < FIELDS; f++) this.longest[f] = 0;
    for (let u = 0; u < units; u++) {
      for (let f = 0; f < FIELDS; f++) {
        const length = lengths[u * FIELDS + f]!;
        this.totals[f]! += length;
        if (length > this.longest[f]!) this.longest[f] = length;
      }
    }
    this.live = units;
    this.fresh = false;
  }

  /** w_f / norm(len, f) for every length up to the longest, from the exact totals and the live count. */
  private refresh(): void {
    const { totals, live, parameters } = this;
    for (let f = 0; f < FIELDS; f++) {
      const average = live === 0 ? 0 : (totals[f] as number) / live;
      const b = parameters.b[f] as number;
      const weight = parameters.weights[f] as number;
      const longest = this.longest[f]!;
      if (this.coefByLength[f]!.length <= longest) this.coefByLength[f] = new Float64Array(longest + 1);
      const coef = this.coefByLength[f]!;
      coef[0] = 0;
      for (let length = 1; length <= longest; length++) coef[length] = weight / (1 - b + (b * length) / average);
    }
    this.fresh = true;
  }

  /** Sizes the scratch arrays and the normalisation tables for a search. */
  private prepare(): void {
    const units = this.postings.slots;
    if (!this.fresh) this.refresh();
    if (this.tf.length < units) {
      this.tf = grown(this.tf, units);
      this.score = grown(this.score, units);
      this.listed = grown(this.listed, units);
      this.touched = grown(this.touched, units);
      this.best = grown(this.best, units);
      this.bestListed = grown(this.bestListed, units);
      this.matched = grown(this.matched, units);
    }
    this.postings.prepare();
  }

  /**
   * Puts tf~(token, u) in `tf[u]` for every unit u it reaches (prefixes included when asked),
   * listing them in `listed`; returns how many. The words of `forms`, the token's group (the
   * token among them), count whole; a longer word it reaches counts P.
   */
  private countTerm(token: string, prefixes: boolean, forms: readonly string[]): number {
    const { parameters: { prefix: discount }, postings, lengths, tf, listed } = this;
    const [c0, c1, c2, c3] = this.coefByLength as [Float64Array, Float64Array, Float64Array, Float64Array];
    const { baseTerms, baseStart, baseBytes, deltaSorted, deltaTerms, deltaHead, deltaPool, blockFrom, blockEnd, blockNext, blockSlot, alive } = postings;
    let count = 0;
    const range = postings.range(token, prefixes, this.range);
    // A unit sits in one segment, so its terms are visited in dictionary order either way: its
    // sum is the same, bit for bit, as in a fresh build.
    for (let term = range.baseFrom; term < range.baseTo; term++) {
      const factor = forms.includes(baseTerms[term]!) ? 1 : discount;
      count = addRun(baseBytes, baseStart[term]!, baseStart[term + 1]!, -1, factor, alive, lengths, c0, c1, c2, c3, tf, listed, count);
    }
    for (let d = range.deltaFrom; d < range.deltaTo; d++) {
      const factor = forms.includes(deltaTerms[deltaSorted[d]!]!) ? 1 : discount;
      for (let block = deltaHead[deltaSorted[d]!]!; block >= 0; block = blockNext[block]!) {
        count = addRun(deltaPool, blockFrom[block]!, blockEnd[block]!, blockSlot[block]!, factor, alive, lengths, c0, c1, c2, c3, tf, listed, count);
      }
    }
    return count;
  }

  /**
   * True when some live unit has tf~(token, u) > 0 counting the token itself only. Stops at the
   * first such posting: a common word's list is not decoded twice.
   */
  holds(token: string): boolean {
    this.prepare();
    const { postings, lengths } = this;
    const [c0, c1, c2, c3] = this.coefByLength as [Float64Array, Float64Array, Float64Array, Float64Array];
    const { baseStart, baseBytes, deltaSorted, deltaHead, deltaPool, blockFrom, blockEnd, blockNext, blockSlot, alive } = postings;
    const range = postings.range(token, false, this.range);
    for (let term = range.baseFrom; term < range.baseTo; term++) {
      if (holdsRun(baseBytes, baseStart[term]!, baseStart[term + 1]!, -1, alive, lengths, c0, c1, c2, c3)) return true;
    }
    for (let d = range.deltaFrom; d < range.deltaTo; d++) {
      for (let block = deltaHead[deltaSorted[d]!]!; block >= 0; block = blockNext[block]!) {
        if (holdsRun(deltaPool, blockFrom[block]!, blockEnd[block]!, blockSlot[block]!, alive, lengths, c0, c1, c2, c3)) return true;
      }
    }
    return false;
  }

  /** Scores the units for the query groups into `score`; returns how many it touched. */
  scoreGroups(groups: readonly QueryGroup[], countMatches = false): number {
    this.prepare();
    const { parameters: { k1 }, live: size, tf, score, listed, touched, best, bestListed, matched } = this;
    let touchedCount = 0;
    for (const { forms, prefixes } of groups) {
      if (forms.length === 1) {
        const count = this.countTerm(forms[0]!, prefixes && forms[0]!.length >= MIN_PREFIX, forms);
        const idf = Math.log(1 + (size - count + 0.5) / (count + 0.5));
        for (let i = 0; i < count; i++) {
          const u = listed[i]!;
          const t = tf[u]!;
          tf[u] = 0;
          if (score[u] === 0) touched[touchedCount++] = u;
          score[u]! += (idf * t) / (k1 + t);
          if (countMatches) matched[u]! += 1;
        }
        continue;
      }
      // Several forms, one concept (a word in several languages, and its expansions): one term
      // whose tf~ is the sum of its forms' (Lucene's SynonymQuery), saturated once, with the idf
      // of the form most units hold, so a rare form cannot outweigh the word. A form that
      // starts with another form reaching longer words is in that form's range already.
      let bestCount = 0;
      let df = 0;
      for (const token of forms) {
        const reaches = prefixes && token.length >= MIN_PREFIX;
        if (prefixes && forms.some((other) => other !== token && other.length >= MIN_PREFIX && token.startsWith(other))) continue;
        const count = this.countTerm(token, reaches, forms);
        if (count > df) df = count;
        for (let i = 0; i < count; i++) {
          const u = listed[i]!;
          if (best[u] === 0) bestListed[bestCount++] = u;
          best[u]! += tf[u]!;
          tf[u] = 0;
        }
      }
      const idf = Math.log(1 + (size - df + 0.5) / (df + 0.5));
      for (let i = 0; i < bestCount; i++) {
        const u = bestListed[i]!;
        if (score[u] === 0) touched[touchedCount++] = u;
        score[u]! += (idf * best[u]!) / (k1 + best[u]!);
        best[u] = 0;
        if (countMatches) matched[u]! += 1;
      }
    }
    return touchedCount;
  }
}

/**
 * True when a live unit of the postings in `bytes[from…to)` (decoded as {@link addRun} does) has
 * a non-zero Σ_f count_f × coef(u, f); stops at the first.
 */
function holdsRun(
  bytes: Uint8Array, from: number, to: number, previous: number, alive: Uint8Array,
  lengths: Uint32Array, coef0: Float64Array, coef1: Float64Array, coef2: Float64Array, coef3: Float64Array,
): boolean {
  let u = previous;
  let p = from;
  while (p < to) {
    let byte = bytes[p++]!;
    let header = byte & 127;
    for (let scale = 128; byte >= 128; scale *= 128) {
      byte = bytes[p++]!;
      header += (byte & 127) * scale;
    }
    const code = header % 16;
    u += (header - code) / 16;
    const k = u * FIELDS;
    let sum = 0;
    if (code !== 15) {
      sum = (code + 1) * coef3[lengths[k + 3]!]!;
    } else {
      const mask = bytes[p++]!;
      for (let f = 0; f < FIELDS; f++) {
        if (((mask >> f) & 1) === 0) continue;
        byte = bytes[p++]!;
        let value = byte & 127;
        for (let scale = 128; byte >= 128; scale *= 128) {
          byte = bytes[p++]!;
          value += (byte & 127) * scale;
        }
        sum += value * (f === 0 ? coef0[lengths[k]!]! : f === 1 ? coef1[lengths[k + 1]!]! : f === 2 ? coef2[lengths[k + 2]!]! : coef3[lengths[k + 3]!]!);
      }
    }
    if (alive[u] !== 0 && sum !== 0) return true;
  }
  return false;
}

/**
 * Adds `factor × Σ_f count_f × coef(u, f)` to `tf[u]` for each live unit u of the postings in
 * `bytes[from…to)` (the format of ./posting-codec.ts, decoded inline; the first gap counts from unit
 * `previous`), where coef(u, f) = coefF[lengths[u × 4 + f]], listing each unit the first
 * time it gets a non-zero tf; returns the new list length. A text-only posting adds
 * `factor × (count × coef(u, text))`, the same number, bit for bit, as the full sum with its
 * zero terms.
 */
function addRun(
  bytes: Uint8Array, from: number, to: number, previous: number, factor: number, alive: Uint8Array,
  lengths: Uint32Array, coef0: Float64Array, coef1: Float64Array, coef2: Float64Array, coef3: Float64Array,
  tf: Float64Array, listed: Int32Array, count: number,
): number {
  let u = previous;
  let p = from;
  while (p < to) {
    let byte = bytes[p++]!;
    let header = byte & 127;
    for (let scale = 128; byte >= 128; scale *= 128) {
      byte = bytes[p++]!;
      header += (byte & 127) * scale;
    }
    const code = header % 16;
    u += (header - code) / 16;
    const k = u * FIELDS;
    let add: number;
    if (code !== 15) {
      if (alive[u] === 0) continue;
      add = factor * ((code + 1) * coef3[lengths[k + 3]!]!);
    } else {
      const mask = bytes[p++]!;
      let c0 = 0, c1 = 0, c2 = 0, c3 = 0;
      for (let f = 0; f < FIELDS; f++) {
        if (((mask >> f) & 1) === 0) continue;
        byte = bytes[p++]!;
        let value = byte & 127;
        for (let scale = 128; byte >= 128; scale *= 128) {
          byte = bytes[p++]!;
          value += (byte & 127) * scale;
        }
        if (f === 0) c0 = value;
        else if (f === 1) c1 = value;
        else if (f === 2) c2 = value;
        else c3 = value;
      }
      if (alive[u] === 0) continue;
      add = factor * (c0 * coef0[lengths[k]!]! + c1 * coef1[lengths[k + 1]!]! + c2 * coef2[lengths[k + 2]!]! + c3 * coef3[lengths[k + 3]!]!);
    }
    if (add === 0) continue;
    if (tf[u] === 0) listed[count++] = u;
    tf[u]! += add;
  }
  return count;
}

/**
 * The query term of a folded word read in `languages`: the first of its tokens that is one of a
 * group's forms, or starts with one that reaches longer words (4 characters or more).
 */
function queryTermOf(query: Bm25Query, languages: readonly Language[], analysis: AnalysisSettings): (word: string) => number | undefined {
  const termOfForm = new Map<string, number>();
  const prefixes: { form: string; term: number }[] = [];
  query.groups.forEach(({ forms, prefixes: reaches }, term) => {
    for (const form of forms) {
      if (!termOfForm.has(form)) termOfForm.set(form, term);
      if (reaches && form.length >= MIN_PREFIX) prefixes.push({ form, term });
    }
  });
  const termOf = (token: string) => termOfForm.get(token) ?? prefixes.find(({ form }) => token.startsWith(form))?.term;
  const analyzers = languages.map((language) => wordAnalyzer(language, analysis));
  return (word) => {
    for (const analyze of analyzers) {
      const token = analyze(word);
      const term = token === undefined ? undefined : termOf(token);
      if (term !== undefined) return term;
    }
    return undefined;
  };
}

/**
 * The BM25F side of an index: four views kept in step with the entries. The whole, lead and
 * exact-word views open one unit per entry, in the same order as the entry slots (so unit = entry slot);
 * an entry's passages are consecutive units of the passage view. Which views a search reads,
 * and with what weight, follows the fresh build exactly: a view whose units would all equal the
 * whole entries (no text longer than L, or W) is folded into the whole view's weight.
 */
class Bm25Core implements RankingCore {
  readonly whole: View;
  readonly lead: View;
  readonly passages: View;
  /** The exact-word view, one unit per entry; undefined when λ is 0. */
  readonly exact: View | undefined;
  /** The postings the collection compacts by: the whole view's. */
  readonly postings: SegmentedPostings;
  /** Per entry slot: its first passage unit and how many. */
  private firstPassage: Int32Array = new Int32Array(0);
  private passageCount: Int32Array = new Int32Array(0);
  private textLength: Int32Array = new Int32Array(0);
  /** Live entries whose text is longer than L, and than W. */
  private overLead = 0;
  private overPassage = 0;
  /**
   * Per entry slot, the languages its words were read in, as bits (bit l: LANGUAGES[l]); and how
   * many live entries read words in each language: a query is read in every language held.
   */
  private languagesOf: Int32Array = new Int32Array(0);
  private readonly languageCount = LANGUAGES.map(() => 0);
  private total: Float64Array = new Float64Array(0);
  private best: Float64Array = new Float64Array(0);
  touched: Int32Array = new Int32Array(0);
  /** Per query, per set of languages, each word's query term (see {@link termsOfWords}). */
  private readonly wordTerms = new WeakMap<Bm25Query, Map<number, WordValues<number | undefined>>>();

  constructor(readonly parameters: Bm25Parameters) {
    this.whole = new View(parameters);
    this.lead = new View(parameters);
    this.passages = new View(parameters);
    this.exact = parameters.exactWeight > 0 ? new View(parameters) : undefined;
    this.postings = this.whole.postings;
  }

  /** Opens the entry's units in the lead, passage and exact-word views; the collection opened its whole slot. */
  index(entry: RankedEntry, slot: number): void {
    const { parameters } = this;
    const { languages, fields, exact } = entryTokens(entry, parameters);
    const [id, title, keywords, text] = fields as [string[], string[], string[], string[]];
    this.languagesOf = grown(this.languagesOf, slot + 1);
    this.languagesOf[slot] = languages.reduce((bits, language) => bits | (1 << LANGUAGES.indexOf(language)), 0);
    this.countLanguages(this.languagesOf[slot]!, 1);
    // The collection opened `slot` in the whole view's postings: fill it in place of `add`.
    this.whole.fill(slot, [id, title, keywords, text], slot);
    this.lead.add([id, title, keywords, leadOf(text, parameters.lead)], slot);
    this.exact?.add(exact, slot);
    const starts = passageStarts(text.length, parameters.passage);
    this.firstPassage = grown(this.firstPassage, slot + 1);
    this.passageCount = grown(this.passageCount, slot + 1);
    this.textLength = grown(this.textLength, slot + 1);
    this.firstPassage[slot] = this.passages.postings.slots;
    this.passageCount[slot] = starts.length;
    this.textLength[slot] = text.length;
    // An entry that fits in one passage is its own passage; a longer entry's passages are windows
    // of its text alone: its id, title and keywords count in the whole and lead views, not again
    // in each window.
    if (starts.length === 1) this.passages.add([id, title, keywords, text], slot);
    else for (const from of starts) this.passages.add([[], [], [], text.slice(from, from + parameters.passage)], slot);
    if (text.length > parameters.lead) this.overLead += 1;
    if (text.length > parameters.passage) this.overPassage += 1;
  }

  /** Removes the entry's units from the lead, passage and exact-word views, and its whole-view statistics. */
  unindex(slot: number): void {
    // The collection removes the whole view's postings; only its statistics are ours.
    this.whole.forget(slot);
    this.lead.remove(slot);
    this.exact?.remove(slot);
    const first = this.firstPassage[slot]!;
    for (let u = first; u < first + this.passageCount[slot]!; u++) this.passages.remove(u);
    if (this.textLength[slot]! > this.parameters.lead) this.overLead -= 1;
    if (this.textLength[slot]! > this.parameters.passage) this.overPassage -= 1;
    this.countLanguages(this.languagesOf[slot]!, -1);
  }

  /** Adds `by` to the count of each language of `bits`. */
  private countLanguages(bits: number, by: number): void {
    for (let l = 0; l < LANGUAGES.length; l++) if ((bits & (1 << l)) !== 0) this.languageCount[l]! += by;
  }

  /**
   * The whole view's slice first, then the lead's, the passages' and the exact words'. The jobs
   * start together: a lead or exact-word unit is numbered as its entry, so all must be renumbered
   * by the same remap.
   */
  stepCompaction(): boolean {
    const { whole, lead, passages, exact } = this;
    const views = exact === undefined ? [whole, lead, passages] : [whole, lead, passages, exact];
    if (!whole.postings.compacting) for (const view of views) view.postings.startCompaction();
    return views.every((view) => view.postings.stepCompaction());
  }

  remap(remap: Int32Array, live: number): void {
    const { whole } = this;
    for (let slot = 0; slot < remap.length; slot++) {
      const to = remap[slot] as number;
      if (to < 0 || to === slot) continue;
      whole.lengths.copyWithin(to * FIELDS, slot * FIELDS, (slot + 1) * FIELDS);
    }
    whole.lengths = whole.lengths.slice(0, live * FIELDS);
    whole.owner = Int32Array.from({ length: live }, (_, e) => e);
    whole.fresh = false;
    this.lead.compact(remap);
    this.exact?.compact(remap);
    const units = this.passages.compact(remap);
    for (let slot = 0; slot < remap.length; slot++) {
      const to = remap[slot] as number;
      if (to < 0) continue;
      this.firstPassage[to] = units[this.firstPassage[slot]!]!;
      this.passageCount[to] = this.passageCount[slot]!;
      this.textLength[to] = this.textLength[slot]!;
      this.languagesOf[to] = this.languagesOf[slot]!;
    }
  }

  settings(): string {
    return JSON.stringify({ ...this.parameters, analysisVersion: ANALYSIS_VERSION });
  }

  save(writer: ByteWriter): void {
    const entries = this.whole.postings.slots;
    this.whole.save(writer);
    this.lead.save(writer);
    this.passages.save(writer);
    this.exact?.save(writer);
    writer.int32Array(this.passageCount, entries);
    writer.int32Array(this.textLength, entries);
    writer.int32Array(this.languagesOf, entries);
  }

  /**
   * Reads what {@link save} wrote, checking that the views fit together: one whole and one lead
   * unit per entry, each entry's passages as many as its text length gives, in a row.
   */
  load(reader: ByteReader, titles: readonly string[]): void {
    const entries = titles.length;
    this.whole.load(reader, (unit) => unit);
    this.lead.load(reader, (unit) => unit);
    const owners: number[] = [];
    // A passage's owner follows from the passage table, read after the views: set below.
    this.passages.load(reader, () => -1);
    this.exact?.load(reader, (unit) => unit);
    const passageCount = reader.int32Array();
    const textLength = reader.int32Array();
    const languagesOf = reader.int32Array();
    if (languagesOf.length !== entries || languagesOf.some((bits) => bits <= 0 || bits >= 1 << LANGUAGES.length)) throw new Error("its language table does not fit its entries");
    this.languageCount.fill(0);
    for (const bits of languagesOf) this.countLanguages(bits, 1);
    this.languagesOf = languagesOf;
    if (this.whole.postings.slots !== entries || this.lead.postings.slots !== entries || (this.exact !== undefined && this.exact.postings.slots !== entries)) throw new Error("a view has another number of entries");
    if (passageCount.length !== entries || textLength.length !== entries) throw new Error("its passage table has another number of entries");
    const { lead, passage } = this.parameters;
    const firstPassage = new Int32Array(entries);
    let next = 0;
    this.overLead = this.overPassage = 0;
    for (let e = 0; e < entries; e++) {
      const length = textLength[e]!;
      if (length !== this.whole.lengths[e * FIELDS + 3] || passageCount[e] !== passageStarts(length, passage).length) throw new Error("an entry's passages do not match its text length");
      firstPassage[e] = next;
      for (let u = next; u < next + passageCount[e]!; u++) owners[u] = e;
      next += passageCount[e]!;
      if (length > lead) this.overLead += 1;
      if (length > passage) this.overPassage += 1;
    }
    if (next !== this.passages.postings.slots) throw new Error("its passages do not add up to the passage view's units");
    this.passages.owner = Int32Array.from(owners);
    this.firstPassage = firstPassage;
    this.passageCount = passageCount;
    this.textLength = textLength;
  }

  /** The languages of the live entries, in LANGUAGES order; the fallback when there is none. */
  languages(): Language[] {
    const held = LANGUAGES.filter((_, l) => this.languageCount[l]! > 0);
    return held.length > 0 ? held : [this.parameters.analysis.fallback];
  }

  /** The language most live entries were read in (the first in LANGUAGES order on a tie); the fallback when there is none. */
  private mainLanguage(): Language {
    let main = -1;
    for (let l = 0; l < LANGUAGES.length; l++) if (this.languageCount[l]! > 0 && (main < 0 || this.languageCount[l]! > this.languageCount[main]!)) main = l;
    return main < 0 ? this.parameters.analysis.fallback : LANGUAGES[main]!;
  }

  /** The query's concepts (`analyzeQuery` over the held languages, with `expand`), with their prefix decision. */
  analyze(query: string, expand?: Expand): Bm25Query {
    const languages = this.languages();
    const { analysis } = this.parameters;
    // The main language's rule: a few German pages among English ones leave English words as they are.
    const main = this.mainLanguage();
    const reaching = languageRules(main).reachesLongerWords ? new Set(analyzeQuery(query, [main], analysis).flat()) : undefined;
    const groups = analyzeQuery(query, languages, analysis, expand).map((forms) => ({
      forms,
      prefixes: forms.some((form) => reaching?.has(form) === true) || !forms.some((form) => this.whole.holds(form)),
    }));
    const exactGroups = this.exact === undefined ? [] : analyzeQuery(query, languages, { ...analysis, fold: false }, expand).map((forms) => ({ forms, prefixes: false }));
    return { groups, exactGroups, languages, terms: groups.map((group) => group.forms) };
  }

  /**
   * Each word of `text` whose token, in the entry's language (or in any language of the query),
   * is one of a group's forms, or starts with one that reaches longer words; a word in the quoted
   * title of a numbered cross-reference did not rank, and is not one.
   */
  findMatches(query: Bm25Query, text: string, slot: number | undefined): TextMatch[] {
    const found: TextMatch[] = [];
    if (query.groups.length === 0) return found;
    const references = crossReferenceSpans(text);
    let reference = 0;
    forEachFoldedWord(text, this.parameters.analysis.segmentation, this.termsOfWords(query, slot), (term, start, end) => {
      if (term === undefined) return true;
      while (reference < references.length && references[reference]![1] <= start) reference += 1;
      if (reference < references.length && references[reference]![0] <= start) return true;
      found.push({ start, end, term });
      return found.length < MAX_MATCHES;
    });
    return found;
  }

  /**
   * The query term of each word, read in the languages of the entry in `slot` (or of the query),
   * kept while the query lives: the results of one search share most of their words.
   */
  private termsOfWords(query: Bm25Query, slot: number | undefined): WordValues<number | undefined> {
    // Languages as a mask of LANGUAGES; -1 for the query's own, in its order.
    const mask = slot === undefined ? -1 : this.languagesOf[slot]!;
    let byMask = this.wordTerms.get(query);
    if (byMask === undefined) this.wordTerms.set(query, (byMask = new Map()));
    let values = byMask.get(mask);
    if (values === undefined) {
      const languages = mask === -1 ? query.languages : LANGUAGES.filter((_, l) => (mask & (1 << l)) !== 0);
      byMask.set(mask, (values = new WordValues(queryTermOf(query, languages, this.parameters.analysis))));
    }
    return values;
  }

  /** Sums the views into `total`, as the fresh build does; returns how many entries scored. */
  scoreAll(query: Bm25Query): number {
    const { parameters } = this;
    const { leadWeight, passageWeight, exactWeight } = parameters;
    const { groups } = query;
    const slots = this.postings.slots;
    if (this.total.length < slots) {
      this.total = grown(this.total, slots);
      this.best = grown(this.best, slots);
      this.touched = grown(this.touched, slots);
    }
    const { total, best, touched } = this;
    const views: [View, number, readonly QueryGroup[]][] = [[this.whole, 1, groups]];
    if (leadWeight > 0) {
      if (this.overLead === 0) views[0]![1] += leadWeight;
      else views.push([this.lead, leadWeight, groups]);
    }
    if (passageWeight > 0) {
      if (this.overPassage === 0) views[0]![1] += passageWeight;
      else views.push([this.passages, passageWeight, groups]);
    }
    if (this.exact !== undefined) views.push([this.exact, exactWeight, query.exactGroups]);
    let count = 0;
    for (const [view, weight, viewGroups] of views) {
      const scored = view.scoreGroups(viewGroups, view === this.whole);
      for (let i = 0; i < scored; i++) {
        const u = view.touched[i]!;
        const e = view.owner[u]!;
        if (total[e] === 0 && best[e] === 0) touched[count++] = e;
        if (view !== this.passages) total[e]! += weight * view.score[u]!;
        else if (view.score[u]! > best[e]!) best[e] = view.score[u]!;
        view.score[u] = 0;
      }
    }
    const { coordination } = parameters;
    const n = groups.length;
    const exponent = n > 1 ? coordination / (n - 1) : 0;
    const matched = this.whole.matched;
    for (let i = 0; i < count; i++) {
      const e = touched[i]!;
      total[e]! += passageWeight * best[e]!;
      best[e] = 0;
      if (exponent > 0) total[e]! *= (matched[e]! / n) ** exponent;
      matched[e] = 0;
    }
    return count;
  }

  search(query: Bm25Query, limit: number, order: Float64Array): { slots: number[]; total: number } {
    const count = this.scoreAll(query);
    const top = selectTop(this.total, order, this.touched, count, limit);
    for (let i = 0; i < count; i++) this.total[this.touched[i]!] = 0;
    return { slots: top, total: count };
  }

  /** Every live entry's score, by slot, for tests. */
  scores(query: string, size: number, expand?: Expand): Float64Array {
    const count = this.scoreAll(this.analyze(query, expand));
    const copy = new Float64Array(size);
    copy.set(this.total.subarray(0, Math.min(size, this.total.length)));
    for (let i = 0; i < count; i++) this.total[this.touched[i]!] = 0;
    return copy;
  }
}

/** The BM25F core `createIndex` builds for `ranking: "bm25"`. */
export function createBm25Core(parameters: Bm25Parameters = BM25_DEFAULTS): RankingCore {
  return new Bm25Core(parameters);
}

/**
 * Builds the BM25F ranking of `entries`. Throws `McpSearchError` as `createIndex` does. Four
 * views, each its own BM25F collection with its own statistics: the whole entries; their leads
 * (the same fields, the text cut to its first L tokens); their passages (an entry of at most W
 * text tokens whole, a longer one's text alone cut into consecutive windows of W tokens); their
 * words as written. When no text is longer
 * than L (or W), a view would equal the whole one, and the whole one's scores are reused.
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
    search: (query, limit, expand) => collection.search(query, limit, expand),
    scores(query, expand) {
      const size = collection.size;
      if (size === 0) return new Float64Array(0);
      core.postings.prepare();
      return core.scores(query, size, expand);
    },
  };
}

/**
 * Where each passage of a text of `length` tokens starts: at 0, then every max(1, W) tokens
 * while the text goes on. Until the exact-word view, passages overlapped by half; with it, the
 * overlap scored the same on the development corpora (+0.0002 MRR@10 on average without it) and
 * held every token twice, as many postings as the exact-word view adds (docs/performance.md).
 *
 * @example
 * passageStarts(250, 100); // => [0, 100, 200]
 */
export function passageStarts(length: number, size: number): number[] {
  const step = Math.max(1, size);
  const starts = [0];
  for (let from = step; from < length; from += step) starts.push(from);
  return starts;
}
