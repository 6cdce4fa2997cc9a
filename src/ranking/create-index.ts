/**
 * The index API: `createIndex` and `loadIndex`, their options and their checks, and the index
 * they return. The index is a collection of entries (./entries.ts) over one scoring core: the
 * documented rule (./rule/core.ts, the default) or BM25F (./bm25/core.ts), each computed from
 * postings over a sorted term dictionary (./postings.ts), so a prefix is a range and a query
 * touches only the entries that share a token or a prefix with it.
 */
import type { SearchResult } from "../contract/schemas.js";
import { describeReceived } from "../contract/received.js";
import { optionNames, unknownOption, unknownOptionMessage } from "../contract/option-names.js";
import { checkLimit } from "../contract/limit.js";
import { McpSearchError } from "../errors.js";
import { isLanguage, LANGUAGES, type Language } from "../languages/index.js";
import type { Stemmers } from "./analysis/analyze.js";
import type { LanguageDetector } from "./analysis/language.js";
import { createBm25Core } from "./bm25/core.js";
import { BM25_DEFAULTS } from "./bm25/parameters.js";
import { Collection, type QueryMatcher } from "./entries.js";
import { normalizeText } from "./normalize.js";
import { createRuleCore } from "./rule/core.js";
import { readSnapshot, writeSnapshot } from "./snapshot.js";

export { normalizeText };
export type { QueryMatcher, TextMatch } from "./entries.js";

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
  /** What `fetch` is called with, unique in the index; it weighs most (10) when a query token equals it or a token of it. */
  readonly id: string;
  /** The title a search result shows; its tokens weigh 3, and holding the query as a phrase adds 5. */
  readonly title: string;
  /** The public address a result carries, for the model to cite; `resolve` accepts it for the id. */
  readonly url: string;
  /** Words a reader would search for that the title lacks (synonyms, codes, headings); they weigh 2. @default [] */
  readonly keywords?: readonly string[];
  /** The body, for ranking only (it weighs 1, and BM25 counts its repeats); never returned by `search`. @default "" */
  readonly text?: string;
}

/**
 * Options of one search.
 *
 * @example
 * index.search("soja", { limit: 5 } satisfies SearchOptions);
 */
export interface SearchOptions {
  /**
   * The most results to return: a whole number, 0 or more; 0 returns none (`searchWithTotal`
   * then gives the count alone). Any other value (a fraction, a negative number, `NaN`) throws
   * `McpSearchError`, as every `limit` of the library does.
   * @default 10 (DEFAULT_LIMIT)
   */
  readonly limit?: number;
  /**
   * BM25 only (the rule ranking ignores it): the words a query word stands for besides itself,
   * such as a vocabulary's expansions (`expand: vocabulary.expandTerm`). Called with each folded
   * query word; the word and those of its expansions that are one word are one concept: an entry
   * holding any of them holds the concept, and the coordination counts the query's concepts, not
   * its words, so a document holding "café" and "sour" covers "café azedo" when "azedo" expands
   * to "sour".
   * @default undefined (each query word is its own concept)
   */
  readonly expand?: ((word: string) => readonly string[]) | undefined;
}

/**
 * An index: its size, a deterministic `search`, a tolerant `resolve`, and updates one entry at a
 * time. After any sequence of `add`, `remove` and `replace`, `search` returns exactly what
 * `createIndex` over the current entries returns, in their tie order: insertion order, a
 * replaced entry keeping the place of the one it replaced.
 *
 * @example
 * const index: SearchIndex = createIndex(entries);
 * index.search("producao de soja"); // => [{ id, title, url }, …]
 */
