/**
 * The question's vocabulary: everyday words to the source's words, matched at word starts.
 * Servers keep their own tables of measured pairs; this module holds the recipe.
 */
import { languageRules } from "../languages/index.js";
import { checkLocale, LOCALE_LANGUAGES, localeTexts, type Locale } from "../locales/index.js";
import { normalizeText } from "../ranking/normalize.js";
import { optionNames, unknownOption, unknownOptionMessage } from "../contract/option-names.js";
import { McpSearchError } from "../errors.js";
import { stripGlobMetacharacters } from "./glob.js";
import { matchesAtWordStart, matchesExpansion } from "./word-start.js";

/**
 * One measured pair: the word people ask with, and the words the source uses for it. Sources may
 * be stems ("hipertens"): they match at the start of a word, with no end boundary.
 *
 * @example
 * const entry: VocabularyEntry = { asked: "câncer", source: ["neoplasia maligna"] };
 */
export interface VocabularyEntry {
  /** The word or phrase people ask with ("câncer"). */
  readonly asked: string;
  /** The source's words for it, each matched at the start of a word ("neoplasia maligna"). */
  readonly source: readonly string[];
}

/**
 * Options of {@link createVocabulary}.
 *
 * @example
 * const options: VocabularyOptions = {
 *   locale: "en",
 *   sourceName: "ILOSTAT",
 *   entries: [{ asked: "labor", source: ["labour"] }],
 * };
 */
export interface VocabularyOptions {
  /**
   * The note's language, and through it (`LOCALE_LANGUAGES`) the stopwords and singular rules of
   * that language: a locale, `"pt-BR"`, `"en"` or `"es"` (`createIndex`'s `language` takes a
   * language code instead, `"pt"`: the language of the entries, not of the text the library
   * writes). Set-up errors are in English whatever the locale.
   * @default "pt-BR"
   */
  readonly locale?: Locale;
  /** Who uses the source's words, as the note says it: "o IBGE", "ILOSTAT". */
  readonly sourceName: string;
  /**
   * The measured pairs. An empty table invents no synonym; singulars still apply (with any
   * table, "hospitais" also reaches "hospital"). @default []
   */
  readonly entries?: readonly VocabularyEntry[];
  /** More words to keep out of the AND, on top of the locale's. @default [] */
  readonly extraStopwords?: readonly string[];
}

/**
 * One term of a query with the patterns that reach it. `translated` is true only when the table
 * holds the term or its singular.
 *
 * @example
 * const term: ExpandedTerm = { term: "labor", patterns: ["labor", "labour"], translated: true };
 */
export interface ExpandedTerm {
  /** The query's term, normalised. */
  readonly term: string;
  /** Every pattern that reaches it: the term, its sources, its singular and the singular's sources. */
  readonly patterns: readonly string[];
  /** Whether the table holds the term or its singular. */
  readonly translated: boolean;
}

/**
 * A built vocabulary. Every method is pure and deterministic.
 *
 * @example
 * const vocab: Vocabulary = createVocabulary({ sourceName: "o IBGE", entries: [] });
 * vocab.queryTerms("renda das famílias"); // => ["renda", "familias"]
 */
export interface Vocabulary {
  /** The language it was built for (`options.locale`, pt-BR by default). */
  readonly locale: Locale;
  /** Ranking normalisation, plus "-" and the dashes U+2010–U+2014 become spaces. */
  normalize(text: string): string;
  /** The query's terms: table phrases first, then words minus stopwords. */
  queryTerms(query: string): string[];
  /** One term's patterns: the term, its sources, its singular, the singular's sources. */
  expandTerm(word: string): string[];
  /** Every term of the query with its patterns. */
  expandQuery(query: string): ExpandedTerm[];
  /** True when any pattern occurs at the start of a word of the (normalised) text. */
  matchesTerm(normalisedText: string, term: ExpandedTerm): boolean;
  /** True when every term matches; an empty expansion matches nothing. */
  matchesQuery(normalisedText: string, expanded: readonly ExpandedTerm[]): boolean;
  /** One note per translated term, in the locale's language. */
  vocabularyNotes(expanded: readonly ExpandedTerm[]): string[];
  /** The `asked` words whose sources occur at a word start in `name`, in table order. */
  askedWordsFor(name: string): string[];
}

const DASHES = /[-\u2010-\u2014]/g;
const EDGE_PUNCTUATION = /^[\p{P}\p{S}]$/u;

function normalizeVocabularyText(text: string): string {
  return normalizeText(text.replace(DASHES, " "));
}

/** Cuts punctuation and symbols off both ends of a word ("(renda)," gives "renda"). */
function trimEdges(word: string): string {
  const chars = Array.from(word);
  let first = 0;
  let last = chars.length;
  while (first < last && EDGE_PUNCTUATION.test(chars[first] ?? "")) first += 1;
  while (last > first && EDGE_PUNCTUATION.test(chars[last - 1] ?? "")) last -= 1;
  return chars.slice(first, last).join("");
}

/** One normalised query word; words of one hyphenated query word share a `group`. */
interface QueryWord {
  readonly text: string;
  readonly group: number;
}

