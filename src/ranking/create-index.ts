/**
 * The ranking index: the documented rule (README "How ranking works"), computed from postings
 * built once over a sorted term dictionary, so a prefix is a range and a query touches only the
 * entries that share a token or a prefix with it.
 */
import type { SearchResult } from "../contract/schemas.js";
import { McpSearchError } from "../errors.js";
import { createIntentBoost, type IndexIntentOptions } from "../site/intent.js";
import { normalizeText } from "./normalize.js";
import { lowerBound, PostingsBuilder, type Postings } from "./postings.js";
import { createResolver } from "./resolve.js";
import { createBm25Ranking } from "./bm25.js";

export { normalizeText };

/**
 * One thing that can be found: an id, a title and a public URL. `keywords` and `text` only
 * serve for ranking; they never reach the search result.
 *
 * @example
 * const entry: IndexEntry = {
 *   id: "sidra:6579",
 *   title: "Tabela 6579 — População residente estimada",
 *   url: "https://sidra.ibge.gov.br/tabela/6579",
 *   keywords: ["estimativas de população"],
 * };
 */
export interface IndexEntry {
  readonly id: string;
  readonly title: string;
  readonly url: string;
  readonly keywords?: readonly string[];
  readonly text?: string;
}

/**
 * Options of one search.
 *
 * @example
 * index.search("soja", { limit: 5 } satisfies SearchOptions);
 */
export interface SearchOptions {
  /** The most results to return; `max(0, floor(limit))`. @default 10 */
  readonly limit?: number;
}

/**
 * A built index: its size, a deterministic `search` and a tolerant `resolve`.
 *
 * @example
 * const index: SearchIndex = createIndex(entries);
 * index.search("producao de soja"); // => [{ id, title, url }, …]
 */
export interface SearchIndex {
  readonly size: number;
  search(query: string, options?: SearchOptions): SearchResult[];
  /**
   * The id of the entry a model meant, or `null`: what it hands back to `fetch` is not always
   * the id it was given. Accepted, each with extra whitespace around it: the exact id; the
   * entry's url with or without scheme, `www.`, trailing slash or fragment, its query ignored
   * unless two entries differ only by query; a bare path, with or without its leading slash;
   * the id without its `prefix:` namespace. An exact id wins outright; otherwise the readings
   * must agree on one entry, and anything ambiguous gives `null`. The lookup maps are built
   * on the first call (an index that never resolves pays nothing for them); after that a call
   * costs a few map reads. Fits `resolveId` of
   * `registerDeepResearchTools` as it is.
   *
   * @example
   * const index = createIndex([{ id: "page:/live", title: "Live", url: "https://example.com/live" }]);
   * index.resolve("page:/live");                 // => "page:/live"
   * index.resolve(" http://www.example.com/live/#now "); // => "page:/live"
   * index.resolve("example.com/live?utm=chat");  // => "page:/live"
   * index.resolve("live");                       // => "page:/live" (a bare path)
   * index.resolve("/docs");                      // => null
   */
  resolve(ref: string): string | null;
}

/**
 * Options of {@link createIndex}.
 *
 * @example
 * createIndex(entries, { intent: { now: ["page:/live"] } } satisfies IndexOptions);
 */
export interface IndexOptions {
  /**
   * Boosts entries by query intent: present tense ("right now", "agora") or most recent
   * ("latest", "último"). See {@link IndexIntentOptions} for the rule.
   * @default undefined (the default ranking, whatever the query says)
   */
  readonly intent?: IndexIntentOptions;
  /**
   * How entries are scored. `"rule"`: the documented rule, made for catalogues of short titles
   * (an id hit weighs 10, a title hit 3; no term frequency). `"bm25"`: BM25F over id, title,
   * keywords and text, with term frequency, rarity and length normalisation, plurals folded,
   * word-start prefixes discounted, and a long text's lead and best passage scored too
   * (src/bm25.ts has the formula); for prose documents.
   * @default "rule"
   */
  readonly ranking?: IndexRanking;
}

/**
 * The scorings `createIndex` offers: `"rule"` for catalogues of short titles, `"bm25"` for prose.
 *
 * @example
 * const ranking: IndexRanking = "bm25";
 * createIndex(entries, { ranking });
 */
export type IndexRanking = "rule" | "bm25";

/**
 * How many results `search` returns when `limit` is not given.
 *
 * @example
 * index.search("soja").length <= DEFAULT_LIMIT; // => true
 */