export interface SearchIndex {
  /**
   * How many entries the index holds now.
   *
   * @example
   * createIndex([{ id: "a", title: "Soja", url: "https://x.org/a" }]).size; // => 1
   */
  readonly size: number;
  /**
   * The entries that match `query`, best first, at most `limit` (10 by default, see
   * {@link SearchOptions}), as the
   * `{ id, title, url }` the search tool returns. Deterministic: the same entries and query give
   * the same list, ties in the index's order. An empty query, or one of stopwords only, gives `[]`.
   *
   * @example
   * const index = createIndex([
   *   { id: "cnae:0115600", title: "Cultivo de soja", url: "https://concla.ibge.gov.br/0115600" },
   *   { id: "cnae:0111301", title: "Cultivo de arroz", url: "https://concla.ibge.gov.br/0111301" },
   * ]);
   * index.search("soja");             // => [{ id: "cnae:0115600", title: "Cultivo de soja", url: "https://concla.ibge.gov.br/0115600" }]
   * index.search("cultivo", { limit: 1 }).map((hit) => hit.id); // => ["cnae:0115600"] (a tie: the first added)
   */
  search(query: string, options?: SearchOptions): SearchResult[];
  /**
   * The same results as {@link SearchIndex.search}, and how many entries matched in all: a
   * summary such as "10 of 57 matched" needs no search with `limit` set to the index's size.
   * The total costs nothing more than the search: every match is scored anyway, and only the top
   * `limit` are sorted. `limit: 0` gives the count alone.
   *
   * @example
   * const index = createIndex([
   *   { id: "a", title: "Cultivo de soja", url: "https://x.org/a" },
   *   { id: "b", title: "Cultivo de arroz", url: "https://x.org/b" },
   * ]);
   * index.searchWithTotal("cultivo", { limit: 1 }); // => { results: [{ id: "a", title: "Cultivo de soja", url: "https://x.org/a" }], total: 2 }
   */
  searchWithTotal(query: string, options?: SearchOptions): { results: SearchResult[]; total: number };
  /**
   * The same results and total as {@link SearchIndex.searchWithTotal}, and the query as this
   * search analysed it: a {@link QueryMatcher} that finds where the query matched in a result's
   * text, so that a snippet shows the words that ranked (a stemmed "runs" for "running"). The
   * query is analysed once, for both.
   *
   * @example
   * const index = createIndex([{ id: "a", title: "Diary", url: "https://x.org/a", text: "She runs every day." }], { ranking: "bm25" });
   * const { results, total, matcher } = index.searchWithMatcher("run");
   * total;                                              // => 1
   * matcher.findMatches("She runs every day.", results[0]?.id); // => [{ start: 4, end: 8, term: 0 }]
   */
  searchWithMatcher(query: string, options?: SearchOptions): { results: SearchResult[]; total: number; matcher: QueryMatcher };
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
  /**
   * Adds one entry, after every entry already there in the tie order. Costs the entry's tokens
   * (amortised: postings are compacted now and then, see docs). Throws `McpSearchError` when the
   * id is already in the index, or for a malformed entry (the checks of {@link createIndex}).
   *
   * @example
   * const index = createIndex([]);
   * index.add({ id: "a", title: "Zip files", url: "https://x.org/a" });
   * index.search("zip")[0]?.id; // => "a"
   */
  add(entry: IndexEntry): void;
  /**
   * Removes the entry with this id. Throws `McpSearchError` when no entry has it.
   *
   * @example
   * index.remove("a");
   * index.search("zip"); // => []
   */
  remove(id: string): void;
  /**
   * Replaces the entry that has `entry.id` by `entry`, keeping its place in the tie order.
   * Throws `McpSearchError` when no entry has the id.
   *
   * @example
   * index.replace({ id: "a", title: "Tar archives", url: "https://x.org/a" });
   * index.search("tar")[0]?.id; // => "a"
   */
  replace(entry: IndexEntry): void;
  /**
   * The whole index as bytes, for {@link loadIndex} to rebuild it in another process without
   * tokenising anything: entries, postings and statistics, compacted first. Versioned and
   * checksummed; about 2 bytes per (word, entry) pair, and for BM25 per (word, passage) pair.
   * The index keeps working as before; a later update does not change the bytes returned.
   *
   * @example
   * const bytes = index.snapshot();        // a Uint8Array: write it to a file
   * loadIndex(bytes).search("zip");        // => the same results as index.search("zip")
   */
  snapshot(): Uint8Array;
  /**
   * Merges the entries added since the last compaction into the main postings and drops the
   * postings of removed and replaced entries. Results never depend on it: updates compact on their
   * own once the pending part grows as large as the rest. Call it after a bulk of updates (a first
   * indexing one entry at a time, a large sync) to make the index smaller and its searches faster
   * at once. Costs time linear in the index; does nothing when it is already compact.
   *
   * @example
   * const index = createIndex([]);
   * for (const entry of entries) index.add(entry);
   * index.compact();
   */
  compact(): void;
  /**
   * Does one bounded slice of a compaction: merges about a 128th of the postings (at least
   * 64 KiB of them, half a millisecond or so), then returns: true when the index is compact,
   * false when more slices are needed. Searches and updates may run between slices and see the
   * same results as ever. A server calls it in short turns after a large indexing, so that no
   * request waits behind a whole compaction; updates take such slices on their own too.
   *
   * @example
   * const index = createIndex([]);
   * for (const entry of entries) index.add(entry);
   * const slice = () => {
   *   if (!index.compactStep()) setImmediate(slice); // requests run between slices
   * };
   * slice();
   */
  compactStep(): boolean;
  /**
   * True when an entry has this id.
   *
   * @example
   * createIndex([{ id: "a", title: "A", url: "https://x.org/a" }]).has("a"); // => true
   */
  has(id: string): boolean;
}