function splitQueryWords(query: string): QueryWord[] {
  const words: QueryWord[] = [];
  query.split(/\s+/).forEach((token, group) => {
    const parts = normalizeVocabularyText(stripGlobMetacharacters(token)).split(" ");
    for (const part of parts) {
      const text = normalizeVocabularyText(trimEdges(part));
      if (text !== "") words.push({ text, group });
    }
  });
  return words;
}

/** The table, read once: sources by normalised asked, phrases by their first word. */
interface Table {
  readonly sources: ReadonlyMap<string, readonly string[]>;
  readonly asked: readonly { readonly asked: string; readonly sources: readonly string[] }[];
  readonly phrasesByFirstWord: ReadonlyMap<string, readonly (readonly string[])[]>;
}

/** Throws the vocabulary's set-up error, in English as every set-up error (CONTRIBUTING.md). */
function fail(message: string): never {
  throw new McpSearchError(`createVocabulary: ${message}`);
}

function readTable(entries: unknown): Table {
  if (!Array.isArray(entries)) fail('"entries" must be a list of { asked, source }.');
  const sources = new Map<string, string[]>();
  const askedOriginal = new Map<string, string>();
  entries.forEach((entry: Partial<VocabularyEntry> | null | undefined, index) => {
    const askedRaw = entry?.asked;
    const asked = typeof askedRaw === "string" ? normalizeVocabularyText(askedRaw) : "";
    if (asked === "") fail(`entry ${index} has an empty "asked".`);
    const list: unknown = entry?.source;
    if (!Array.isArray(list) || list.length === 0) fail(`entry ${index} ("${asked}") needs at least one word in "source".`);
    const known = sources.get(asked) ?? [];
    // A Set beside the list: a table may give one word tens of thousands of sources, and a list
    // search per source made reading it quadratic.
    const seen = new Set(known);
    list.forEach((source: unknown, at) => {
      const normalised = typeof source === "string" ? normalizeVocabularyText(source) : "";
      if (normalised === "") fail(`entry ${index} ("${asked}") has an empty "source[${at}]".`);
      if (normalised !== asked && !seen.has(normalised)) {
        seen.add(normalised);
        known.push(normalised);
      }
    });
    sources.set(asked, known);
    if (!askedOriginal.has(asked)) askedOriginal.set(asked, (askedRaw as string).trim());
  });
  const phrasesByFirstWord = new Map<string, string[][]>();
  for (const asked of sources.keys()) {
    const words = asked.split(" ");
    const first = words[0];
    if (words.length < 2 || first === undefined) continue;
    const sharing = phrasesByFirstWord.get(first);
    if (sharing === undefined) phrasesByFirstWord.set(first, [words]);
    else sharing.push(words); // in place: copying the list per phrase was quadratic
  }
  return {
    sources,
    asked: [...askedOriginal].map(([key, asked]) => ({ asked, sources: sources.get(key) ?? [] })),
    phrasesByFirstWord,
  };
}

/**
 * The distinct values of a list, in first-seen order, in linear time (a term may have tens of
 * thousands of sources: `indexOf` per item was quadratic).
 *
 * @example
 * unique(["a", "b", "a"]); // => ["a", "b"]
 */
function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/** A term found in the query, with where it starts, to keep the query's order. */
interface Found {
  readonly start: number;
  readonly length: number;
  readonly text: string;
}

/** Table phrases found in the query on whole words, longest first, each word used once. */
function findPhrases(words: readonly QueryWord[], table: Table): Found[] {
  const found: Found[] = [];
  words.forEach((word, start) => {
    for (const phrase of table.phrasesByFirstWord.get(word.text) ?? []) {
      if (phrase.every((part, offset) => words[start + offset]?.text === part)) {
        found.push({ start, length: phrase.length, text: phrase.join(" ") });
      }
    }
  });
  found.sort((a, b) => b.length - a.length || b.text.length - a.text.length || a.start - b.start);
  const used = new Set<number>();
  return found.filter((match) => {
    for (let i = match.start; i < match.start + match.length; i += 1) if (used.has(i)) return false;
    for (let i = match.start; i < match.start + match.length; i += 1) used.add(i);
    return true;
  });
}

/** Words left after the phrases: a whole hyphenated group is one phrase term, the rest words. */
function leftoverTerms(words: readonly QueryWord[], cut: ReadonlySet<number>): { phrases: Found[]; words: Found[] } {
  const groups = new Map<number, { start: number; words: string[]; whole: boolean }>();
  words.forEach((word, index) => {
    const group = groups.get(word.group) ?? { start: index, words: [], whole: true };
    if (cut.has(index)) group.whole = false;
    else group.words.push(word.text);
    groups.set(word.group, group);
  });
  const phrases: Found[] = [];
  const single: Found[] = [];
  for (const group of groups.values()) {
    if (group.whole && group.words.length > 1) {
      phrases.push({ start: group.start, length: group.words.length, text: group.words.join(" ") });
    } else {
      for (const text of group.words) single.push({ start: group.start, length: 1, text });
    }
  }
  return { phrases, words: single };
}

