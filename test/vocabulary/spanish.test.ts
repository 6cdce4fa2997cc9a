import { existsSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createVocabulary } from "../../src/index.js";
import { singularEs as singular } from "../../src/languages/es.js";
import { normalizeText } from "../../src/ranking/normalize.js";

// Real INE (Instituto Nacional de Estadística, Spain) operation names, and the words people ask with.
const ine = createVocabulary({
  locale: "es",
  sourceName: "el INE",
  entries: [
    { asked: "paro", source: ["desemple", "parados"] },
    { asked: "bodas", source: ["matrimonio"] },
    { asked: "muertes", source: ["defuncion"] },
    { asked: "inflación", source: ["precios de consumo"] },
    { asked: "luz", source: ["electricidad"] },
  ],
});
const INE_NAMES = [
  "Índice de Precios de Consumo (IPC)",
  "Encuesta de Población Activa (EPA)",
  "Defunciones según la causa de muerte",
  "Estadística de Matrimonios",
  "Encuesta de Presupuestos Familiares",
  "Cifras de Población y Censos Demográficos",
  "Estadística de Variaciones Residenciales",
] as const;

describe("es vocabulary", () => {
  it.each([
    ["luces", ["luces", "luz", "electricidad"]],
    ["ciudades", ["ciudades", "ciudad"]],
    ["casas", ["casas", "casa"]],
    ["defunciones", ["defunciones", "defuncion"]],
    ["matrimonios", ["matrimonios", "matrimonio"]],
    ["presupuestos", ["presupuestos", "presupuesto"]],
    ["países", ["paises", "pais"]],
    ["leyes", ["leyes", "ley"]],
    ["veces", ["veces", "vez"]],
    ["raíces", ["raices", "raiz"]],
    ["nueces", ["nueces", "nuez"]],
    ["índices", ["indices", "indi"]], // "índice" and "índices" share "indi"; "indiz" is no word
    ["actrices", ["actrices", "actri"]], // reaches "actriz"
    ["dulces", ["dulces", "dulc"]],
    ["entonces", ["entonces", "entonc"]], // a singular that ends in -ces is not cut to a -z
    ["jabalíes", ["jabalies", "jabali"]],
    ["héroes", ["heroes", "heroe"]],
    ["tres", ["tres"]],
    ["mes", ["mes"]],
    ["bodas", ["bodas", "matrimonio", "boda"]],
  ])("expandTerm(%j) is %j", (word, expected) => {
    expect(ine.expandTerm(word)).toStrictEqual(expected);
  });

  it.each([
    ["índices de precios", ["Índice de Precios de Consumo (IPC)"]],
    ["muertes", ["Defunciones según la causa de muerte"]],
    ["las bodas", ["Estadística de Matrimonios"]],
    ["presupuestos de las familias", ["Encuesta de Presupuestos Familiares"]],
    ["la inflación", ["Índice de Precios de Consumo (IPC)"]],
    ["censos", ["Cifras de Población y Censos Demográficos"]],
    ["variaciones residenciales", ["Estadística de Variaciones Residenciales"]],
  ])("%j matches %j among real INE names", (query, expected) => {
    const expanded = ine.expandQuery(query);
    expect(INE_NAMES.filter((name) => ine.matchesQuery(ine.normalize(name), expanded))).toStrictEqual(expected);
  });

  it("keeps Spanish function words out of the AND", () => {
    expect(ine.queryTerms("el paro de los jóvenes en las ciudades")).toStrictEqual(["paro", "jovenes", "ciudades"]);
    expect(ine.queryTerms("de la")).toStrictEqual(["de", "la"]);
  });

  it("writes its notes in Spanish", () => {
    expect(ine.vocabularyNotes(ine.expandQuery("paro y bodas"))).toStrictEqual([
      '"paro" también se buscó como desemple, parados — la palabra que usa el INE.',
      '"bodas" también se buscó como matrimonio — la palabra que usa el INE.',
    ]);
    expect(ine.askedWordsFor("Estadística de Matrimonios")).toStrictEqual(["bodas"]);
  });
});