export const DEFAULT_LIMIT = 10;

/** Portuguese function words, then the English ones; never tokens. */
const STOPWORDS: ReadonlySet<string> = new Set(
  ("a o as os um uma uns umas de da do das dos e em no na nos nas ao aos por para com sem que ou " +
    "the of in and for by").split(" "),
);
const NON_ALPHANUMERIC = /[^a-z0-9]+/;

/**
 * Normalises (see `normalizeText`), splits on `[^a-z0-9]+` and keeps each token of 2 or more
 * characters that is not a stopword, once, in first-seen order.
 *
 * @example
 * tokenize("Produção de soja e de milho no Paraná"); // => ["producao", "soja", "milho", "parana"]
 * tokenize("PIB a preços de 2010");                 // => ["pib", "precos", "2010"]
 */
export function tokenize(text: string): string[] {
  const tokens = new Set<string>();
  forEachToken(text, (token) => tokens.add(token));
  return [...tokens];
}

/** Calls `visit` for every token of `text`, repeats included: the build needs no de-duplication. */
function forEachToken(text: string, visit: (token: string) => void): void {
  for (const run of normalizeText(text).split(NON_ALPHANUMERIC)) {
    if (run.length >= 2 && !STOPWORDS.has(run)) visit(run);
  }
}

// Fields as bits of a posting's mask, and their weights.
const ID = 1;
const TITLE = 2;
const KEYWORDS = 4;
const TEXT = 8;
const WEIGHTS: readonly (readonly [number, number])[] = [[ID, 10], [TITLE, 3], [KEYWORDS, 2], [TEXT, 1]];

/**
 * One token's score in half points, by `(exactMask << 4) | prefixMask`: per field, an exact hit
 * is worth 2 × weight, else a prefix hit 1 × weight; plus 20 (10 points) for covering the token.
 */
const TOKEN_SCORE = new Uint8Array(256).map((_, masks) => {
  let half = 20;
  for (const [bit, weight] of WEIGHTS) {
    if ((masks >> 4) & bit) half += 2 * weight;
    else if (masks & bit) half += weight;
  }
  return half;
});
const PHRASE_BONUS = 10;


/** Everything a search reads, built once; `score` and the masks are scratch, zero between calls. */
interface IndexData {
  readonly ids: readonly string[];
  readonly titles: readonly string[];
  readonly urls: readonly string[];
  readonly normalizedTitles: readonly string[];
  readonly postings: Postings;
  readonly score: Float64Array;
  readonly exact: Uint8Array;
  readonly prefix: Uint8Array;
  readonly touched: Int32Array;
  readonly tokenTouched: Int32Array;
}

/**
 * Throws `McpSearchError` naming the entry's index and field: an id, title or url that is not a
 * string, an empty id, `keywords` that is not an array (a string would be read one character at
 * a time), a keyword that is not a string, or a `text` that is not a string.
 */
function checkEntry(entry: IndexEntry, i: number): void {
  for (const field of ["id", "title", "url"] as const) {
    if (typeof entry?.[field] !== "string") throw new McpSearchError(`Index entry ${i} has no string "${field}": every entry needs an id, a title and a url.`);
  }
  if (entry.id === "") throw new McpSearchError(`Index entry ${i} has an empty "id": an id must name one document.`);
  const { keywords, text } = entry as { keywords?: unknown; text?: unknown };
  if (keywords !== undefined) {
    if (!Array.isArray(keywords)) {
      throw new McpSearchError(`Index entry ${i} has "keywords" of type ${describeType(keywords)}: it must be an array of strings.`);
    }
    keywords.forEach((keyword: unknown, k) => {
      if (typeof keyword !== "string") {
        throw new McpSearchError(`Index entry ${i} has "keywords[${k}]" of type ${describeType(keyword)}: every keyword must be a string.`);
      }
    });
  }
  if (text !== undefined && typeof text !== "string") {
    throw new McpSearchError(`Index entry ${i} has "text" of type ${describeType(text)}: it must be a string when given.`);
  }
}