/** Every option of {@link createVocabulary}; the compiler keeps it equal to the type's fields. */
const VOCABULARY_OPTION_NAMES = optionNames<VocabularyOptions>()(["locale", "sourceName", "entries", "extraStopwords"]);

/**
 * Builds a vocabulary from a table of measured pairs. Misuse throws {@link McpSearchError}, in
 * English, naming the entry: an empty `asked`, an empty source list, an empty source.
 *
 * @example
 * const vocab = createVocabulary({
 *   locale: "pt-BR",
 *   sourceName: "o IBGE",
 *   entries: [{ asked: "renda", source: ["rendimento"] }, { asked: "pressão alta", source: ["hipertens"] }],
 * });
 * const expanded = vocab.expandQuery("renda mensal");
 * // => [{ term: "renda", patterns: ["renda", "rendimento"], translated: true },
 * //     { term: "mensal", patterns: ["mensal"], translated: false }]
 * vocab.matchesQuery(vocab.normalize("Rendimento médio mensal"), expanded); // => true
 * vocab.vocabularyNotes(expanded);
 * // => ['"renda" também foi buscado como rendimento — a palavra que o IBGE usa.']
 */
export function createVocabulary(options: VocabularyOptions): Vocabulary {
  const locale = checkLocale(options.locale, "createVocabulary");
  const texts = localeTexts(locale).vocabulary;
  const language = languageRules(LOCALE_LANGUAGES[locale]);
  // Plain JavaScript has no compiler to refuse a misspelt option, which would be ignored.
  const unknown = unknownOption(options, VOCABULARY_OPTION_NAMES);
  if (unknown !== undefined) fail(unknownOptionMessage(unknown, VOCABULARY_OPTION_NAMES));
  const sourceName = typeof options.sourceName === "string" ? options.sourceName.trim() : "";
  if (sourceName === "") fail('"sourceName" is required and must not be empty (e.g. "ILOSTAT").');
  const table = readTable(options.entries ?? []);
  const extra = options.extraStopwords ?? [];
  // The language module spells them as BM25 folds them (й kept): normalised here as the vocabulary reads words.
  const stopwords = new Set(language.vocabularyStopwords.map(normalizeVocabularyText));
  extra.forEach((word: unknown, index) => {
    if (typeof word !== "string") fail(`"extraStopwords[${index}]" must be text.`);
    const normalised = normalizeVocabularyText(word);
    if (normalised !== "") stopwords.add(normalised);
  });
  const singular = (term: string): string => term.split(" ").map(language.singular).join(" ");

  function queryTerms(query: string): string[] {
    const words = splitQueryWords(query);
    const tablePhrases = findPhrases(words, table);
    const cut = new Set<number>();
    for (const match of tablePhrases) for (let i = 0; i < match.length; i += 1) cut.add(match.start + i);
    const left = leftoverTerms(words, cut);
    let single = left.words.filter((word) => !stopwords.has(word.text));
    if (single.length === 0 && left.phrases.length === 0 && tablePhrases.length === 0) single = left.words;
    const phrases = [...tablePhrases, ...left.phrases].sort((a, b) => a.start - b.start);
    return unique([...phrases, ...single].map((found) => found.text));
  }

  function expand(term: string): ExpandedTerm {
    if (term === "") return { term, patterns: [], translated: false };
    const one = singular(term);
    const own = table.sources.get(term);
    const ofSingular = table.sources.get(one);
    return {
      term,
      patterns: unique([term, ...(own ?? []), one, ...(ofSingular ?? [])]),
      translated: own !== undefined || ofSingular !== undefined,
    };
  }

  function matchesTerm(normalisedText: string, term: ExpandedTerm): boolean {
    return term.patterns.some((pattern) => matchesAtWordStart(normalisedText, pattern));
  }

  return {
    locale,
    normalize: normalizeVocabularyText,
    queryTerms,
    expandTerm: (word) => expand(normalizeVocabularyText(word)).patterns.slice(),
    expandQuery: (query) => queryTerms(query).map(expand),
    matchesTerm,
    // The matcher itself, not an arrow that calls it: the filter calls this once per row, and a
    // module loader that reaches imports through getters (Vitest's, some bundlers') made the
    // arrow cost about a fifth of a short name's match in bench/vocabulary.bench.ts.
    matchesQuery: matchesExpansion,
    vocabularyNotes: (expanded) =>
      expanded.flatMap((entry) => {
        if (!entry.translated) return [];
        const added = unique([...(table.sources.get(entry.term) ?? []), ...(table.sources.get(singular(entry.term)) ?? [])]);
        const spellings = added.filter((word) => word !== entry.term);
        return spellings.length === 0 ? [] : [texts.note(entry.term, spellings.join(", "), sourceName)];
      }),
    askedWordsFor: (name) => {
      // Without a table there is nothing to find: skip normalising the text (a whole document, in
      // the folder server).
      if (table.asked.length === 0) return [];
      const normalised = normalizeVocabularyText(name);
      const asked = table.asked.filter((entry) => entry.sources.some((s) => matchesAtWordStart(normalised, s)));
      return asked.map((entry) => entry.asked);
    },
  };
}