// ---------------------------------------------------------------------------------------------
// The singular rules never fabricate: whatever a rule produces is the start of a real word.

/** Normalised, sorted, without repeats. */
function wordList(text: string): string[] {
  return [...new Set(text.split("\n").filter((line) => line !== "").map(normalizeText))].sort();
}

/** True when some word of the sorted list starts with `prefix` (binary search). */
function startsSomeWord(sorted: readonly string[], prefix: string): boolean {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((sorted[middle] as string) < prefix) low = middle + 1;
    else high = middle;
  }
  return low < sorted.length && (sorted[low] as string).startsWith(prefix);
}

/**
 * The plurals of one dictionary word (the list holds singulars), by the Academy's rules: -z to
 * -ces after a vowel, +s after an unstressed vowel, +s and +es after a stressed í or ú, +es after
 * a consonant. Words in -s, -x, -c, and consonant + z (foreign: "seltz") keep no regular plural.
 */
function pluralsOf(written: string): string[] {
  const word = normalizeText(written);
  if (/[aeiou]z$/.test(word)) return [`${word.slice(0, -1)}ces`];
  if (/[íú]$/.test(written)) return [`${word}s`, `${word}es`];
  if (/[aeiou]$/.test(word)) return [`${word}s`];
  if (/[sxcz]$/.test(word) || !/[a-z]$/.test(word)) return [];
  return [`${word}es`];
}

/** Every input on which a rule fired and produced no start of a word of `sorted`. */
function fabrications(rule: (word: string) => string, written: readonly string[], sorted: readonly string[]): string[] {
  const bad: string[] = [];
  for (const input of [...sorted, ...written.flatMap(pluralsOf)]) {
    const output = rule(input);
    if (output !== input && !startsSomeWord(sorted, output)) bad.push(`${input} → ${output}`);
  }
  return bad;
}

const FIXTURE = readFileSync(new URL("../fixtures/spanish-words.txt", import.meta.url), "utf8");
const DEBIAN = "/usr/share/dict/spanish";

describe("es singular rules never fabricate a fragment", () => {
  const written = FIXTURE.split("\n").filter((line) => line !== "");
  const sorted = wordList(FIXTURE);

  it("on every word of the shipped extract of Debian's wspanish, and on its plurals", () => {
    expect(sorted.length).toBeGreaterThan(5000);
    expect(fabrications(singular, written, sorted)).toStrictEqual([]);
  });

  it("would notice a rule that fabricates: -ces always to -z, or -es always cut", () => {
    const toZ = (word: string) => (word.endsWith("ces") ? `${word.slice(0, -3)}z` : singular(word));
    expect(fabrications(toZ, written, sorted)).toEqual(expect.arrayContaining(["entonces → entonz", "indices → indiz"]));
    const cutEs = (word: string) => (word.endsWith("es") ? word.slice(0, -2) : singular(word));
    expect(fabrications(cutEs, written, sorted)).toEqual(expect.arrayContaining(["abenuces → abenuc", "acideces → acidec"]));
  });

  it("on any word of the list, pluralised (property)", () => {
    const pluralised = written.flatMap(pluralsOf);
    fc.assert(
      fc.property(fc.constantFrom(...pluralised), (plural) => {
        const output = singular(plural);
        expect(output === plural || startsSomeWord(sorted, output)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("only cuts a word, or puts the -z of the short -z words back (property)", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,14}$/), (word) => {
        const output = singular(word);
        const cut = word.startsWith(output) && output.length >= Math.min(word.length, 3);
        const toZ = word.endsWith("ces") && output === `${word.slice(0, -3)}z` && output.length <= 4;
        expect(cut || toZ).toBe(true);
      }),
    );
  });

  it.skipIf(!existsSync(DEBIAN))("on every word of the whole wspanish list, when installed", () => {
    const text = readFileSync(DEBIAN, "utf8");
    expect(fabrications(singular, text.split("\n").filter((line) => line !== ""), wordList(text))).toStrictEqual([]);
  });
});
