import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  McpSearchError,
} from "../../src/index.js";
import {
  findDates,
  keepHeldDates,
} from "../../src/site/dates.js";

describe("findDates", () => {
  // Every form the issue names, in both languages, plus the neighbours people actually type.
  const days: readonly [string, string[]][] = [
    ["2026-08-24", ["2026-08-24"]],
    ["24/08/2026", ["2026-08-24"]],
    ["24.08.2026", ["2026-08-24"]],
    ["24/08/26", ["2026-08-24"]],
    ["2026/08/24", ["2026-08-24"]],
    ["2026-08-24T15:42:00Z", ["2026-08-24"]],
    ["24 de agosto de 2026", ["2026-08-24"]],
    ["1º de março de 2026", ["2026-03-01"]],
    ["segunda-feira, 24 de agosto de 2026", ["2026-08-24"]],
    ["August 24, 2026", ["2026-08-24"]],
    ["August 24th, 2026", ["2026-08-24"]],
    ["Monday, August 24, 2026", ["2026-08-24"]],
    ["24 Aug 2026", ["2026-08-24"]],
    ["24 August 2026", ["2026-08-24"]],
    ["2026 August 24", ["2026-08-24"]],
    ["29/02/2028", ["2028-02-29"]],
    ["24 de set de 2026", ["2026-09-24"]],
    ["24 set. 2026", ["2026-09-24"]],
  ];
  const months: readonly [string, string[]][] = [
    ["agosto de 2026", ["2026-08"]],
    ["agosto 2026", ["2026-08"]],
    ["Agosto De 2026", ["2026-08"]],
    ["ago. de 2026", ["2026-08"]],
    ["março de 2026", ["2026-03"]],
    ["marco de 2026", ["2026-03"]],
    ["setembro/2026", ["2026-09"]],
    ["setembro 2026", ["2026-09"]],
    ["set de 2026", ["2026-09"]],
    ["out. de 2026", ["2026-10"]],
    ["dez de 2026", ["2026-12"]],
    ["ago/2026", ["2026-08"]],
    ["August 2026", ["2026-08"]],
    ["AUGUST 2026", ["2026-08"]],
    ["Aug. 2026", ["2026-08"]],
    ["in March of 2026", ["2026-03"]],
    ["September, 2026", ["2026-09"]],
    ["12/2026", ["2026-12"]],
  ];
  it.each([...days, ...months])("reads %j as %j", (query, expected) => {
    expect(findDates(query)).toStrictEqual({ dates: expected, invalid: [] });
  });

  // "set", "out", "dez" are English words: a pt abbreviation needs "de" or "/" to be a month.
  it.each([
    ["census data set 2026", []],
    ["roll out 2026 plan", []],
    ["set 2026 targets", []],
    ["dez 2026", []],
    ["the data set 2026 vs set de 2026", ["2026-09"]],
    ["sold out 2026, again in out/2026", ["2026-10"]],
    ["jan 2026", ["2026-01"]], // the English abbreviation
    ["top 10 jun 2026", ["2026-06-10"]], // "10 Jun 2026", the form "24 Aug 2026", in both languages
  ])("reads a pt abbreviation as a month only with \"de\" or \"/\": %j", (query, expected) => {
    expect(findDates(query)).toStrictEqual({ dates: expected, invalid: [] });
  });

  it.each([
    ["24 de agosto de 2026 e 24 Aug 2026", undefined, ["2026-08-24"]],
    ["24 de agosto de 2026 e 25 Aug 2026", undefined, ["2026-08-24", "2026-08-25"]],
    ["24 de agosto de 2026 e 25 Aug 2026", "pt-BR", ["2026-08-24"]],
    ["24 de agosto de 2026 e 25 Aug 2026", "en", ["2026-08-25"]],
    ["agosto de 2026, August 2026", "pt-BR", ["2026-08"]],
    ["jan 2026", "pt-BR", []],
    ["2026-08-24 e 24/08/2026", "en", ["2026-08-24"]],
  ] as const)("reads %j with locale %s as %j", (query, locale, expected) => {
    expect(findDates(query, locale === undefined ? {} : { locale }).dates).toStrictEqual(expected);
  });

  it("throws McpSearchError on a locale it does not know, naming it", () => {
    expect(() => findDates("agosto de 2026", { locale: "de" as never })).toThrow(McpSearchError);
    expect(() => findDates("agosto de 2026", { locale: "de" as never })).toThrow(/"de"/);
  });

  it("finds dates inside a sentence, in query order, without repeats", () => {
    expect(findDates("fechamento de 24 de agosto de 2026 comparado a 21/08/2026 e 2026-08-24").dates)
      .toStrictEqual(["2026-08-24", "2026-08-21"]);
    expect(findDates("where was the gamma flip on August 21, 2026 and in July 2026?").dates)
      .toStrictEqual(["2026-08-21", "2026-07"]);
  });

  it("reads a query that mixes the two languages", () => {
    expect(findDates("gamma flip 24 Aug 2026 vs setembro de 2026").dates).toStrictEqual(["2026-08-24", "2026-09"]);
  });

  // The field report's one non-obvious rule.
  const dayBeatsMonth: readonly [string, string[]][] = [
    ["24 August 2026", ["2026-08-24"]],
    ["24 de agosto de 2026", ["2026-08-24"]],
    ["August 2026, especially 24 August 2026", ["2026-08-24"]],
    ["agosto de 2026, sobretudo 24/08/2026", ["2026-08-24"]],
    ["24/08/2026 ou o resto de agosto de 2026", ["2026-08-24"]],
    ["agosto de 2026, setembro de 2026 e 03/09/2026", ["2026-08", "2026-09-03"]],
    ["August 2026 and 2025-08-24", ["2026-08", "2025-08-24"]],
  ];
  it.each(dayBeatsMonth)("lets a named day beat the month containing it: %j", (query, expected) => {
    expect(findDates(query).dates).toStrictEqual(expected);
  });

  it.each([
    ["05/08/2026", true, "2026-08-05"],
    ["05/08/2026", false, "2026-05-08"],
    ["24/08/2026", false, "2026-08-24"],
    ["08/24/2026", true, "2026-08-24"],
    ["08/24/2026", false, "2026-08-24"],
  ] as const)("reads %j with dayFirst %s as %s", (query, dayFirst, expected) => {
    expect(findDates(query, { dayFirst }).dates).toStrictEqual([expected]);
  });

  it.each(["31/02/2026", "2026-02-31", "29/02/2027", "31 de fevereiro de 2026", "February 31, 2026", "2026-13-01"])(
    "reports the impossible date %j instead of rolling it over",
    (query) => {
      expect(findDates(query)).toStrictEqual({ dates: [], invalid: [query] });
    },
  );

  it("keeps the real dates around an impossible one", () => {
    expect(findDates("24/08/2026 e 31/02/2026 e agosto de 2025")).toStrictEqual({
      dates: ["2026-08-24", "2025-08"],
      invalid: ["31/02/2026"],
    });
  });

  it.each([
    "hoje", "ontem", "amanhã", "today", "yesterday", "tomorrow", "3 days ago", "within 3 days", "in 2 weeks",
    "3 days from now", "há 3 dias", "daqui a 3 dias", "last Monday", "next week", "24 de agosto", "August 24",
    "em 2026", "SPX gamma flip right now", "versão 1.2.3", "",
  ])("finds no date in %j: relative and yearless dates depend on the clock", (query) => {
    expect(findDates(query)).toStrictEqual({ dates: [], invalid: [] });
  });

  // Numbers that are not dates, as they turn up in Brazilian queries: codes, case numbers,
  // versions, addresses. A date never sits inside a longer run of digits and joiners.
  it.each([
    ["CNAE 0115-6/00", "an activity code (CNAE)"],
    ["empresas da CNAE 4711-3/02 em São Paulo", "an activity code inside a sentence"],
    ["processo 0001234-56.2026.8.26.0100", "a court case number (CNJ)"],
    ["NF 35.260.812/0001-90", "a company registry number (CNPJ)"],
    ["tel 3.8.2026.1", "a dotted run longer than a date"],
    ["versão 3.8.2026", "a version after \"versão\""],
    ["release notes for version 2026-08-03", "a CalVer version after \"version\""],
    ["instale a v1.2.2026", "a version glued to \"v\""],
    ["Rua 25 de Março, 1200", "a street address: day, month name, comma, number"],
    ["Av. Sete de Setembro, 1990 e Rua 7 de Setembro, 2000", "addresses whose numbers look like years"],
    ["Rua 25 de Março, 1200 - São Paulo", "an address followed by its city"],
  ])("finds no date in %j: %s", (query) => {
    expect(findDates(query)).toStrictEqual({ dates: [], invalid: [] });
  });

  it.each([
    ["versão de 3.8.2026", ["2026-08-03"]], // "the version of 3 August 2026": "de" makes it a date
    ["loja na Rua 25 de Março, aberta em 25 de março de 2026", ["2026-03-25"]],
    ["March 25, 2026", ["2026-03-25"]],
    ["24/08/2026-25/08/2026", ["2026-08-24", "2026-08-25"]], // a range joined by "-"
    ["(24/08/2026).", ["2026-08-24"]],
    ["fechou em 24.08.2026.", ["2026-08-24"]],
    ["processo 0001234-56.2026.8.26.0100, julgado em 24/08/2026", ["2026-08-24"]],
  ])("still reads the date in %j", (query, expected) => {
    expect(findDates(query)).toStrictEqual({ dates: expected, invalid: [] });
  });

  it("reads only years in the plausible window, 1900 to 2100 by default", () => {
    expect(findDates("25 de março de 1200 e 24/08/1899 e 01/01/2101")).toStrictEqual({ dates: [], invalid: [] });
    expect(findDates("1 de janeiro de 1900 e 31/12/2100").dates).toStrictEqual(["1900-01-01", "2100-12-31"]);
    expect(findDates("31/02/1850")).toStrictEqual({ dates: [], invalid: [] }); // out of the window, so not a date at all
    expect(findDates("25 de março de 1500", { minYear: 1500 }).dates).toStrictEqual(["1500-03-25"]);
    expect(findDates("agosto de 2026 e agosto de 2031", { maxYear: 2030 }).dates).toStrictEqual(["2026-08"]);
  });

  it.each([
    [{ minYear: 2030, maxYear: 2000 }],
    [{ minYear: 1900.5 }],
    [{ maxYear: Number.NaN }],
  ])("throws McpSearchError on the year window %j", (options) => {
    expect(() => findDates("agosto de 2026", options)).toThrow(McpSearchError);
    expect(() => findDates("agosto de 2026", options)).toThrow(/minYear/);
  });

  // Only a dated impossibility is invalid: a yearless one is ignored, like every yearless date.
  it.each([
    ["vence em 31/02", { dates: [], invalid: [] }],
    ["vence em 31/02/2026", { dates: [], invalid: ["31/02/2026"] }],
    ["entre 30/02 e 24/08/2026", { dates: ["2026-08-24"], invalid: [] }],
  ])("reports %j as %j", (query, expected) => {
    expect(findDates(query)).toStrictEqual(expected);
  });

  it("gives a range its two named ends", () => {
    expect(findDates("de 24 a 26 de agosto de 2026").dates).toStrictEqual(["2026-08-24", "2026-08-26"]);
    expect(findDates("from August 24 to 26, 2026").dates).toStrictEqual(["2026-08-24", "2026-08-26"]);
  });

  const anyDay = fc
    .date({ min: new Date(Date.UTC(1950, 0, 1)), max: new Date(Date.UTC(2099, 11, 31)), noInvalidDate: true })
    .map((d) => ({ y: d.getUTCFullYear(), m: d.getUTCMonth() + 1, d: d.getUTCDate() }));
  const PT = ["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"];
  const EN = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
  const two = (n: number): string => String(n).padStart(2, "0");

  it("reads every calendar day in every written form, and its month when no day is named", () => {
    fc.assert(
      fc.property(anyDay, fc.integer({ min: 0, max: 5 }), ({ y, m, d }, form) => {
        const iso = `${y}-${two(m)}-${two(d)}`;
        const pt = PT[m - 1] ?? "";
        const en = EN[m - 1] ?? "";
        const written = [
          iso,
          `${two(d)}/${two(m)}/${y}`,
          `${d} de ${pt} de ${y}`,
          `${en} ${d}, ${y}`,
          `${d} ${en.slice(0, 3)} ${y}`,
          `${d} ${en} ${y}`,
        ][form];
        expect(findDates(`dados de ${written} por favor`).dates).toStrictEqual([iso]);
        expect(findDates(`${pt} de ${y}`).dates).toStrictEqual([iso.slice(0, 7)]);
        expect(findDates(`${en} ${y}`).dates).toStrictEqual([iso.slice(0, 7)]);
        // The day wins over its own month, in either order.
        expect(findDates(`${written} e ${pt} de ${y}`).dates).toStrictEqual([iso]);
        expect(findDates(`${en} ${y}: ${written}`).dates).toStrictEqual([iso]);
      }),
      { numRuns: 150 },
    );
  });
});