function describeType(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

function buildIndexData(entries: readonly IndexEntry[]): IndexData {
  const seen = new Map<string, number>();
  const builder = new PostingsBuilder();
  const ids: string[] = [], titles: string[] = [], urls: string[] = [];
  entries.forEach((entry, i) => {
    checkEntry(entry, i);
    const first = seen.get(entry.id);
    if (first !== undefined) {
      throw new McpSearchError(`Duplicate id ${JSON.stringify(entry.id)} in the index (entries ${first} and ${i}): an id must resolve to one document.`);
    }
    seen.set(entry.id, i);
    ids.push(entry.id);
    titles.push(entry.title);
    urls.push(entry.url);
    // The id field also counts when the whole normalised id equals the token; such an id
    // tokenises to exactly that token, so its exact posting already says so.
    // The builder keeps one posting per (token, entry), so repeated tokens only OR their field in.
    forEachToken(entry.id, (token) => builder.add(token, i, ID));
    forEachToken(entry.title, (token) => builder.add(token, i, TITLE));
    for (const keyword of entry.keywords ?? []) forEachToken(keyword, (token) => builder.add(token, i, KEYWORDS));
    forEachToken(entry.text ?? "", (token) => builder.add(token, i, TEXT));
  });
  const normalizedTitles = titles.map(normalizeText);
  const size = ids.length;
  return {
    ids, titles, urls, normalizedTitles, postings: builder.finish(),
    score: new Float64Array(size), exact: new Uint8Array(size), prefix: new Uint8Array(size),
    touched: new Int32Array(size), tokenTouched: new Int32Array(size),
  };
}

/** Ors one term's field masks into `flags`, listing newly seen entries. */
function collectTerm(data: IndexData, term: number, flags: Uint8Array, count: number): number {
  const { postings: { start, entry, mask }, exact, prefix, tokenTouched } = data;
  for (let p = start[term]!, end = start[term + 1]!; p < end; p++) {
    const e = entry[p]!;
    if ((exact[e]! | prefix[e]!) === 0) tokenTouched[count++] = e;
    flags[e]! |= mask[p]!;
  }
  return count;
}

/** Adds one query token's half points to every entry it covers; returns the touched count. */
function scoreToken(data: IndexData, token: string, touchedCount: number): number {
  const { postings: { terms }, exact, prefix, score, touched, tokenTouched } = data;
  let term = lowerBound(terms, token);
  let count = terms[term] === token ? collectTerm(data, term++, exact, 0) : 0;
  if (token.length >= 3) {
    for (const end = lowerBound(terms, token + "\uffff"); term < end; term++) count = collectTerm(data, term, prefix, count);
  }
  for (let i = 0; i < count; i++) {
    const e = tokenTouched[i]!;
    if (score[e] === 0) touched[touchedCount++] = e;
    score[e]! += TOKEN_SCORE[(exact[e]! << 4) | prefix[e]!]!;
    exact[e] = prefix[e] = 0;
  }
  return touchedCount;
}

/**
 * Adds the phrase bonus to the entries that already cover a query token and whose normalised
 * title holds the whole normalised query. The bonus never creates a match on its own: an entry
 * that covers no token scored 0 and is not touched, whatever its title holds.
 */
function scorePhrase(data: IndexData, phrase: string, touchedCount: number): void {
  const { normalizedTitles, score, touched } = data;
  for (let i = 0; i < touchedCount; i++) {
    const e = touched[i]!;
    if (normalizedTitles[e]!.includes(phrase)) score[e]! += PHRASE_BONUS;
  }
}

/**
 * The `limit` best touched entries, best first: a min-heap of keys that order by score, then by
 * collection order (`score × size + size − 1 − entry`, exact in a double).
 */
function selectTop(data: IndexData, touchedCount: number, limit: number): SearchResult[] {
  const { score, touched, ids, titles, urls } = data;
  const size = ids.length;
  const heap = new Float64Array(Math.min(limit, touchedCount));
  let length = 0;
  for (let i = 0; i < touchedCount; i++) {
    const e = touched[i]!;
    const key = score[e]! * size + (size - 1 - e);
    if (length < heap.length) {
      let child = length++;
      while (child > 0 && heap[(child - 1) >> 1]! > key) {
        heap[child] = heap[(child - 1) >> 1]!;
        child = (child - 1) >> 1;
      }
      heap[child] = key;
    } else if (key > heap[0]!) {
      let parent = 0;
      for (let child = 1; child < length; parent = child, child = 2 * child + 1) {
        if (child + 1 < length && heap[child + 1]! < heap[child]!) child++;
        if (heap[child]! >= key) break;
        heap[parent] = heap[child]!;
      }
      heap[parent] = key;
    }
  }
  heap.sort().reverse();
  return Array.from(heap, (key) => {
    const e = size - 1 - (key % size);
    return { id: ids[e]!, title: titles[e]!, url: urls[e]! };
  });
}

function searchIndex(data: IndexData, query: string, options?: SearchOptions): SearchResult[] {
  const limit = Math.floor(options?.limit ?? DEFAULT_LIMIT);
  const tokens = tokenize(query);
  if (!(limit > 0) || tokens.length === 0) return [];
  let touchedCount = 0;
  for (const token of tokens) touchedCount = scoreToken(data, token, touchedCount);
  const phrase = normalizeText(query);
  if (phrase.length >= 3) scorePhrase(data, phrase, touchedCount);
  const results = selectTop(data, touchedCount, limit);
  for (let i = 0; i < touchedCount; i++) data.score[data.touched[i]!] = 0;
  return results;
}

/**
 * Builds the index once: tokens, postings and a sorted term dictionary. The entries are copied,
 * so a later change to the caller's array cannot corrupt the index. The build is linear in the
 * characters of the entries, whatever the titles hold. Throws `McpSearchError` naming the entry
 * and the field: an id that appears twice, an id, title or url that is not a string, an empty
 * id, `keywords` that is not an array of strings, or a `text` that is not a string.
 *
 * @example
 * const index = createIndex([
 *   { id: "sidra:6579", title: "Tabela 6579 — População residente estimada", url: "https://sidra.ibge.gov.br/tabela/6579" },
 *   { id: "sidra:1612", title: "Tabela 1612 — Produção agrícola municipal", url: "https://sidra.ibge.gov.br/tabela/1612" },
 * ]);
 * index.size;                     // => 2
 * index.search("populacao")[0]?.id; // => "sidra:6579"
 * index.search("de", { limit: 5 });   // => [] (stopwords only)
 * index.resolve("sidra.ibge.gov.br/tabela/6579/"); // => "sidra:6579"
 */
export function createIndex(entries: readonly IndexEntry[], indexOptions: IndexOptions = {}): SearchIndex {
  const { ranking = "rule" } = indexOptions;
  if (ranking !== "rule" && ranking !== "bm25") throw new McpSearchError(`Unknown ranking ${JSON.stringify(ranking)}: use "rule" or "bm25".`);
  if (ranking === "bm25") return createBm25Index(entries, indexOptions);
  const data = buildIndexData(entries);
  const { intent } = indexOptions;
  const rankAll = (query: string) => searchIndex(data, query, { limit: data.ids.length });
  const boost = intent && createIntentBoost(entries, intent, { defaultLimit: DEFAULT_LIMIT, rankAll, tokenize });
  let resolver: ((ref: string) => string | null) | undefined;
  return {
    size: data.ids.length,
    search: (query, options) => boost?.(query, options) ?? searchIndex(data, query, options),
    resolve: (ref) => (resolver ??= createResolver(data.ids, data.urls))(ref),
  };
}

/** `createIndex` with the BM25F ranking of ./bm25.ts, the same intent boost and resolver. */
function createBm25Index(entries: readonly IndexEntry[], { intent }: IndexOptions): SearchIndex {
  const ranking = createBm25Ranking(entries);
  const size = ranking.ids.length;
  const rankAll = (query: string) => ranking.search(query, size);
  const boost = intent && createIntentBoost(entries, intent, { defaultLimit: DEFAULT_LIMIT, rankAll, tokenize });
  let resolver: ((ref: string) => string | null) | undefined;
  return {
    size,
    search: (query, options) => boost?.(query, options) ?? ranking.search(query, options?.limit ?? DEFAULT_LIMIT),
    resolve: (ref) => (resolver ??= createResolver(ranking.ids, ranking.urls))(ref),
  };
}

/**
 * Ranks a small collection in one call: the same as `createIndex(entries).search(query, options)`.
 *
 * @example
 * rankEntries(
 *   [{ id: "soja", title: "Produção de soja", url: "https://example.org/soja" }],
 *   "Soja",
 * ); // => [{ id: "soja", title: "Produção de soja", url: "https://example.org/soja" }]
 */
export function rankEntries(entries: readonly IndexEntry[], query: string, options?: SearchOptions): SearchResult[] {
  return createIndex(entries).search(query, options);
}
