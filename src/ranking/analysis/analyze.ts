/**
 * The BM25 analysis as chains of small stages (STYLE.md §11): a document's text loses the
 * titles its numbered cross-references quote (./references.ts); one tokenizer for every script
 * (./fold.ts, then ./tokenize.ts), then per language a list of token filters: its stopwords, then
 * its plural folding, both from the language's module (src/languages/). A language is just a
 * different list.
 *
 * A document is analysed in one language: the one given, or the one detected from its words
 * (./language.ts), or the fallback when detection is unsure. A query is analysed in every
 * language the collection holds, word by word: a word that is a stopword in any of them is
 * dropped, and each other word becomes a group of its forms, one per language, repeats merged.
 * BM25 scores a group by its best form, so a Portuguese query meets a Spanish page through the
 * Spanish form of its words, and an English query meets English pages through the English form
 * (the Portuguese one, searched too, only meets what Portuguese folding made of other words).
 */
import { languageRules, type Language } from "../../languages/index.js";
import type { Script } from "../../languages/types.js";
import { foldText } from "./fold.js";
import { detectLanguage, type LanguageDetector } from "./language.js";
import { forEachWord, type Segmentation } from "./tokenize.js";

/**
 * Bumped whenever a stage changes what it outputs, so that an index snapshot built by another
 * analysis is refused and built again rather than mixed (its settings carry this number).
 */
export const ANALYSIS_VERSION = 5;

/** How text is analysed for BM25. */
export interface AnalysisSettings {
  /** The documents' language, or `"auto"`: detected per document. */
  readonly language: Language | "auto";
  /** The language of a document whose detection is unsure. */
  readonly fallback: Language;
  /** Stem each word: its language's plural folding (src/languages/), then `stemmers`' stemmer if any; false keeps words as written (folded). */
  readonly fold: boolean;
  /** Stemmers that replace the plural folding of some languages (Snowball's, for example). */
  readonly stemmers?: Stemmers | undefined;
  /** How runs of Han, kana, Thai and Lao are cut (./tokenize.ts). */
  readonly segmentation: Segmentation;
  /** The detector `"auto"` asks when the markers cannot tell (eld's, for example). */
  readonly detector?: LanguageDetector | undefined;
}

/**
 * Stemmers for some languages, each a function from a folded word (lower case, no accents, plural
 * already folded to its singular) to its stem, and a name for them: an index snapshot records the
 * name, and is loaded back only with stemmers of the same name. A language without one keeps its
 * plural folding alone.
 *
 * @example
 * import { stemmer as en } from "@orama/stemmers/english";
 * import { stemmer as pt } from "@orama/stemmers/portuguese";
 * const stemmers: Stemmers = { name: "snowball", en, pt };
 * createIndex(entries, { ranking: "bm25", stemmers });
 */
export interface Stemmers extends Readonly<Partial<Record<Language, ((word: string) => string) | undefined>>> {
  /** What the snapshot records of them ("snowball"): another name, or none, is other settings. */
  readonly name: string;
}

/** One token filter: the token to keep (maybe rewritten), or `undefined` to drop it. */
type TokenFilter = (token: string) => string | undefined;

const stopwordsOf = (language: Language): TokenFilter => {
  const list = languageRules(language).stopwords;
  return (token) => (list.has(token) ? undefined : token);
};

/**
 * The stemming of `language`: its plural folding (`foldPlural` of its module), then the given
 * stemmer when there is one (a word kept as folded when the stemmer gives no string). The folding
 * comes first so that a plural and its singular reach the stemmer as one word, and meet whatever
 * the stemmer makes of it: Snowball alone leaves "ciudades" → "ciudad" and "ciudad" → "ciud" apart.
 *
 * A word written in another script than the language's is stemmed as that script's language
 * ({@link SCRIPT_LANGUAGES}): a Russian manual quotes English, and an English page left
 * untranslated in it holds Russian words. Queries and documents go through the same function, so
 * the forms still meet.
 */
function stemmerOf(language: Language, stemmers: Stemmers | undefined): (token: string) => string {
  return built(SCRIPT_STEMMERS, language, stemmers, () => {
    const own = languageStemmerOf(language, stemmers);
    const script = languageRules(language).script;
    const others = new Map<Script, (token: string) => string>();
    return (token) => {
      const written = scriptOf(token);
      if (written === undefined || written === script) return own(token);
      let other = others.get(written);
      if (other === undefined) others.set(written, (other = languageStemmerOf(SCRIPT_LANGUAGES[written], stemmers)));
      return other(token);
    };
  });
}