/**
 * Options of {@link createIndex}.
 *
 * @example
 * createIndex(entries, { ranking: "bm25" } satisfies IndexOptions);
 */
export interface IndexOptions {
  /**
   * How entries are scored. `"rule"`: the documented rule, made for catalogues of short titles
   * (an id hit weighs 10, a title hit 3; no term frequency). `"bm25"`: BM25F over id, title,
   * keywords and text, with term frequency, rarity and length normalisation, plurals folded,
   * word-start prefixes discounted, and a long text's lead and best passage scored too
   * (src/ranking/bm25/core.ts has the formula); for prose documents.
   * @default "rule"
   */
  readonly ranking?: IndexRanking;
  /**
   * BM25 only: the language of the entries, for stopwords and plural folding. `"auto"` detects
   * each entry's language from its title and text (among `LANGUAGES`), and uses
   * `fallbackLanguage` when unsure. A query is analysed in every language the index holds, so it
   * meets entries in each. Words of every script are indexed whatever the language (see
   * docs/performance.md, "Languages"). A language code, `"pt"`, not a locale such as `"pt-BR"`:
   * a locale (`registerDeepResearchTools`' and `createVocabulary`'s `locale`) is the language of
   * the text the library writes; this is the language of the entries, whatever the locale.
   * @default "auto"
   */
  readonly language?: Language | "auto";
  /** BM25 only: the language of an entry whose language `"auto"` cannot tell. @default "en" */
  readonly fallbackLanguage?: Language;
  /**
   * BM25 only: stemmers to run after the plural folding of some languages. The folder server
   * passes Snowball's, from `@orama/stemmers`, which the relevance bench measured ahead of the
   * plural folding alone in all three languages; pass the same to rank as it does. A snapshot
   * records their `name`, and {@link loadIndex} needs stemmers of that name back.
   * @default undefined (each language's plural folding)
   */
  readonly stemmers?: Stemmers | undefined;
  /**
   * BM25 only: the language detector `"auto"` asks when the library's own markers cannot tell;
   * its answer counts when it names one of `LANGUAGES`. The folder server passes eld's. A
   * snapshot records its `name`, and {@link loadIndex} needs a detector of that name back.
   * @default undefined (the markers alone)
   */
  readonly detector?: LanguageDetector | undefined;
}

/**
 * Options of {@link loadIndex}.
 *
 * @example
 * loadIndex(bytes, { stemmers } satisfies LoadIndexOptions);
 */
export interface LoadIndexOptions {
  /** The stemmers the index was built with, when it was built with some. @default undefined */
  readonly stemmers?: Stemmers | undefined;
  /** The language detector the index was built with, when it was built with one. @default undefined */
  readonly detector?: LanguageDetector | undefined;
}

