/**
 * The prose ranking of `createIndex(entries, { ranking: "bm25" })`: BM25F over the four fields of
 * an entry, computed from counted postings over a sorted term dictionary (../postings.ts), so a
 * word-start prefix is a range and a query touches only the entries that share a term with it.
 *
 * Text analysis (../analysis/): each entry is analysed in one language, given or detected from its
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
 *            × (m(d) / n)^(κ / (n − 1)^δ)
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
 * to 0.022 MRR@10 more on its test corpora; κ / (n − 1)², δ = 2, scored as well on titles and
 * better on sentences: {@link BM25_DEFAULTS}). Entries with final score 0 are not results; ties
 * keep collection order.
 *
 * Everything a search reads from the collection is kept as counts (postings per field, field
 * lengths, their integer totals, the live count), per view, so adding or removing one entry
 * adjusts counts in each view and the statistics stay exact; the normalisation w_f / norm(u, f),
 * which depends on a unit only through its field's length, is tabled by length and recomputed
 * from them on the first search after a change (linear in the longest field). Each view keeps its units in segmented postings (../postings.ts); the whole, lead
 * and exact-word views have one unit per entry, in the entry's slot; an entry's passages are consecutive slots.
 */
import type { SearchResult } from "../../contract/schemas.js";
import type { ByteReader, ByteWriter } from "../bytes.js";
import { Collection, selectTop, type AnalyzedQuery, type Expand, type RankedEntry, type RankingCore, type TextMatch } from "../entries.js";
import { forEachFoldedWord, MAX_MATCHES, WordValues } from "../matches.js";
import { LANGUAGES, languageRules, type Language } from "../../languages/index.js";
import { ANALYSIS_VERSION, analyzeQuery, wordAnalyzer, type AnalysisSettings } from "../analysis/analyze.js";
import { crossReferenceSpans } from "../analysis/references.js";
import { grown, type SegmentedPostings } from "../postings.js";
import { entryTokens, leadOf, passageStarts } from "./entry.js";
import { BM25_DEFAULTS, FIELDS, MIN_PREFIX, type Bm25Parameters } from "./parameters.js";
import { View, type QueryGroup } from "./view.js";

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
    const { coordination, coordinationDecay } = parameters;
    const n = groups.length;
    const exponent = n > 1 ? coordination / (n - 1) ** coordinationDecay : 0;
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
