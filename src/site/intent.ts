/**
 * The intent wrapper of an index ({@link createIntentIndex}): "where is X right now" and "latest X" differ by exactly the
 * words a keyword scorer drops, so the index can read them and put the entries that answer the
 * present tense (a live page) or the most recent past (the newest finished records) first.
 *
 * The rule, when an intent's words appear in the query (whole words, after normalisation):
 * - the intent's entries that the query matches come first, then every other match in the
 *   default order; `now` entries keep their score order among themselves, `latest` entries go
 *   newest first;
 * - a query made of intent words only ("right now", "agora", "latest") matches every entry of
 *   the intent, in its own order, followed by whatever the words themselves matched;
 * - when both intents fire, the `now` group goes before the `latest` group.
 * Without the option, or with no intent word in the query, the ranking is the default one.
 */
import type { SearchResult } from "../contract/schemas.js";
import { McpSearchError } from "../errors.js";
import { normalizeText } from "../ranking/normalize.js";
import { LOCALES, localeTexts, type Locale } from "../locales/index.js";
import { checkLimit } from "../contract/limit.js";
import { tokenize } from "../ranking/rule/definition.js";
import { createIndex, type IndexEntry, type IndexOptions, type SearchIndex, type SearchOptions } from "../ranking/create-index.js";

/**
 * The two lists of one locale: words (or phrases) of the present tense, and of the most recent
 * past. "yesterday" is in `latest` on purpose: it is a finished day, "now" is a moment.
 *
 * @example
 * const words: IntentWords = { now: ["now", "live"], latest: ["latest", "yesterday"] };
 */
export interface IntentWords {
  /** Words or phrases of the present tense ("now", "right now", "agora"). */
  readonly now: readonly string[];
  /** Words or phrases of the most recent past ("latest", "yesterday", "último"). */
  readonly latest: readonly string[];
}

/**
 * The intent words per locale, readable by servers (to extend them, or to build their own
 * ranking). Matched on whole words after normalisation, so accents and case never count. Each
 * language's lists live in its locale file (src/locales/).
 *
 * @example
 * INTENT_WORDS.en.now.includes("right now");      // => true
 * INTENT_WORDS["pt-BR"].latest.includes("ontem"); // => true
 */
export const INTENT_WORDS: Readonly<Record<Locale, IntentWords>> = Object.fromEntries(
  LOCALES.map((locale) => [locale, localeTexts(locale).intent]),
) as Record<Locale, IntentWords>;

/**
 * What {@link detectIntent} read in a query: which intents fired, and the query's words that
 * are not intent words (normalised, joined by single spaces), the topic to score on.
 *
 * @example
 * const intent: QueryIntent = { now: true, latest: false, rest: "where is the spx gamma flip" };
 */
export interface QueryIntent {
  /** A present-tense word or phrase is in the query. */
  readonly now: boolean;
  /** A most-recent word or phrase is in the query. */
  readonly latest: boolean;
  /** The query without its intent words, normalised: the topic to score on. */
  readonly rest: string;
}

/**
 * The intent options of {@link createIntentIndex}: which entries answer each intent.
 *
 * @example
 * createIntentIndex(entries, {
 *   now: ["page:/live"], latest: (entry) => /\d{4}-\d{2}-\d{2}/.exec(entry.id)?.[0],
 * });
 */
export interface IndexIntentOptions {
  /**
   * The entries that answer the present tense: their ids, or a predicate over the entries.
   * @default undefined (present tense changes nothing)
   */
  readonly now?: readonly string[] | ((entry: IndexEntry) => boolean);
  /**
   * The entries that answer "the most recent": their ids newest first, or a recency key per
   * entry (an ISO date, or a number; larger is newer; `undefined` leaves the entry out). Keys
   * are all strings or all numbers.
   * @default undefined (most-recent wording changes nothing)
   */
  readonly latest?: readonly string[] | ((entry: IndexEntry) => string | number | undefined);
  /**
   * The words that fire each intent, whole words or phrases, matched after normalisation.
   * @default every locale of {@link INTENT_WORDS} together
   */
  readonly words?: IntentWords;
}

const WORD_SEPARATORS = /[^a-z0-9]+/;

/** Phrases as word lists, grouped by first word, longest first, for a greedy linear scan. */
type PhraseTable = Map<string, { readonly words: readonly string[]; readonly intent: "now" | "latest" }[]>;

function wordsOf(text: string): string[] {
  return normalizeText(text).split(WORD_SEPARATORS).filter((word) => word !== "");
}

function buildPhraseTable(words: IntentWords): PhraseTable {
  const table: PhraseTable = new Map();
  for (const intent of ["now", "latest"] as const) {
    for (const phrase of words[intent]) {
      const parts = wordsOf(phrase);
      const first = parts[0];
      if (first === undefined) continue;
      const list = table.get(first) ?? [];
      list.push({ words: parts, intent });
      table.set(first, list);
    }
  }
  for (const list of table.values()) list.sort((a, b) => b.words.length - a.words.length);
  return table;
}