/**
 * Every option of {@link createIndex}; the compiler keeps it equal to the type's fields.
 * `loadIndex` does not check its own: the folder server hands it createIndex's options, whose
 * languages the snapshot already records.
 */
const INDEX_OPTION_NAMES = optionNames<IndexOptions>()(["ranking", "language", "fallbackLanguage", "stemmers", "detector"]);

/**
 * Throws `McpSearchError` naming an option `caller` does not know, and the closest it does:
 * plain JavaScript would otherwise ignore a misspelt one.
 */
function checkOptionNames(caller: string, options: unknown, known: readonly string[]): void {
  if (typeof options !== "object" || options === null) throw new McpSearchError(`${caller}: the options must be an object, not ${describeReceived(options)}.`);
  const unknown = unknownOption(options, known);
  if (unknown !== undefined) throw new McpSearchError(`${caller}: ${unknownOptionMessage(unknown, known)}`);
}

/** Throws `McpSearchError` unless `detector` is undefined or a name and a `detect` function. */
function checkDetector(detector: unknown): void {
  if (detector === undefined) return;
  // Anything but an object (null, a string…) has neither a string name nor a detect function.
  const { name, detect } = (typeof detector === "object" ? (detector ?? {}) : {}) as { name?: unknown; detect?: unknown };
  if (typeof name !== "string" || name === "" || typeof detect !== "function") {
    throw new McpSearchError(`The option detector needs a non-empty string "name" and a function "detect" from a text to a language code, not ${describeReceived(detector)}.`);
  }
}

/** Throws `McpSearchError` unless `stemmers` is undefined or a name and functions. */
function checkStemmers(stemmers: unknown): void {
  if (stemmers === undefined) return;
  // Anything but an object (null, a string…) has no string name.
  const { name } = (typeof stemmers === "object" ? (stemmers ?? {}) : {}) as { name?: unknown };
  if (typeof name !== "string" || name === "") {
    throw new McpSearchError(`The option stemmers needs a non-empty string "name" and a function per language (${quoted(LANGUAGES)}), not ${describeReceived(stemmers)}.`);
  }
  for (const language of LANGUAGES) {
    const stem = (stemmers as Record<string, unknown>)[language];
    if (stem !== undefined && typeof stem !== "function") throw new McpSearchError(`The option stemmers has "${language}" of type ${describeReceived(stem)}: it must be a function from a word to its stem.`);
  }
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
  checkOptionNames("createIndex", indexOptions, INDEX_OPTION_NAMES);
  const { ranking = "rule", language = "auto", fallbackLanguage = "en", stemmers, detector } = indexOptions;
  if (ranking !== "rule" && ranking !== "bm25") throw new McpSearchError(`Unknown ranking ${JSON.stringify(ranking)}: use "rule" or "bm25".`);
  if (language !== "auto" && !isLanguage(language)) {
    throw new McpSearchError(`Unknown language ${JSON.stringify(language)}: use "auto", ${quoted(LANGUAGES)}.${localeHint(language)}`);
  }
  if (!isLanguage(fallbackLanguage)) {
    throw new McpSearchError(`Unknown fallbackLanguage ${JSON.stringify(fallbackLanguage)}: use ${quoted(LANGUAGES)}.${localeHint(fallbackLanguage)}`);
  }
  if (ranking === "rule" && (indexOptions.language !== undefined || indexOptions.fallbackLanguage !== undefined || stemmers !== undefined || detector !== undefined)) {
    throw new McpSearchError(`The options language, fallbackLanguage, stemmers and detector apply to ranking "bm25" only: the rule ranking reads every language alike.`);
  }
  checkStemmers(stemmers);
  checkDetector(detector);
  const collection = openCollection(ranking, { language, fallback: fallbackLanguage, stemmers, detector });
  collection.addAll(entries);
  return indexOver(collection, ranking);
}

/**
 * For a locale given where a language is asked ("pt-BR" for "pt"): the sentence that tells the
 * two apart. A locale (`registerDeepResearchTools`, `createVocabulary`) is the language of the
 * text the library writes; a language is the language of the entries.
 */
