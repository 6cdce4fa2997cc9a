/**
 * The surface languages: one `Locale` type, one validator, and one file per language holding all
 * of its text (pt-BR.ts, en.ts, es.ts). Identifiers stay English; only what a person or a model reads
 * changes. To add a language, see CONTRIBUTING.md.
 */
import { McpSearchError } from "../errors.js";
import type { Language } from "../languages/index.js";
import { en } from "./en.js";
import { es } from "./es.js";
import { ptBR } from "./pt-BR.js";
import type { LocaleTexts } from "./types.js";

export type * from "./types.js";

/** Every surface language, the default first. */
const TEXTS = { "pt-BR": ptBR, en, es } as const satisfies Record<string, LocaleTexts>;

/**
 * A surface language: titles, schema descriptions and error messages. The default is `"pt-BR"`.
 *
 * @example
 * const locale: Locale = "en";
 */
export type Locale = keyof typeof TEXTS;

/**
 * Every locale the library ships, the default first.
 *
 * @example
 * LOCALES; // => ["pt-BR", "en", "es"]
 */
export const LOCALES = Object.keys(TEXTS) as readonly Locale[];

/**
 * The language of each locale: the language of the text it writes, as `createIndex`'s
 * `language` names it. The vocabulary reads a locale's stopwords and singular from it; a
 * server can take it as the language of the documents when nothing better is known.
 *
 * @example
 * LOCALE_LANGUAGES["pt-BR"]; // => "pt"
 */
export const LOCALE_LANGUAGES: Readonly<Record<Locale, Language>> = Object.freeze(
  Object.fromEntries(LOCALES.map((locale) => [locale, TEXTS[locale].language])) as Record<Locale, Language>,
);

/** The default surface language. */
export const DEFAULT_LOCALE: Locale = "pt-BR";

/** True when `value` names a locale the library ships. */
export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && Object.hasOwn(TEXTS, value);
}

/**
 * The locale given, or the default when it is `undefined`; throws `McpSearchError` naming the
 * caller, the value and the locales on offer for anything else.
 */
export function checkLocale(value: unknown, caller: string): Locale {
  if (value === undefined) return DEFAULT_LOCALE;
  if (isLocale(value)) return value;
  const known = LOCALES.map((locale) => JSON.stringify(locale)).join(", ");
  throw new McpSearchError(`${caller}: unknown \`locale\` ${describe(value)}: use ${known}.`);
}

function describe(value: unknown): string {
  try {
    return typeof value === "string" ? JSON.stringify(value) : String(value);
  } catch {
    return typeof value;
  }
}

/** The surface texts of one locale, checked (see {@link checkLocale}). */
export function localeTexts(locale: Locale): LocaleTexts {
  return TEXTS[checkLocale(locale, "localeTexts")];
}