/** Every locale's words at once: a query may be in any of them. */
const DEFAULT_WORDS: IntentWords = {
  now: LOCALES.flatMap((locale) => INTENT_WORDS[locale].now),
  latest: LOCALES.flatMap((locale) => INTENT_WORDS[locale].latest),
};
const DEFAULT_TABLE = buildPhraseTable(DEFAULT_WORDS);

function scan(query: string, table: PhraseTable): QueryIntent {
  const words = wordsOf(query);
  const rest: string[] = [];
  let now = false;
  let latest = false;
  for (let i = 0; i < words.length; ) {
    const word = words[i] as string;
    const hit = table.get(word)?.find((phrase) => phrase.words.every((part, k) => words[i + k] === part));
    if (hit === undefined) {
      rest.push(word);
      i += 1;
      continue;
    }
    if (hit.intent === "now") now = true;
    else latest = true;
    i += hit.words.length;
  }
  return { now, latest, rest: rest.join(" ") };
}

/**
 * Reads the intent of a query: whole normalised words and phrases, longest phrase first, in one
 * pass over the query (linear in its length). `words` defaults to every locale together.
 *
 * @example
 * detectIntent("Where is the SPX gamma flip right now?");
 * // => { now: true, latest: false, rest: "where is the spx gamma flip" }
 * detectIntent("último fechamento", INTENT_WORDS["pt-BR"]);
 * // => { now: false, latest: true, rest: "fechamento" }
 * detectIntent("knowledge base"); // => { now: false, latest: false, rest: "knowledge base" } ("now" is not a word here)
 */
export function detectIntent(query: string, words?: IntentWords): QueryIntent {
  return scan(query, words === undefined ? DEFAULT_TABLE : buildPhraseTable(words));
}

/** For each entry, its place in an intent's own order, or -1 when it does not answer it. */
function rankIds(ids: readonly string[], listed: readonly string[], option: string, strict: boolean): Int32Array {
  const position = new Map(ids.map((id, entry) => [id, entry]));
  const rank = new Int32Array(ids.length).fill(-1);
  listed.forEach((id, place) => {
    const entry = position.get(id);
    if (entry === undefined) {
      // After updates, a listed id may have been removed: it then answers nothing.
      if (!strict) return;
      throw new McpSearchError(`createIntentIndex: intent.${option} names the id ${JSON.stringify(id)}, which no entry has.`);
    }
    if (rank[entry] !== -1) {
      throw new McpSearchError(`createIntentIndex: intent.${option} names the id ${JSON.stringify(id)} twice.`);
    }
    rank[entry] = place;
  });
  return rank;
}

function rankNow(entries: readonly IndexEntry[], option: IndexIntentOptions["now"], strict: boolean): Int32Array {
  if (option === undefined || Array.isArray(option)) {
    return rankIds(entries.map((entry) => entry.id), (option ?? []) as readonly string[], "now", strict);
  }
  const pick = option as (entry: IndexEntry) => boolean;
  return Int32Array.from(entries, (entry, i) => (pick(entry) ? i : -1));
}

function rankLatest(entries: readonly IndexEntry[], option: IndexIntentOptions["latest"], strict: boolean): Int32Array {
  if (option === undefined || Array.isArray(option)) {
    return rankIds(entries.map((entry) => entry.id), (option ?? []) as readonly string[], "latest", strict);
  }
  const keyOf = option as (entry: IndexEntry) => string | number | undefined;
  const dated: { entry: number; key: string | number }[] = [];
  entries.forEach((entry, i) => {
    const key = keyOf(entry);
    if (key === undefined) return;
    const first = dated[0];
    if ((typeof key !== "string" && typeof key !== "number") || (first !== undefined && typeof first.key !== typeof key)) {
      throw new McpSearchError(
        `createIntentIndex: intent.latest gave ${JSON.stringify(key)} for the id ${JSON.stringify(entry.id)}; keys must be all strings or all numbers.`,
      );
    }
    dated.push({ entry: i, key });
  });
  // Newest first; equal keys keep the collection's order (Array.prototype.sort is stable).
  dated.sort((a, b) => (a.key === b.key ? 0 : a.key > b.key ? -1 : 1));
  const rank = new Int32Array(entries.length).fill(-1);
  dated.forEach(({ entry }, place) => (rank[entry] = place));
  return rank;
}

/** The entries of one intent in its own order. */
function groupOf(rank: Int32Array): number[] {
  const members: number[] = [];
  rank.forEach((place, entry) => {
    if (place !== -1) members.push(entry);
  });
  return members.sort((a, b) => (rank[a] as number) - (rank[b] as number));
}

/** Who answers each intent, worked out from the current entries. */
interface IntentGroups {
  readonly now: Int32Array;
  readonly latest: Int32Array;
  readonly nowGroup: readonly number[];
  readonly latestGroup: readonly number[];
  readonly position: ReadonlyMap<string, number>;
  readonly results: readonly SearchResult[];
}

