/**
 * Dates as people type them: finds the days and months a query names, in pt-BR, English and
 * Spanish, and keeps only the ones a time-series server actually holds.
 *
 * chrono-node does the reading (ISO, dd/mm/yyyy, "24 de agosto de 2026", "August 24, 2026",
 * "24 Aug 2026", "3 de agosto de 2026"); one small rule of ours adds the month-and-year form
 * ("agosto de 2026", "August 2026") that chrono's strict parsers miss. Nothing here reads the clock: chrono gets a
 * fixed reference date, and any result whose year, month or day chrono had to imply from it
 * ("today", "ontem", "24 de agosto" without a year) is left out. A few rules of ours then drop
 * numbers that only look like dates: a date glued to a longer run of digits ("0115-6/00", a court
 * case number), a numeric date right after a version word ("versão 3.8.2026"), a day and month
 * name followed by a comma and a number (the address "Rua 25 de Março, 1200"), and a year outside
 * the plausible window.
 *
 * `@sbissoli/mcp-search/site/dates` is this module: the one site helper that needs chrono-node
 * (an optional peer dependency), so only the projects that import this subpath install it.
 */
import * as chrono from "chrono-node";
import type { Chrono, ParsedResult, Parser, ParsingOption, ParsingContext, ParsingResult, Refiner } from "chrono-node";
import { McpSearchError } from "../errors.js";
import { checkLocale, LOCALES, type Locale } from "../locales/index.js";

/**
 * Options of {@link findDates}.
 *
 * @example
 * findDates("05/08/2026", { dayFirst: false } satisfies FindDatesOptions).dates; // => ["2026-05-08"]
 * findDates("24 de agosto de 2026", { locale: "en" }).dates;                     // => []
 * findDates("25 de março de 1500", { minYear: 1500 }).dates;                      // => ["1500-03-25"]
 */
export interface FindDatesOptions {
  /**
   * Reads an ambiguous numeric date such as 05/08/2026 as day/month (5 August, the Brazilian and
   * European order) or, when `false`, as month/day (May 8, the US order). A date that fits only
   * one order (24/08/2026, 08/24/2026) is read in that order either way.
   * @default true
   */
  readonly dayFirst?: boolean;
  /**
   * The one language to read dates in, "pt-BR", "en" or "es"; every one at once when left out.
   * A server whose users write only English passes "en", so that no Portuguese or Spanish month
   * word counts.
   * @default undefined (pt-BR, English and Spanish)
   */
  readonly locale?: Locale;
  /**
   * The earliest year read as a date. A date before it is not a date at all: it is neither in
   * `dates` nor in `invalid` ("Rua 25 de Março, 1200" names no year 1200).
   * @default 1900
   */
  readonly minYear?: number;
  /**
   * The latest year read as a date; later years are ignored, as with `minYear`.
   * @default 2100
   */
  readonly maxYear?: number;
}

/** The plausible-year window of {@link FindDatesOptions}, by default. */
const DEFAULT_MIN_YEAR = 1900;
const DEFAULT_MAX_YEAR = 2100;

/**
 * What {@link findDates} found. `dates` mixes exact days ("YYYY-MM-DD") and whole months
 * ("YYYY-MM"), in the order the query names them, without repeats; a month appears only when
 * the query names no day inside it. `invalid` holds the text of dates that carry a year and are
 * shaped like a date but are not on the calendar ("31/02/2026"): they are reported, never rolled
 * over into the next month. A yearless impossibility ("31/02") is ignored like any yearless date.
 *
 * @example
 * const found: QueryDates = findDates("24 de agosto de 2026 e setembro de 2026");
 * found.dates;   // => ["2026-08-24", "2026-09"]
 * found.invalid; // => []
 */
export interface QueryDates {
  /** Days ("YYYY-MM-DD") and months ("YYYY-MM") in query order, without repeats. */
  readonly dates: string[];
  /** The text of each date-shaped phrase with a year that is not on the calendar ("31/02/2026"). */
  readonly invalid: string[];
}

/** The reference date chrono is given, so that nothing depends on the clock. Never surfaces. */
const REFERENCE = new Date(Date.UTC(2000, 0, 1, 12));

const PT_MONTH_NAMES: Readonly<Record<string, number>> = {
  janeiro: 1, fevereiro: 2, "março": 3, marco: 3, abril: 4, maio: 5, junho: 6, julho: 7,
  agosto: 8, setembro: 9, outubro: 10, novembro: 11, dezembro: 12,
};