/**
 * What {@link stemmerOf} and {@link languageStemmerOf} built, per stemmers (`NO_STEMMERS` for
 * none) and language: each analysed field, paragraph and snippet asks for them again, and the
 * memo of stems lives in them.
 */
type Built = WeakMap<object, Map<Language, (token: string) => string>>;
const SCRIPT_STEMMERS: Built = new WeakMap();
const LANGUAGE_STEMMERS: Built = new WeakMap();
const NO_STEMMERS = {};

/** `cache`'s function for `stemmers` and `language`, made by `build` the first time. */
function built(cache: Built, language: Language, stemmers: Stemmers | undefined, build: () => (token: string) => string): (token: string) => string {
  const key = stemmers ?? NO_STEMMERS;
  let byLanguage = cache.get(key);
  if (byLanguage === undefined) cache.set(key, (byLanguage = new Map()));
  let stemmer = byLanguage.get(language);
  if (stemmer === undefined) byLanguage.set(language, (stemmer = build()));
  return stemmer;
}

/** The language a word of each script is stemmed in when the document's language writes another. */
const SCRIPT_LANGUAGES: Readonly<Record<Script, Language>> = { latin: "en", cyrillic: "ru", greek: "el" };

/** The script of a folded word, from its first character: `undefined` for digits and every other script. */
function scriptOf(token: string): Script | undefined {
  const code = token.charCodeAt(0);
  if (code < 0x250) return (code >= 0x61 && code <= 0x7a) || code >= 0xdf ? "latin" : undefined;
  if (code >= 0x370 && code <= 0x3ff) return "greek";
  if (code >= 0x400 && code <= 0x52f) return "cyrillic";
  return undefined;
}

/**
 * One language's plural folding, then its stemmer if any (see {@link stemmerOf}), with a memo of
 * the stems it gave: a text repeats its words, and a Snowball stemmer costs about a microsecond a
 * word (it doubled the build time of the relevance corpora before the memo). Bounded: emptied
 * when it holds {@link MEMO_SIZE} words.
 */
function languageStemmerOf(language: Language, stemmers: Stemmers | undefined): (token: string) => string {
  const fold = languageRules(language).foldPlural;
  const stem = stemmers?.[language];
  if (stemmers === undefined || stem === undefined) return fold;
  return built(LANGUAGE_STEMMERS, language, stemmers, () => {
    const seen = new Map<string, string>();
    return (token) => {
      let stemmed = seen.get(token);
      if (stemmed !== undefined) return stemmed;
      const folded = fold(token);
      const out = stem(folded);
      stemmed = typeof out === "string" && out !== "" ? out : folded;
      if (stemmed.length >= SLICED_MIN) stemmed = flatCopy(stemmed);
      if (seen.size >= MEMO_SIZE) seen.clear();
      // A key cut out of a text would keep the text alive (see SLICED_MIN).
      seen.set(token.length >= SLICED_MIN ? flatCopy(token) : token, stemmed);
      return stemmed;
    };
  });
}

const MEMO_SIZE = 200_000;

/** A language's chain of filters: its stopwords, then its stemmer when `fold` is on. */
function chainOf(language: Language, settings: Pick<AnalysisSettings, "fold" | "stemmers">): TokenFilter[] {
  return settings.fold ? [stopwordsOf(language), stemmerOf(language, settings.stemmers)] : [stopwordsOf(language)];
}

/**
 * One folded word's token in `language`, or `undefined` for a stopword: the word passed through
 * the language's filters, as {@link analyzeWithWritten} passes each word.
 *
 * @example
 * wordAnalyzer("pt", { fold: true })("mensagens"); // => "mensagem"
 */
export function wordAnalyzer(language: Language, settings: Pick<AnalysisSettings, "fold" | "stemmers">): (word: string) => string | undefined {
  const [stop, stem] = chainOf(language, settings) as [TokenFilter, ((token: string) => string) | undefined];
  return (word) => (stop(word) === undefined ? undefined : stem === undefined ? word : stem(word));
}

/**
 * The folded words of `text`, in order, before any language's filters.
 *
 * @example
 * splitWords("Москва — столица России", "bigrams"); // => ["москва", "столица", "россии"]
 */
export function splitWords(text: string, segmentation: Segmentation): string[] {
  const words: string[] = [];
  forEachWord(foldText(text), segmentation, (word) => words.push(word));
  return words;
}

/**
 * The language a document is analysed in: `settings.language` when given, else the one detected
 * from `words` (its title's and text's), else `settings.fallback`.
 *
 * @example
 * chooseLanguage(splitWords("O arquivo não foi encontrado em uma pasta do disco", "bigrams"), { language: "auto", fallback: "en", fold: true, segmentation: "bigrams" }); // => "pt"
 */
