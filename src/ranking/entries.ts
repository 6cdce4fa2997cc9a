/**
 * Private helper of the rankings: the collection side of an index that both rankings share.
 * It checks entries (with the messages users see), keeps each entry's id, title, url and place in
 * the tie order in numbered slots, and turns `add`, `remove` and `replace` into slot operations on
 * a {@link RankingCore}, which holds the postings and the scoring.
 *
 * Tie order: every entry gets a place when it is added, after every entry already there; a
 * replaced entry keeps the place of the one it replaces. A fresh build gives the entries their
 * array order, so after any sequence of updates the index ranks as a fresh build over the
 * current entries in that order.
 */
import type { SearchResult } from "../contract/schemas.js";
import { describeReceived } from "../contract/received.js";
import { McpSearchError } from "../errors.js";
import type { ByteReader, ByteWriter } from "./bytes.js";
import type { SegmentedPostings } from "./postings.js";
import { createResolver } from "./resolve.js";

/** The shape both rankings read (the public `IndexEntry` of create-index.ts). */
export interface RankedEntry {
  readonly id: string;
  readonly title: string;
  readonly url: string;
  readonly keywords?: readonly string[];
  readonly text?: string;
}

/**
 * Throws `McpSearchError` naming the entry (`label`, e.g. "Index entry 3") and the field: an id,
 * title or url that is not a string, an empty id, `keywords` that is not an array (a string would
 * be read one character at a time), a keyword that is not a string, or a `text` that is not a
 * string.
 */
export function checkEntry(entry: RankedEntry, label: string): void {
  for (const field of ["id", "title", "url"] as const) {
    if (typeof entry?.[field] !== "string") throw new McpSearchError(`${label} has no string "${field}": every entry needs an id, a title and a url.`);
  }
  if (entry.id === "") throw new McpSearchError(`${label} has an empty "id": an id must name one document.`);
  const { keywords, text } = entry as { keywords?: unknown; text?: unknown };
  if (keywords !== undefined) {
    if (!Array.isArray(keywords)) {
      throw new McpSearchError(`${label} has "keywords" of type ${describeReceived(keywords)}: it must be an array of strings.`);
    }
    keywords.forEach((keyword: unknown, k) => {
      if (typeof keyword !== "string") {
        throw new McpSearchError(`${label} has "keywords[${k}]" of type ${describeReceived(keyword)}: every keyword must be a string.`);
      }
    });
  }
  if (text !== undefined && typeof text !== "string") {
    throw new McpSearchError(`${label} has "text" of type ${describeReceived(text)}: it must be a string when given.`);
  }
}

/**
 * One place where a query's term occurs in a text: `text.slice(start, end)` is the word (or, in
 * a script written without spaces, the run of words) that holds it, and `term` the term's place
 * in {@link QueryMatcher.terms}.
 *
 * @example
 * const match: TextMatch = { start: 120, end: 124, term: 0 }; // "runs", for the query "running"
 */
export interface TextMatch {
  /** Where the word starts in the text, in UTF-16 code units. */
  readonly start: number;
  /** Where it ends (exclusive). */
  readonly end: number;
  /** Which query term it matched: its place in `terms`. */
  readonly term: number;
}

/**
 * A query as one search analysed it, to find where it matched in a text with the very analysis
 * the ranking used: the rule's tokens and word starts, or BM25's language, stopwords, plural
 * folding, stemmers and prefixes. A snippet built from it centres on the words that ranked.
 *
 * @example
 * const { matcher } = index.searchWithMatcher("running shoes");
 * matcher.terms;                         // => [["run"], ["shoe"]] (an English stemmer)
 * matcher.findMatches("She runs daily"); // => [{ start: 4, end: 8, term: 0 }]
 */
export interface QueryMatcher {
  /** The query's terms, in query order: for each, the forms the ranking searched for it. */
  readonly terms: readonly (readonly string[])[];
  /**
   * Where the terms occur in `text`, in text order, at most 20,000: each word of the text read
   * as the ranking reads an entry's words. With `id`, in that entry's language (BM25 detects one
   * per entry); without it, or for an id the index does not hold, in every language of the query.
   * Costs one pass over the text.
   *
   * @example
   * matcher.findMatches(document.text, "doc:guide.md"); // => [{ start: 4, end: 8, term: 0 }, …]
   */
  findMatches(text: string, id?: string): TextMatch[];
}