/**
 * "set", "out", "dez" are English words too ("data set 2026", "roll out 2026"): with a year
 * alone they read as a month only after "de" or before "/" ("set de 2026", "set/2026").
 */
const PT_MONTH_ABBREVIATIONS: Readonly<Record<string, number>> = {
  jan: 1, fev: 2, mar: 3, abr: 4, mai: 5, jun: 6, jul: 7, ago: 8, set: 9, out: 10, nov: 11, dez: 12,
};

const EN_MONTHS: Readonly<Record<string, number>> = {
  january: 1, jan: 1, february: 2, feb: 2, march: 3, mar: 3, april: 4, apr: 4, may: 5,
  june: 6, jun: 6, july: 7, jul: 7, august: 8, aug: 8, september: 9, sept: 9, sep: 9,
  october: 10, oct: 10, november: 11, nov: 11, december: 12, dec: 12,
};

const ES_MONTH_NAMES: Readonly<Record<string, number>> = {
  enero: 1, febrero: 2, marzo: 3, abril: 4, mayo: 5, junio: 6, julio: 7, agosto: 8, septiembre: 9,
  setiembre: 9, octubre: 10, noviembre: 11, diciembre: 12,
};

/**
 * As in Portuguese, "mar", "may", "set" and "sep" are words of their own (the sea, English
 * "may"): with a year alone they read as a month only after "de" or before "/".
 */
const ES_MONTH_ABBREVIATIONS: Readonly<Record<string, number>> = {
  ene: 1, feb: 2, mar: 3, abr: 4, may: 5, jun: 6, jul: 7, ago: 8, sep: 9, sept: 9, set: 9, oct: 10,
  nov: 11, dic: 12,
};

/** Longest names first, so "março" is tried before "mar". */
function monthAlternation(months: Readonly<Record<string, number>>): string {
  return Object.keys(months)
    .sort((a, b) => b.length - a.length || (a < b ? -1 : 1))
    .join("|");
}

/** The joiners of an English month and its year: "of", a comma, a slash, or just a space. */
const ENGLISH_JOINER = "(?:\\s+of\\s+|\\s*[,/]\\s*|\\s+)";
/**
 * The joiners of a pt or es month name and its year: "de", a slash, or just a space. Not a comma:
 * "setembro, 1990" is the end of a street address ("Rua Sete de Setembro, 1990"), while a month
 * is written "setembro de 1990".
 */
const NAME_JOINER = "(?:\\s+de\\s+|\\s*/\\s*|\\s+)";
/** The joiners of a pt or es abbreviation: "de" or a slash only. */
const ABBREVIATION_JOINER = "(?:\\s+de\\s+|\\s*/\\s*)";

/**
 * The month-and-year rule chrono's strict parsers lack: a month name, an optional "." after an
 * abbreviation, a joiner and a four-digit year. Linear: one alternation of literals, then
 * fixed classes.
 */
function monthYearParser(months: Readonly<Record<string, number>>, joiner: string): Parser {
  const pattern = new RegExp(
    `(?<![\\p{L}\\p{N}])(${monthAlternation(months)})\\.?${joiner}(\\d{4})(?![\\p{L}\\p{N}])`,
    "iu",
  );
  return {
    pattern: () => pattern,
    extract: (_context: ParsingContext, match: RegExpMatchArray) => {
      const month = months[(match[1] ?? "").toLowerCase()];
      const year = Number(match[2]);
      return month === undefined ? null : { year, month };
    },
  };
}

/** The start of a result, and its end when it is a range. */
function endsOf<C>(result: { readonly start: C; readonly end?: C | null | undefined }): C[] {
  return result.end == null ? [result.start] : [result.start, result.end];
}

/**
 * The parse option that carries one call's list of impossible dates to the refiner below: chrono
 * hands each refiner the option it was given, so nothing is shared between calls.
 */
interface NotingOption extends ParsingOption {
  readonly impossible: ParsingResult[];
}

/**
 * Runs first, before chrono filters out impossible dates, and notes the dated ones for
 * `invalid`: a day and month with no year ("31/02") is yearless, so it is ignored, not invalid.
 */
const noteImpossible: Refiner = {
  refine: (context, results) => {
    const { impossible } = context.option as Partial<NotingOption>;
    for (const result of results) {
      const dated = (c: ParsingResult["start"]): boolean => c.isCertain("day") && c.isCertain("month") && c.isCertain("year");
      if (endsOf(result).some((c) => dated(c) && !c.isValidDate())) {
        impossible?.push(result);
      }
    }
    return results;
  },
};

