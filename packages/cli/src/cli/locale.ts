/**
 * The folder server's language. The library's default is pt-BR, and stays so; but `mcp-search`
 * is a program a person runs, and programs follow the person's locale: when `--locale` is not
 * given, the language comes from the environment, read the way POSIX programs read the language
 * of their messages. Nothing here reads `process.env` itself: the caller hands the environment
 * in, so the rule is a pure function, tested without spawning anything.
 */
import { LANGUAGES, LOCALE_LANGUAGES, LOCALES, type Language, type Locale } from "@sbissoli/mcp-search";

/**
 * The variables read, strongest first: `LC_ALL` overrides `LC_MESSAGES`, which overrides `LANG`
 * (POSIX, "Internationalization Variables"). An empty variable counts as unset.
 */
const LOCALE_VARIABLES = ["LC_ALL", "LC_MESSAGES", "LANG"] as const;

/** The locale when neither `--locale` nor the environment names one the server speaks. */
const FALLBACK_LOCALE: Locale = "en";

/** The languages the server's locales write, in the library's order (`LANGUAGES`): "pt, es or en". */
const SPOKEN = listed(LANGUAGES.filter((language) => LOCALES.some((locale) => LOCALE_LANGUAGES[locale] === language)));

/** "a", "a or b", "a, b or c". */
function listed(values: readonly string[]): string {
  return values.length <= 1 ? values.join("") : `${values.slice(0, -1).join(", ")} or ${values.at(-1)}`;
}

/** The environment as the bin sees it; `process.env` fits. */
export type LocaleEnvironment = Readonly<Record<string, string | undefined>>;

/**
 * The locale the server speaks and why, as its first stderr line says it.
 *
 * @example
 * const choice: LocaleChoice = { locale: "en", reason: "from LANG=en_US.UTF-8" };
 */
interface LocaleChoice {
  readonly locale: Locale;
  /** "from --locale", "from LANG=en_US.UTF-8", "default: no locale in the environment"… */
  readonly reason: string;
}

/**
 * The server's locale for one POSIX locale name, by its language (the part before `_`, `.`,
 * `@` or `-`): the first locale of `LOCALES` that writes that language (`LOCALE_LANGUAGES`), so
 * `pt` gives pt-BR (the only Portuguese the server speaks), `es` gives es, `en` gives en;
 * anything else, `C` and `POSIX` included, gives undefined.
 *
 * @example
 * localeOfName("pt_BR.UTF-8"); // => "pt-BR"
 * localeOfName("es_MX");       // => "es"
 * localeOfName("C.UTF-8");     // => undefined
 */
export function localeOfName(name: string): Locale | undefined {
  const language = name.trim().toLowerCase().split(/[_.@-]/, 1)[0];
  return LOCALES.find((locale) => LOCALE_LANGUAGES[locale] === language);
}

/**
 * Chooses the locale: `--locale` when given (the caller has checked it against `LOCALES`),
 * else the first of `LC_ALL`, `LC_MESSAGES` and `LANG` that is set and not empty, mapped by
 * {@link localeOfName}; a variable that names another language, `C` or `POSIX` gives en, and
 * so does an environment with none of the three.
 *
 * @example
 * chooseLocale(undefined, { LANG: "pt_BR.UTF-8" });           // => { locale: "pt-BR", reason: "from LANG=pt_BR.UTF-8" }
 * chooseLocale(undefined, { LC_ALL: "C", LANG: "pt_BR.UTF-8" }); // => { locale: "en", reason: "from LC_ALL=C, which is not pt, es or en" }
 * chooseLocale("es", { LANG: "pt_BR.UTF-8" });                 // => { locale: "es", reason: "from --locale" }
 * chooseLocale(undefined, {});                                  // => { locale: "en", reason: "default: no locale in the environment" }
 */
export function chooseLocale(flag: Locale | undefined, environment: LocaleEnvironment): LocaleChoice {
  if (flag !== undefined) return { locale: flag, reason: "from --locale" };
  for (const variable of LOCALE_VARIABLES) {
    const value = environment[variable];
    if (value === undefined || value === "") continue;
    const setting = `${variable}=${value}`;
    const locale = localeOfName(value);
    return locale === undefined
      ? { locale: FALLBACK_LOCALE, reason: `from ${setting}, which is not ${SPOKEN}` }
      : { locale, reason: `from ${setting}` };
  }
  return { locale: FALLBACK_LOCALE, reason: "default: no locale in the environment" };
}

/**
 * The stderr line that says which locale was chosen and why.
 *
 * @example
 * describeLocaleChoice({ locale: "en", reason: "from LANG=en_US.UTF-8" }); // => "locale en (from LANG=en_US.UTF-8)"
 */
export function describeLocaleChoice(choice: LocaleChoice): string {
  return `locale ${choice.locale} (${choice.reason})`;
}

/** True for a `--locale` value the server speaks. */
export function isServerLocale(value: string): value is Locale {
  return (LOCALES as readonly string[]).includes(value);
}

/**
 * The BM25 language of a locale (the library's `LOCALE_LANGUAGES`): what a document whose
 * language detection is unsure is read as.
 *
 * @example
 * languageOfLocale("pt-BR"); // => "pt"
 */
export function languageOfLocale(locale: Locale): Language {
  return LOCALE_LANGUAGES[locale];
}