/** A query as a ranking analysed it, once per search: its terms, and whatever else its scoring reads. */
/** The words one query word stands for besides itself (`SearchOptions.expand`). */
export type Expand = (word: string) => readonly string[];

export interface AnalyzedQuery {
  readonly terms: readonly (readonly string[])[];
}

/** What a ranking keeps per slot and how it scores; the collection calls it. */
export interface RankingCore {
  readonly postings: SegmentedPostings;
  /** Indexes `entry` in `slot`, just opened. */
  index(entry: RankedEntry, slot: number): void;
  /** Forgets what `slot` added to the collection statistics; its postings die with the slot. */
  unindex(slot: number): void;
  /** Moves per-slot data after a compaction (`remap[old]` is the new slot or -1). */
  remap(remap: Int32Array, live: number): void;
  /**
   * One slice of a compaction of every postings the core keeps (see
   * `SegmentedPostings.stepCompaction`); true when all of them are ready to commit.
   */
  stepCompaction(): boolean;
  /** The query as this ranking reads it, once per search (the postings are prepared); `expand` as `SearchOptions.expand`. */
  analyze(query: string, expand?: Expand): AnalyzedQuery;
  /**
   * Scores the live slots for a query it analysed: the `limit` best, best first, ties by `order`
   * (lower first), and how many slots matched in all.
   */
  search(query: AnalyzedQuery, limit: number, order: Float64Array, size: number): { slots: number[]; total: number };
  /** Where the analysed query occurs in `text`, read as the entry in `slot` was, or in every language of the query. */
  findMatches(query: AnalyzedQuery, text: string, slot: number | undefined): TextMatch[];
  /** What its scores depend on besides the entries (parameters, word lists), as one string. */
  settings(): string;
  /** Writes what it keeps, compact (the collection compacted it just before). */
  save(writer: ByteWriter): void;
  /**
   * Reads what {@link save} wrote for the collection's `titles`, one per slot, checking that it
   * fits them; throws an `Error` saying what does not.
   */
  load(reader: ByteReader, titles: readonly string[]): void;
}

/** The entry-level operations of an index, checked; see the module comment for the tie order. */
export class Collection {
  ids: string[] = [];
  titles: string[] = [];
  urls: string[] = [];
  order: Float64Array = new Float64Array(0);
  private readonly slotOf = new Map<string, number>();
  private nextPlace = 0;
  private resolver: ((ref: string) => string | null) | undefined;

  constructor(private readonly core: RankingCore) {}

  get size(): number {
    return this.slotOf.size;
  }

  /** Indexes entries in array order (a fresh build), then compacts once. */
  addAll(entries: readonly RankedEntry[]): void {
    const first = new Map<string, number>();
    entries.forEach((entry, i) => {
      checkEntry(entry, `Index entry ${i}`);
      const seen = first.get(entry.id);
      if (seen !== undefined) {
        throw new McpSearchError(`Duplicate id ${JSON.stringify(entry.id)} in the index (entries ${seen} and ${i}): an id must resolve to one document.`);
      }
      first.set(entry.id, i);
    });
    for (const entry of entries) this.place(entry, this.nextPlace++);
    this.compact();
  }

  add(entry: RankedEntry): void {
    checkEntry(entry, "The added entry");
    if (this.slotOf.has(entry.id)) {
      throw new McpSearchError(`Duplicate id ${JSON.stringify(entry.id)}: the index already holds it; use replace to change it.`);
    }
    this.place(entry, this.nextPlace++);
    this.settle();
  }

  remove(id: string): void {
    const slot = typeof id === "string" ? this.slotOf.get(id) : undefined;
    if (slot === undefined) throw new McpSearchError(`Cannot remove ${JSON.stringify(id)}: no entry has this id.`);
    this.drop(slot);
    this.settle();
  }