export function chooseLanguage(words: readonly string[], settings: AnalysisSettings): Language {
  return settings.language !== "auto" ? settings.language : (detectLanguage(words, settings.detector) ?? settings.fallback);
}

/**
 * The tokens of `words` in `language`, each passed through the language's filters, in order; and
 * beside them the same words as written (folded, stopwords dropped, not stemmed): the two lists
 * align. A word its stemming leaves as it was is the same string in both.
 *
 * @example
 * analyzeWithWritten(["as", "mensagens", "do", "servidor"], "pt", { fold: true }); // => [["mensagem", "servidor"], ["mensagens", "servidor"]]
 */
export function analyzeWithWritten(words: readonly string[], language: Language, settings: Pick<AnalysisSettings, "fold" | "stemmers">): [string[], string[]] {
  const [stop, stem] = chainOf(language, settings) as [TokenFilter, ((token: string) => string) | undefined];
  const tokens: string[] = [];
  const written: string[] = [];
  // The chain unrolled: this loop runs once per word of every indexed text.
  for (const word of words) {
    if (stop(word) === undefined) continue;
    const stemmed = stem === undefined ? word : stem(word);
    const token = stemmed.length >= SLICED_MIN ? flatCopy(stemmed) : stemmed;
    tokens.push(token);
    written.push(stemmed === word ? token : word.length >= SLICED_MIN ? flatCopy(word) : word);
  }
  return [tokens, written];
}

/**
 * V8 makes a substring of 13 characters or more (a word cut out of a text by `split`) a view of
 * the whole text, not a copy; an index that keeps such a word as a term keeps the whole text it
 * came from alive. On the English relevance corpora (17.7 MB of text) the BM25 index held 33.7 MB
 * of heap with views, 7.8 MB with copies.
 */
const SLICED_MIN = 13;

/** A copy of `token` that refers to no other string. */
function flatCopy(token: string): string {
  return [...token].join("");
}

/**
 * The tokens of `text` analysed in `language`.
 *
 * @example
 * analyzeText("Las ciudades y sus luces", "es", { fold: true, segmentation: "bigrams" }); // => ["ciudad", "luz"]
 */
export function analyzeText(text: string, language: Language, settings: Pick<AnalysisSettings, "fold" | "segmentation" | "stemmers">): string[] {
  return analyzeWithWritten(splitWords(text, settings.segmentation), language, settings)[0];
}

/**
 * A query's groups for a collection that holds `languages` (in `LANGUAGES` order): one group per
 * concept of the query, holding its distinct forms, one per language. A concept is a word that is
 * a stopword in none of them, with the words `expand` gives for it (its vocabulary expansions:
 * each of one word adds its forms; a phrase adds none). Groups that share a form are one concept,
 * merged: "café coffee", where each word expands to the other, is one group, not two.
 *
 * @example
 * analyzeQuery("as canções", ["pt", "en"], { fold: true, segmentation: "bigrams" }); // => [["cancao", "cancoe"]]
 * analyzeQuery("café azedo", ["pt"], { fold: true, segmentation: "words" }, (word) => (word === "azedo" ? ["sour"] : [])); // => [["cafe"], ["azedo", "sour"]]
 */
export function analyzeQuery(
  text: string,
  languages: readonly Language[],
  settings: Pick<AnalysisSettings, "fold" | "segmentation" | "stemmers">,
  expand?: (word: string) => readonly string[],
): string[][] {
  const groups: string[][] = [];
  const stems = languages.map((language) => stemmerOf(language, settings.stemmers));
  const stopwords = languages.map((language) => languageRules(language).stopwords);
  const formsOf = (word: string) => stems.map((stem) => (settings.fold ? stem(word) : word));
  for (const word of splitWords(text, settings.segmentation)) {
    if (stopwords.some((list) => list.has(word))) continue;
    const forms = formsOf(word);
    for (const expansion of expand?.(word) ?? []) {
      const words = splitWords(expansion, settings.segmentation);
      if (words.length === 1) forms.push(...formsOf(words[0]!));
    }
    // One concept: this word's forms, and every earlier group that shares one of them, in the
    // place of the first such group.
    const own = new Set(forms);
    const shared = groups.filter((group) => group.some((form) => own.has(form)));
    const concept = [...new Set([...shared.flat(), ...own])];
    if (shared.length === 0) groups.push(concept);
    else groups.splice(groups.indexOf(shared[0]!), 1, concept);
    for (const group of shared.slice(1)) groups.splice(groups.indexOf(group), 1);
  }
  return groups;
}