function groupEntries(entries: readonly IndexEntry[], options: IndexIntentOptions, strict: boolean): IntentGroups {
  const now = rankNow(entries, options.now, strict);
  const latest = rankLatest(entries, options.latest, strict);
  return {
    now,
    latest,
    nowGroup: groupOf(now),
    latestGroup: groupOf(latest),
    position: new Map(entries.map((entry, i) => [entry.id, i])),
    // A copy, like the index's own: a later change to the caller's array cannot leak in.
    results: entries.map(({ id, title, url }) => ({ id, title, url })),
  };
}

/**
 * An index whose search reads query intent: `createIndex(entries, indexOptions)` wrapped so that
 * a query with present-tense words ("right now", "agora") or most-recent words ("latest",
 * "último") puts the entries that answer them first (the rule in this module's comment). It uses
 * only the index's public API; without an intent word in the query, `search` is the index's own.
 * Updates go to the index; the intent groups are worked out again from the current entries on
 * the next search that fires an intent (linear in the collection), and an id listed in `now` or
 * `latest` that was removed then answers nothing. Throws `McpSearchError` as `createIndex` does,
 * and when `now` or `latest` names an id no entry has (or twice), or `latest` gives keys of
 * mixed types. `snapshot()` gives the bytes of the index underneath: `loadIndex` turns them back
 * into that plain index, without the intent boosts (wrap the entries again for those).
 *
 * @example
 * const index = createIntentIndex(
 *   [
 *     { id: "page:/docs/gamma", title: "Gamma flip explained", url: "https://x.org/docs/gamma" },
 *     { id: "page:/live", title: "Gamma flip, live", url: "https://x.org/live" },
 *   ],
 *   { now: ["page:/live"] },
 * );
 * index.search("gamma flip right now")[0]?.id; // => "page:/live"
 * index.search("gamma flip")[0]?.id;           // => "page:/docs/gamma"
 */
export function createIntentIndex(
  entries: readonly IndexEntry[],
  intent: IndexIntentOptions,
  indexOptions?: IndexOptions,
): SearchIndex {
  const index = createIndex(entries, indexOptions);
  const current = new Map(entries.map((entry) => [entry.id, entry]));
  const table = intent.words === undefined ? DEFAULT_TABLE : buildPhraseTable(intent.words);
  let groups: IntentGroups | undefined = groupEntries(entries, intent, true);
  const rankAll = (query: string) => index.search(query, { limit: index.size });

  const boosted = (query: string, search?: SearchOptions): SearchResult[] | undefined => {
    const words = scan(query, table);
    groups ??= groupEntries([...current.values()], intent, false);
    const { now, latest, nowGroup, latestGroup, position, results } = groups;
    const fires = (words.now && nowGroup.length > 0) || (words.latest && latestGroup.length > 0);
    if (!fires) return undefined;
    const limit = checkLimit(search?.limit, "SearchIndex.search");
    if (limit === 0) return [];
    const ranked = rankAll(query).map((hit) => position.get(hit.id) as number);
    const topicless = tokenize(words.rest).length === 0;
    const placed = new Set<number>();
    const out: SearchResult[] = [];
    const place = (e: number) => {
      if (placed.has(e) || out.length >= limit) return;
      placed.add(e);
      out.push({ ...(results[e] as SearchResult) });
    };
    // No topic named: every entry of the intent, in its own order. Otherwise the matched ones:
    // `now` in score order (the order of `ranked`), `latest` newest first.
    if (words.now) (topicless ? nowGroup : ranked.filter((e) => now[e] !== -1)).forEach(place);
    if (words.latest) {
      const newestFirst = (a: number, b: number) => (latest[a] as number) - (latest[b] as number);
      (topicless ? latestGroup : ranked.filter((e) => latest[e] !== -1).sort(newestFirst)).forEach(place);
    }
    ranked.forEach(place);
    return out;
  };

  return {
    get size() {
      return index.size;
    },
    search: (query, options) => boosted(query, options) ?? index.search(query, options),
    // The boosts reorder (and, with no topic named, add) entries: the total counts both.
    searchWithTotal: (query, options) => {
      const plain = index.searchWithTotal(query, options);
      const results = boosted(query, options);
      return results === undefined ? plain : { results, total: Math.max(plain.total, results.length) };
    },
    searchWithMatcher: (query, options) => {
      const plain = index.searchWithMatcher(query, options);
      const results = boosted(query, options);
      return results === undefined ? plain : { ...plain, results, total: Math.max(plain.total, results.length) };
    },
    resolve: (ref) => index.resolve(ref),
    has: (id) => index.has(id),
    // The ranking's bytes: loadIndex gives back the plain index, without the intent boosts, which
    // read fields (dates) that only the entries hold.
    snapshot: () => index.snapshot(),
    compact: () => index.compact(),
    compactStep: () => index.compactStep(),
    add(entry) {
      index.add(entry);
      current.set(entry.id, entry);
      groups = undefined;
    },
    remove(id) {
      index.remove(id);
      current.delete(id);
      groups = undefined;
    },
    replace(entry) {
      index.replace(entry);
      current.set(entry.id, entry); // a Map keeps the key's place, as the index keeps the tie order
      groups = undefined;
    },
  };
}