  replace(entry: RankedEntry): void {
    checkEntry(entry, "The replacing entry");
    const slot = this.slotOf.get(entry.id);
    if (slot === undefined) throw new McpSearchError(`Cannot replace ${JSON.stringify(entry.id)}: no entry has this id; use add.`);
    const place = this.order[slot] as number;
    this.drop(slot);
    this.place(entry, place);
    this.settle();
  }

  has(id: string): boolean {
    return this.slotOf.has(id);
  }

  search(query: string, limit: number, expand?: Expand): SearchResult[] {
    return this.searchWithTotal(query, limit, expand).results;
  }

  /** The `limit` best results (a checked limit) and how many entries matched in all (the total needs no larger limit). */
  searchWithTotal(query: string, limit: number, expand?: Expand): { results: SearchResult[]; total: number } {
    if (this.slotOf.size === 0) return { results: [], total: 0 };
    this.core.postings.prepare();
    return this.searchAnalyzed(this.core.analyze(query, expand), limit);
  }

  /** {@link searchWithTotal}, and a matcher of the query as this search analysed it. */
  searchWithMatcher(query: string, limit: number, expand?: Expand): { results: SearchResult[]; total: number; matcher: QueryMatcher } {
    this.core.postings.prepare();
    const analyzed = this.core.analyze(query, expand);
    const { results, total } = this.slotOf.size === 0 ? { results: [], total: 0 } : this.searchAnalyzed(analyzed, limit);
    const { core, slotOf } = this;
    const matcher: QueryMatcher = {
      terms: analyzed.terms,
      findMatches: (text, id) => core.findMatches(analyzed, text, id === undefined ? undefined : slotOf.get(id)),
    };
    return { results, total, matcher };
  }

  private searchAnalyzed(query: AnalyzedQuery, limit: number): { results: SearchResult[]; total: number } {
    // A limit of 0 still counts: the total is what selecting the top never needed to see whole.
    const { slots, total } = this.core.search(query, limit, this.order, this.slotOf.size);
    const results = slots.map((slot) => ({
      id: this.ids[slot] as string,
      title: this.titles[slot] as string,
      url: this.urls[slot] as string,
    }));
    return { results, total };
  }

  resolve(ref: string): string | null {
    if (this.resolver === undefined) {
      const ids: string[] = [];
      const urls: string[] = [];
      for (const slot of this.slotOf.values()) {
        ids.push(this.ids[slot] as string);
        urls.push(this.urls[slot] as string);
      }
      this.resolver = createResolver(ids, urls);
    }
    return this.resolver(ref);
  }

  /** What the core's scores depend on: see {@link RankingCore.settings}. */
  settings(): string {
    return this.core.settings();
  }

  /**
   * Writes the entries (ids, titles, urls, places) and the core, after a compaction when the
   * postings are not compact, so that slots are numbered 0…size-1.
   */
  save(writer: ByteWriter): void {
    this.compact();
    const size = this.core.postings.slots;
    writer.strings(this.ids.slice(0, size));
    writer.strings(this.titles.slice(0, size));
    writer.strings(this.urls.slice(0, size));
    writer.float64Array(this.order, size);
    writer.varint(this.nextPlace);
    this.core.save(writer);
  }

  /**
   * Reads what {@link save} wrote into this empty collection, checking it: as many titles, urls
   * and places as ids, ids unique and not empty, places distinct whole numbers below the next
   * place. Throws an `Error` saying what is wrong.
   */
  load(reader: ByteReader): void {
    const ids = reader.strings();
    const titles = reader.strings();
    const urls = reader.strings();
    const order = reader.float64Array();
    const nextPlace = reader.varint();
    const size = ids.length;
    if (titles.length !== size || urls.length !== size || order.length !== size) throw new Error("its entries' fields differ in number");
    const slotOf = new Map<string, number>();
    const places = new Set<number>();
    ids.forEach((id, slot) => {
      if (id === "") throw new Error("an entry has an empty id");
      if (slotOf.has(id)) throw new Error(`the id ${JSON.stringify(id)} appears twice`);
      slotOf.set(id, slot);
      const place = order[slot] as number;
      if (!Number.isInteger(place) || place < 0 || place >= nextPlace || places.has(place)) throw new Error("an entry's place in the tie order is out of range or taken twice");
      places.add(place);
    });
    this.core.load(reader, titles);
    if (this.core.postings.slots !== size) throw new Error("its postings cover another number of entries");
    this.ids = ids;
    this.titles = titles;
    this.urls = urls;
    this.order = order;
    this.nextPlace = nextPlace;
    this.slotOf.clear();
    for (const [id, slot] of slotOf) this.slotOf.set(id, slot);
    this.resolver = undefined;
  }