describe("findDates in Spanish", () => {
  it.each([
    ["3 de agosto de 2026", ["2026-08-03"]],
    ["agosto de 2026", ["2026-08"]],
    ["3/8/2026", ["2026-08-03"]], // day before month
    ["03/08/2026", ["2026-08-03"]],
    ["lunes, 3 de agosto de 2026", ["2026-08-03"]],
    ["1º de marzo de 2026", ["2026-03-01"]],
    ["marzo de 2026", ["2026-03"]],
    ["Septiembre de 2026", ["2026-09"]],
    ["setiembre de 2026", ["2026-09"]],
    ["diciembre 2026", ["2026-12"]],
    ["enero/2026", ["2026-01"]],
    ["dic. de 2026", ["2026-12"]],
    ["ene/2026", ["2026-01"]],
    ["3 ago 2026", ["2026-08-03"]],
    ["cierre del 3 de agosto de 2026 frente al 31/07/2026", ["2026-08-03", "2026-07-31"]],
    ["agosto de 2026, sobre todo el 3/8/2026", ["2026-08-03"]],
    ["el mar 2026", []], // "mar" is the sea: an abbreviation needs "de" or "/"
    ["may 2026", []],
    ["ayer", []],
    ["hoy", []],
    ["3 de agosto", []],
  ] as const)("reads %j as %j with locale es", (query, expected) => {
    expect(findDates(query, { locale: "es" })).toStrictEqual({ dates: expected, invalid: [] });
  });

  it.each([
    ["3 de agosto de 2026", ["2026-08-03"]],
    ["enero de 2026 y 3/8/2026", ["2026-01", "2026-08-03"]],
    ["diciembre de 2026", ["2026-12"]],
  ] as const)("reads the Spanish %j as %j with no locale (every language at once)", (query, expected) => {
    expect(findDates(query).dates).toStrictEqual(expected);
  });

  it.each([
    ["diciembre de 2026 y December 2026", "es", ["2026-12"]],
    ["diciembre de 2026", "pt-BR", []], // not a Portuguese month
    ["diciembre de 2026", "en", []],
    ["dezembro de 2026", "es", []],
  ] as const)("reads %j with locale %s as %j", (query, locale, expected) => {
    expect(findDates(query, { locale }).dates).toStrictEqual(expected);
  });

  it("reports an impossible Spanish date", () => {
    expect(findDates("31 de febrero de 2026", { locale: "es" })).toStrictEqual({ dates: [], invalid: ["31 de febrero de 2026"] });
    expect(findDates("31/2/2026", { locale: "es" })).toStrictEqual({ dates: [], invalid: ["31/2/2026"] });
  });

  const ES = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"];
  it("reads every calendar day as Spanish speakers write it, and its month (property)", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date(Date.UTC(1950, 0, 1)), max: new Date(Date.UTC(2099, 11, 31)), noInvalidDate: true }),
        fc.integer({ min: 0, max: 2 }),
        (date, form) => {
          const [y, m, d] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
          const iso = `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
          const month = ES[m - 1] ?? "";
          const written = [`${d} de ${month} de ${y}`, `${d}/${m}/${y}`, `${d} ${month} ${y}`][form];
          for (const options of [{ locale: "es" } as const, {}]) {
            expect(findDates(`datos del ${written}, por favor`, options).dates).toStrictEqual([iso]);
            expect(findDates(`${month} de ${y}`, options).dates).toStrictEqual([iso.slice(0, 7)]);
            expect(findDates(`${month} de ${y}: ${written}`, options).dates).toStrictEqual([iso]);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe("keepHeldDates", () => {
  // A trading calendar: weekdays only, Friday 21 and Monday 24 August 2026 around a weekend.
  const held = ["2026-08-20", "2026-08-21", "2026-08-24", "2026-08-25", "2026-09-01"];

  it.each([
    [["2026-08-22"], []],
    [["2026-08-24"], ["2026-08-24"]],
    [["2026-08"], ["2026-08-20", "2026-08-21", "2026-08-24", "2026-08-25"]],
    [["2026-08-25", "2026-08"], ["2026-08-20", "2026-08-21", "2026-08-24", "2026-08-25"]],
    [["2026-09", "2026-08-21"], ["2026-08-21", "2026-09-01"]],
    [["2026-08-25", "2026-08-21", "2026-08-25"], ["2026-08-21", "2026-08-25"]],
    [["2026-10"], []],
    [[], []],
  ] as const)("keeps %j as %j", (dates, expected) => {
    expect(keepHeldDates(dates, held)).toStrictEqual(expected);
  });

  it("takes any iterable, in any order, and sorts a month's days", () => {
    expect(keepHeldDates(["2026-08"], new Set(["2026-08-25", "2026-08-03"]))).toStrictEqual(["2026-08-03", "2026-08-25"]);
  });

  it("answers in ascending order, whatever order the query names the days in", () => {
    const askedLate = findDates("compare 25/08/2026 com 21/08/2026 e com setembro de 2026").dates;
    const askedEarly = findDates("setembro de 2026, 21/08/2026 e 25/08/2026").dates;
    expect(askedLate).toStrictEqual(["2026-08-25", "2026-08-21", "2026-09"]); // findDates keeps the query's order
    expect(keepHeldDates(askedLate, held)).toStrictEqual(["2026-08-21", "2026-08-25", "2026-09-01"]);
    expect(keepHeldDates(askedEarly, held)).toStrictEqual(keepHeldDates(askedLate, held));
  });

  it("answers a weekend query with nothing, straight from the query", () => {
    expect(keepHeldDates(findDates("o que houve no sábado, 22 de agosto de 2026?").dates, held)).toStrictEqual([]);
  });

  it.each(["2026-8-24", "2026-02-30", "24/08/2026", ""])("throws McpSearchError on the held value %j", (bad) => {
    expect(() => keepHeldDates(["2026-08"], ["2026-08-24", bad])).toThrow(McpSearchError);
    expect(() => keepHeldDates(["2026-08"], ["2026-08-24", bad])).toThrow(`held[1] ${JSON.stringify(bad)}`);
  });

  it("returns only held dates, each once, ascending", () => {
    const day = fc.integer({ min: 1, max: 28 }).map((d) => `2026-0${1 + (d % 3)}-${String(d).padStart(2, "0")}`);
    const asked = fc.oneof(day, fc.constantFrom("2026-01", "2026-02", "2026-03", "2026-04"));
    fc.assert(
      fc.property(fc.array(asked, { maxLength: 8 }), fc.array(day, { maxLength: 30 }), (dates, server) => {
        const kept = keepHeldDates(dates, server);
        expect(new Set(kept).size).toBe(kept.length);
        expect(kept).toStrictEqual([...kept].sort());
        for (const k of kept) {
          expect(server).toContain(k);
          expect(dates.some((d) => d === k || k.startsWith(`${d}-`))).toBe(true);
        }
      }),
    );
  });
});