/** chrono's strict configuration of one locale, with our month-and-year rules added. */
function configurationOf(locale: Locale, dayFirst: boolean): ReturnType<typeof chrono.pt.createConfiguration> {
  switch (locale) {
    case "pt-BR": {
      const configuration = chrono.pt.createConfiguration(true, dayFirst);
      configuration.parsers.push(
        monthYearParser(PT_MONTH_NAMES, NAME_JOINER),
        monthYearParser(PT_MONTH_ABBREVIATIONS, ABBREVIATION_JOINER),
      );
      return configuration;
    }
    case "en": {
      const configuration = chrono.en.configuration.createConfiguration(true, dayFirst);
      configuration.parsers.push(monthYearParser(EN_MONTHS, ENGLISH_JOINER));
      return configuration;
    }
    case "es": {
      const configuration = chrono.es.createConfiguration(true, dayFirst);
      configuration.parsers.push(
        monthYearParser(ES_MONTH_NAMES, NAME_JOINER),
        monthYearParser(ES_MONTH_ABBREVIATIONS, ABBREVIATION_JOINER),
      );
      return configuration;
    }
  }
}

function buildParser(locale: Locale, dayFirst: boolean): Chrono {
  const configuration = configurationOf(locale, dayFirst);
  configuration.refiners.unshift(noteImpossible);
  return new chrono.Chrono(configuration);
}

/** One parser per locale, in `LOCALES` order, for each `dayFirst`, built on first use. */
const parsers = new Map<boolean, ReadonlyMap<Locale, Chrono>>();

/** The parsers of the languages asked for; an unknown locale is misuse and throws. */
function parsersFor(dayFirst: boolean, locale: Locale | undefined): readonly Chrono[] {
  if (locale !== undefined) checkLocale(locale, "findDates");
  let built = parsers.get(dayFirst);
  if (built === undefined) {
    built = new Map(LOCALES.map((each) => [each, buildParser(each, dayFirst)]));
    parsers.set(dayFirst, built);
  }
  return locale === undefined ? [...built.values()] : [built.get(locale) as Chrono];
}

const pad = (n: number, width: number): string => String(n).padStart(width, "0");

/** "YYYY-MM-DD" for a certain day, "YYYY-MM" for a certain month, null for anything implied. */
function dateOf(components: ParsedResult["start"]): string | null {
  if (!components.isCertain("year") || !components.isCertain("month")) return null;
  const year = components.get("year") ?? 0;
  const month = components.get("month") ?? 0;
  const ym = `${pad(year, 4)}-${pad(month, 2)}`;
  return components.isCertain("day") ? `${ym}-${pad(components.get("day") ?? 0, 2)}` : ym;
}

/** "3 days ago", "within 3 days": chrono computes these from the reference date, so they are dropped. */
function isRelative(result: ParsedResult): boolean {
  for (const tag of result.tags()) if (tag.startsWith("result/relativeDate")) return true;
  return false;
}

const isDigit = (char: string): boolean => char >= "0" && char <= "9";
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
/** The characters that join the numbers of a numeric date, and of codes that look like one. */
const NUMBER_JOINERS = new Set([".", "-", "/"]);

/**
 * Whether a date's numeric edges stand alone: a date that starts or ends with a digit may not
 * touch a letter or a digit there, nor a ".", "-" or "/" that continues the run of digits. So no
 * date is read inside a longer run: "CNAE 0115-6/00", "processo 0001234-56.2026.8.26.0100",
 * "3.8.2026.1" and "v1.2.2026" hold none.
 */
function standsAlone(text: string, start: number, end: number): boolean {
  const touches = (char: string, next: string): boolean =>
    LETTER_OR_DIGIT.test(char) || (NUMBER_JOINERS.has(char) && isDigit(next));
  if (isDigit(text.charAt(start)) && touches(text.charAt(start - 1), text.charAt(start - 2))) return false;
  if (isDigit(text.charAt(end - 1)) && touches(text.charAt(end), text.charAt(end + 1))) return false;
  return true;
}

/** A version word at the end of the text before a date: "versão", "version", "versión", "v". */
const VERSION_WORD = /(?:^|[^\p{L}\p{N}])(?:vers[aã]o|versi[oó]n|v)\.?$/iu;

/** "versão 3.8.2026", "version 2026-08-03": a number right after a version word names a version. */
function followsVersionWord(text: string, start: number): boolean {
  return isDigit(text.charAt(start)) && VERSION_WORD.test(text.slice(Math.max(0, start - 12), start).trimEnd());
}