  private place(entry: RankedEntry, place: number): void {
    const slot = this.core.postings.open();
    if (slot >= this.order.length) {
      const order = new Float64Array(Math.max(16, 2 * slot + 2));
      order.set(this.order);
      this.order = order;
    }
    this.ids[slot] = entry.id;
    this.titles[slot] = entry.title;
    this.urls[slot] = entry.url;
    this.order[slot] = place;
    this.slotOf.set(entry.id, slot);
    this.core.index(entry, slot);
    this.resolver = undefined;
  }

  private drop(slot: number): void {
    this.core.unindex(slot);
    this.core.postings.remove(slot);
    this.slotOf.delete(this.ids[slot] as string);
    this.resolver = undefined;
  }

  /**
   * After an update: one slice of the compaction under way, or of a new one when the delta and
   * the dead postings have grown as large as the base. A job takes at most 128 slices per
   * postings, so it ends long before the delta doubles again, and no update pays for a whole one.
   */
  private settle(): void {
    const { postings } = this.core;
    if (postings.compacting || postings.wantsCompaction()) this.compactStep();
  }

  /** One slice of compaction (see `SearchIndex.compactStep`); true when the index is compact. */
  compactStep(): boolean {
    const { postings } = this.core;
    if (!postings.compacting && postings.isCompact()) return true;
    if (!this.core.stepCompaction()) return false;
    this.commit();
    return !postings.compacting && postings.isCompact();
  }

  /** Merges the delta and drops dead postings at once (see `SearchIndex.compact`); nothing to do when compact. */
  compact(): void {
    // A commit of a sliced compaction can leave the slots removed meanwhile dead: one more pass.
    while (this.core.postings.compacting || !this.core.postings.isCompact()) this.commit();
  }

  /** Commits the compaction of every postings (running what is left of it) and moves the per-slot data. */
  private commit(): void {
    const remap = this.core.postings.compact();
    const { slots: live, alive } = this.core.postings;
    for (let slot = 0; slot < remap.length; slot++) {
      const to = remap[slot] as number;
      if (to < 0 || to === slot) continue;
      this.ids[to] = this.ids[slot] as string;
      this.titles[to] = this.titles[slot] as string;
      this.urls[to] = this.urls[slot] as string;
      this.order[to] = this.order[slot] as number;
    }
    this.ids.length = this.titles.length = this.urls.length = live;
    // A slot removed during a sliced compaction keeps a number, dead: its id may be live elsewhere.
    for (let slot = 0; slot < live; slot++) if (alive[slot] === 1) this.slotOf.set(this.ids[slot] as string, slot);
    this.core.remap(remap, live);
  }
}

/** True when entry a ranks before entry b: higher score, then earlier place. */
function before(score: Float64Array, order: Float64Array, a: number, b: number): boolean {
  return score[a]! > score[b]! || (score[a] === score[b] && order[a]! < order[b]!);
}

/** The `limit` best of the touched slots, best first: a heap whose root is the worst kept. */
export function selectTop(score: Float64Array, order: Float64Array, touched: Int32Array, count: number, limit: number): number[] {
  const heap: number[] = [];
  const worse = (a: number, b: number) => before(score, order, b, a);
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
    } else if (before(score, order, e, heap[0]!)) {
      let parent = 0;
      for (let child = 1; child < heap.length; parent = child, child = 2 * child + 1) {
        if (child + 1 < heap.length && worse(heap[child + 1]!, heap[child]!)) child++;
        if (!worse(heap[child]!, e)) break;
        heap[parent] = heap[child]!;
      }
      heap[parent] = e;
    }
  }
  return heap.sort((a, b) => (before(score, order, a, b) ? -1 : 1));
}
