/**
 * The languages the library reads: one module per language (./pt.ts, ./es.ts, ./en.ts, ./ru.ts, …) holding
 * all its word lists and plural rules, registered in one table. The `Language` type, `LANGUAGES`,
 * BM25's analysis and detection, `createIndex`'s options and the vocabulary follow from that
 * table. To add a language, write its module and add one line to `RULES`.
 */
import { de } from "./de.js";
import { el } from "./el.js";
import { en } from "./en.js";
import { es } from "./es.js";
import { fr } from "./fr.js";
import { it } from "./it.js";
import { pt } from "./pt.js";
import { ru } from "./ru.js";
import { uk } from "./uk.js";
import type { LanguageRules } from "./types.js";

/**
 * Every language, in the fixed order a query is analysed in. An index snapshot records each
 * entry's language by its place here: add a language at the end.
 */
const RULES = { pt, es, en, ru, uk, el, de, fr, it } as const satisfies Record<string, LanguageRules>;

/**
 * A language the library reads with its own stopwords and plural rules: the language of a
 * text, as a code (`"pt"`), not a locale (`"pt-BR"`, the language of the text the library
 * writes). Text in any other language is still tokenised, folded and found; only stemming and
 * stopwords are these languages'.
 *
 * @example
 * const language: Language = "pt";
 * createIndex(entries, { ranking: "bm25", language });
 */
export type Language = keyof typeof RULES;

/**
 * Every language, in the order a query is analysed in.
 *
 * @example
 * LANGUAGES; // => ["pt", "es", "en", "ru", "uk", "el", "de", "fr", "it"]
 */
export const LANGUAGES = Object.freeze(Object.keys(RULES)) as readonly Language[];

/** True when `value` is one of {@link LANGUAGES}. */
export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && Object.hasOwn(RULES, value);
}

/**
 * The word lists and plural rules of `language`.
 *
 * @example
 * languageRules("es").foldPlural("ciudades"); // => "ciudad"
 */
export function languageRules(language: Language): LanguageRules {
  return RULES[language];
}