/**
 * "25 de Março, 1200", "7 de Setembro, 2000": a day, a month name, a comma and a number is how
 * Brazilian streets are named and numbered, not how a date is written in Portuguese or Spanish
 * (that is "25 de março de 2026"), so it is not read as a date in any language.
 */
function isStreetAddress(date: string): boolean {
  const comma = date.lastIndexOf(",");
  if (comma < 0 || !/^\s*\d+$/.test(date.slice(comma + 1))) return false;
  return /^\d{1,2}[ºª°]?\s+(?:de\s+)?\p{L}+\.?\s*$/iu.test(date.slice(0, comma));
}

/** Every year the result names with certainty lies in the window. */
function inYearWindow(result: ParsedResult, window: YearWindow): boolean {
  return endsOf(result).every((c) => {
    const year = c.get("year");
    return !c.isCertain("year") || year === null || (year >= window.min && year <= window.max);
  });
}

interface YearWindow {
  readonly min: number;
  readonly max: number;
}

/** The options' year window; a window that is not two whole years in order is misuse and throws. */
function yearWindowOf(options: FindDatesOptions): YearWindow {
  const min = options.minYear ?? DEFAULT_MIN_YEAR;
  const max = options.maxYear ?? DEFAULT_MAX_YEAR;
  if (!Number.isInteger(min) || !Number.isInteger(max) || min > max) {
    throw new McpSearchError(
      `findDates: minYear ${String(min)} and maxYear ${String(max)} must be whole years, minYear not after maxYear.`,
    );
  }
  return { min, max };
}

/** A result that is a date a person meant, by the rules above; chrono's own rules came first. */
function isPlausibleDate(text: string, result: ParsedResult, window: YearWindow): boolean {
  const end = result.index + result.text.length;
  return (
    standsAlone(text, result.index, end) &&
    !followsVersionWord(text, result.index) &&
    !isStreetAddress(result.text) &&
    inYearWindow(result, window)
  );
}

interface Span {
  readonly index: number;
  readonly end: number;
  readonly result: ParsedResult;
}

/** Every language's results in text order; of two overlapping spans the longer wins (then the earlier). */
function mergeSpans(lists: readonly ParsedResult[][]): Span[] {
  const spans = lists
    .flat()
    .map((result) => ({ index: result.index, end: result.index + result.text.length, result }))
    .sort((a, b) => a.index - b.index || b.end - a.end);
  const kept: Span[] = [];
  for (const span of spans) {
    const last = kept[kept.length - 1];
    if (last === undefined || span.index >= last.end) kept.push(span);
    else if (span.end - span.index > last.end - last.index) kept[kept.length - 1] = span;
  }
  return kept;
}

/**
 * Finds the dates a query names, in pt-BR, English and Spanish at once: 2026-08-24, 24/08/2026,
 * "24 de agosto de 2026", "agosto de 2026", "August 24, 2026", "24 Aug 2026", "August 2026",
 * "3 de agosto de 2026", "3/8/2026" (day first, as in Spain and Latin America).
 *
 * - A day comes back as "YYYY-MM-DD", a month as "YYYY-MM", in query order, without repeats.
 * - A named day wins over the month containing it: "24 August 2026" is one day, and
 *   "24/08/2026 ou agosto de 2026" too. A month with no named day in it stays a month.
 * - A range ("de 24 a 26 de agosto de 2026") gives its two named ends, not the days between.
 * - An impossible date with a year (31/02/2026, 2026-02-30, 2026-13-45) goes to `invalid`, never
 *   to 3 March.
 * - Only dates with an explicit year count. Relative words ("hoje", "ontem", "ayer", "today",
 *   "last week") and yearless dates ("24 de agosto", and "31/02" too) are ignored, so the output
 *   never depends on the clock: resolve those in the server, which knows what "today" means for
 *   its data.
 * - Numbers that only look like dates are not dates: a date inside a longer run of digits and
 *   ".", "-" or "/" ("CNAE 0115-6/00", "processo 0001234-56.2026.8.26.0100") or glued to a
 *   letter ("v1.2.2026"); a number right after "versão", "version", "versión" or "v"
 *   ("versão 3.8.2026"); a day and month name followed by a comma and a number ("Rua 25 de
 *   Março, 1200", the way Brazilian streets are numbered); a year outside `minYear`..`maxYear`.
 * - A Portuguese or Spanish abbreviation with a year alone counts only after "de" or before "/"
 *   ("set de 2026", "ago/2026", "dic. de 2026"): "set", "out", "dez" and "may" are English words,
 *   so "data set 2026" and "roll out 2026" name no month. Full names ("setembro 2026") and days ("24 set 2026")
 *   are read as written. `locale` restricts the reading to one language.
 * - A number before a month and a year is a day in every language: "top 10 jun 2026" reads as
 *   "10 Jun 2026", the form "24 Aug 2026".
 *
 * @example
 * findDates("fechamento de 24 de agosto de 2026").dates; // => ["2026-08-24"]
 * findDates("August 2026 vs 2026-09-01").dates;          // => ["2026-08", "2026-09-01"]
 * findDates("31/02/2026").invalid;                       // => ["31/02/2026"]
 * findDates("data set 2026 vs set de 2026").dates;       // => ["2026-09"] (only the second)
 * findDates("CNAE 0115-6/00, Rua 25 de Março, 1200");    // => { dates: [], invalid: [] }
 */