function localeHint(value: unknown): string {
  const language = typeof value === "string" ? /^([a-z]{2})[-_]/i.exec(value)?.[1]?.toLowerCase() : undefined;
  if (!isLanguage(language)) return "";
  return ` ${JSON.stringify(value)} is a locale, the language of the text a server writes; the language of the entries is "${language}".`;
}

/** A new, empty collection of `ranking`, with BM25's languages. */
function openCollection(ranking: IndexRanking, languages: { language: Language | "auto"; fallback: Language; stemmers: Stemmers | undefined; detector: LanguageDetector | undefined }): Collection {
  if (ranking === "rule") return new Collection(createRuleCore());
  return new Collection(createBm25Core({ ...BM25_DEFAULTS, analysis: { ...BM25_DEFAULTS.analysis, ...languages } }));
}

/** The languages a BM25 snapshot's settings name, or the defaults when they name none that is known. */
function languagesOf(settings: string): { language: Language | "auto"; fallback: Language } {
  try {
    const { language, fallback } = (JSON.parse(settings) as { analysis?: { language?: unknown; fallback?: unknown } }).analysis ?? {};
    if ((language === "auto" || isLanguage(language)) && isLanguage(fallback)) return { language, fallback };
  } catch {
    // Not JSON: the settings check refuses it.
  }
  return { language: "auto", fallback: "en" };
}

/** The public face of a collection. */
function indexOver(collection: Collection, ranking: IndexRanking): SearchIndex {
  return {
    get size() {
      return collection.size;
    },
    search: (query, options) => collection.searchWithTotal(query, limitOf(options, "search"), options?.expand).results,
    searchWithTotal: (query, options) => collection.searchWithTotal(query, limitOf(options, "searchWithTotal"), options?.expand),
    searchWithMatcher: (query, options) => collection.searchWithMatcher(query, limitOf(options, "searchWithMatcher"), options?.expand),
    resolve: (ref) => collection.resolve(ref),
    add: (entry) => collection.add(entry),
    remove: (id) => collection.remove(id),
    replace: (entry) => collection.replace(entry),
    has: (id) => collection.has(id),
    compact: () => collection.compact(),
    compactStep: () => collection.compactStep(),
    snapshot: () => writeSnapshot(collection, ranking, collection.settings()),
  };
}

/**
 * Rebuilds an index from the bytes of `index.snapshot()`: the same entries, ranking, tie order
 * and results, without tokenising anything, in time linear in the bytes. Nothing in them is
 * trusted: throws `McpSearchError` naming what is wrong when they are not a snapshot, were made
 * by a version of the library with another snapshot format or other ranking settings (stemmers
 * of another name, or none where the index had some, included), fail their
 * checksum, or do not hold together (a term out of order, a posting past the last entry, a
 * duplicate id…). The caller then builds the index from its entries again.
 *
 * @example
 * const index = createIndex([{ id: "a", title: "Zip files", url: "https://x.org/a" }], { ranking: "bm25" });
 * const copy = loadIndex(index.snapshot());
 * copy.search("zip")[0]?.id; // => "a"
 * loadIndex(new Uint8Array(8)); // throws McpSearchError: These bytes are not an index snapshot …
 */
export function loadIndex(snapshot: Uint8Array, options: LoadIndexOptions = {}): SearchIndex {
  const { stemmers, detector } = options;
  checkStemmers(stemmers);
  checkDetector(detector);
  const { collection, ranking } = readSnapshot(snapshot, (name, settings) => (name === "rule" || name === "bm25" ? openCollection(name, { ...languagesOf(settings), stemmers, detector }) : undefined));
  return indexOver(collection, ranking as IndexRanking);
}

/** The checked `limit` of a search's options (see `checkLimit`). */
function limitOf(options: SearchOptions | undefined, method: string): number {
  return checkLimit(options?.limit, `SearchIndex.${method}`);
}

/** `"a", "b", "c"`. */
function quoted(values: readonly string[]): string {
  return values.map((value) => JSON.stringify(value)).join(", ");
}