export function findDates(query: string, options: FindDatesOptions = {}): QueryDates {
  const window = yearWindowOf(options);
  const text = query.normalize("NFC");
  const notes: ParsingResult[] = [];
  const option: NotingOption = { impossible: notes };
  const plausible = (result: ParsedResult): boolean => isPlausibleDate(text, result, window);
  const lists = parsersFor(options.dayFirst ?? true, options.locale).map((parser) =>
    parser.parse(text, REFERENCE, option).filter(plausible),
  );
  const spans = mergeSpans(lists);

  // Sets and one pass over the sorted spans, not list searches: 200 KB of distinct dates once
  // took seconds.
  const found = new Set<string>();
  for (const { result } of spans) {
    if (isRelative(result)) continue;
    for (const components of endsOf(result)) {
      const date = dateOf(components);
      if (date !== null) found.add(date);
    }
  }
  const monthsWithDays = new Set<string>();
  for (const date of found) if (date.length === 10) monthsWithDays.add(date.slice(0, 7));
  const dates = [...found].filter((date) => date.length === 10 || !monthsWithDays.has(date));

  const invalid = new Set<string>();
  const sortedNotes = notes.filter(plausible).sort((a, b) => a.index - b.index);
  // The spans are sorted and disjoint: walk them beside the notes, sorted by start too.
  let next = 0;
  for (const note of sortedNotes) {
    const end = note.index + note.text.length;
    while (next < spans.length && (spans[next] as Span).end <= note.index) next += 1;
    const span = spans[next];
    const covered = span !== undefined && span.index < end;
    if (!covered) invalid.add(note.text);
  }
  return { dates, invalid: [...invalid] };
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function isCalendarDay(value: string): boolean {
  const match = DAY.exec(value);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * Keeps only the dates the server holds: a named day if it is held, a month as every held day
 * inside it. The result is ascending and without repeats, whatever the order of `dates`: it is
 * the set of days to answer with, so "24 and 21 August" and "21 and 24 August" get the same
 * answer (the query's order is still in `findDates(...).dates`). A date with no record (a
 * weekend, a holiday) simply drops out, so the honest answer to it is an empty result.
 *
 * Throws {@link McpSearchError} when `held` contains a value that is not a real "YYYY-MM-DD"
 * day: that is a bug in the server's data, not a request outcome.
 *
 * @example
 * const held = ["2026-08-21", "2026-08-24", "2026-08-25"];
 * keepHeldDates(["2026-08-22"], held);               // => [] (a Saturday)
 * keepHeldDates(["2026-08-25", "2026-08-21"], held); // => ["2026-08-21", "2026-08-25"]
 * keepHeldDates(["2026-08-24", "2026-08"], held);    // => ["2026-08-21", "2026-08-24", "2026-08-25"]
 */
export function keepHeldDates(dates: readonly string[], held: Iterable<string>): string[] {
  const days = new Set<string>();
  let position = 0;
  for (const day of held) {
    if (typeof day !== "string" || !isCalendarDay(day)) {
      throw new McpSearchError(
        `keepHeldDates: held[${position}] ${JSON.stringify(day)} is not a calendar day "YYYY-MM-DD".`,
      );
    }
    days.add(day);
    position += 1;
  }
  const asked = new Set(dates);
  // "YYYY-MM-DD" strings sort as days; a held day is kept when it, its month or its year was asked for.
  return [...days].sort().filter((day) => asked.has(day) || asked.has(day.slice(0, 7)) || asked.has(day.slice(0, 4)));
}
