import { readFileSync } from "node:fs";
import { getMunicipalities } from "@brazilian-utils/brazilian-utils";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpSearchError, buildGlobClause, createVocabulary, type ExpandedTerm } from "../../src/index.js";

const vocab = createVocabulary({
  locale: "pt-BR",
  sourceName: "o IBGE",
  entries: [
    { asked: "renda", source: ["rendimento"] },
    { asked: "pressão alta", source: ["hipertens"] },
    { asked: "dentista", source: ["odontolog"] },
    { asked: "gado", source: ["bovino"] },
    { asked: "carros", source: ["automove", "automóveis"] },
  ],
});

/** Names with the characters that wildcards and quoting would trip over. */
const TRICKY_NAMES = [
  "IGP-M - Variação mensal",
  "IGP-DI - Variação mensal",
  "Casos de COVID-19",
  "Fundo 100% garantido",
  "Fundo 100 garantido",
  "Índice O'Brien",
  "Aspas \"duplas\" e ; ponto e vírgula",
  "código x_y",
  "código xay",
  "asterisco a*b",
  "colchete [xyz]",
  "pergunta a?b",
];

const cnae = JSON.parse(readFileSync(new URL("../fixtures/cnae-subclasses.json", import.meta.url), "utf8")) as [string, string][];
const NAMES: readonly string[] = [
  ...getMunicipalities().map((municipality) => municipality.name),
  ...cnae.map(([, description]) => description),
  ...TRICKY_NAMES,
];
const NORMALISED = NAMES.map(vocab.normalize);

let db: Database.Database;
beforeAll(() => {
  db = new Database(":memory:");
  db.exec("CREATE TABLE names (id INTEGER PRIMARY KEY, name TEXT NOT NULL, name_lc TEXT NOT NULL)");
  const insert = db.prepare("INSERT INTO names (id, name, name_lc) VALUES (?, ?, ?)");
  db.transaction(() => NAMES.forEach((name, id) => insert.run(id, name, NORMALISED[id]!)))();
});
afterAll(() => db.close());

function sqlIds(expanded: readonly ExpandedTerm[]): number[] {
  const { sql, params } = buildGlobClause(expanded, "name_lc");
  const rows = db.prepare(`SELECT id FROM names WHERE ${sql} ORDER BY id`).all(...params) as { id: number }[];
  return rows.map((row) => row.id);
}

function jsIds(expanded: readonly ExpandedTerm[]): number[] {
  return NORMALISED.flatMap((text, id) => (vocab.matchesQuery(text, expanded) ? [id] : []));
}

const idsOf = (...names: string[]) => names.map((name) => NAMES.indexOf(name)).sort((a, b) => a - b);

describe("buildGlobClause", () => {
  it("binds each pattern twice, ORs a term's patterns and ANDs the terms", () => {
    expect(buildGlobClause(vocab.expandQuery("soja"), "name_lc")).toStrictEqual({
      sql: "(name_lc GLOB ? OR name_lc GLOB ?)",
      params: ["soja*", "*[^a-z0-9]soja*"],
    });
    expect(buildGlobClause(vocab.expandQuery("gado leite"), "c")).toStrictEqual({
      sql: "(((c GLOB ? OR c GLOB ?) OR (c GLOB ? OR c GLOB ?)) AND (c GLOB ? OR c GLOB ?))",
      params: ["gado*", "*[^a-z0-9]gado*", "bovino*", "*[^a-z0-9]bovino*", "leite*", "*[^a-z0-9]leite*"],
    });
  });

  it.each([
    ["an empty expansion", []],
    ["a term with no pattern", [{ term: "x", patterns: [], translated: false }]],
    ["a term whose patterns strip to nothing", [{ term: "*", patterns: ["*", "[?]"], translated: false }]],
    [
      "one such term among good ones",
      [
        { term: "soja", patterns: ["soja"], translated: false },
        { term: "*", patterns: ["*"], translated: false },
      ],
    ],
  ])("gives the never-true clause for %s", (_, expanded: ExpandedTerm[]) => {
    expect(buildGlobClause(expanded, "name_lc")).toStrictEqual({ sql: "0", params: [] });
    expect(sqlIds(expanded)).toStrictEqual([]);
  });

  it("strips *?[] from patterns, drops the ones left empty and repeats none", () => {
    const expanded: ExpandedTerm[] = [{ term: "s*o?j[a]", patterns: ["s*o?j[a]", "soja", "]["], translated: false }];
    expect(buildGlobClause(expanded, "name_lc")).toStrictEqual({
      sql: "(name_lc GLOB ? OR name_lc GLOB ?)",
      params: ["soja*", "*[^a-z0-9]soja*"],
    });
  });

  it.each(["name_lc; DROP TABLE names", "1name", "names.name_lc", "", "name lc", '"name_lc"', "name_lc--", "nome_lç"])(
    "refuses the column %j with McpSearchError naming it",
    (column) => {
      const build = () => buildGlobClause(vocab.expandQuery("soja"), column);
      expect(build).toThrow(McpSearchError);
      expect(build).toThrow(`a coluna ${JSON.stringify(column)} não é um identificador simples`);
    },
  );

  it("speaks English with locale en, and refuses a column that is not text", () => {
    expect(() => buildGlobClause([], "a b", { locale: "en" })).toThrow('column "a b" is not a plain identifier');
    expect(() => buildGlobClause([], 3 as unknown as string)).toThrow(McpSearchError);
  });
});

describe("buildGlobClause against a real SQLite", () => {
  it("holds thousands of real names", () => {
    expect(NAMES.length).toBeGreaterThan(6_000);
  });

  it.each([
    ["uber", "tuberculos"],
    ["ovo", "novos"],
    ["idade", "atividade"],
  ])("never finds %j inside %j", (query, inside) => {
    const expanded = vocab.expandQuery(query);
    const ids = sqlIds(expanded);
    expect(NORMALISED.some((name) => name.includes(inside))).toBe(true);
    expect(ids.filter((id) => NORMALISED[id]!.includes(inside) && !NORMALISED[id]!.startsWith(query))).toStrictEqual([]);
    expect(ids).toStrictEqual(jsIds(expanded));
  });

  it.each([
    ["IGP-M", ["IGP-M - Variação mensal"]],
    ["covid-19", ["Casos de COVID-19"]],
  ])("finds %j across hyphens", (query, names) => {
    expect(sqlIds(vocab.expandQuery(query))).toStrictEqual(idsOf(...names));
  });

  it("reaches the table's words: dentista finds the odontological subclasses", () => {
    const ids = sqlIds(vocab.expandQuery("dentista"));
    expect(ids.map((id) => NAMES[id])).toContain("FABRICAÇÃO DE MATERIAIS PARA MEDICINA E ODONTOLOGIA");
    expect(ids).toStrictEqual(jsIds(vocab.expandQuery("dentista")));
  });

  it("returns exactly the rows matchesQuery accepts, for many queries", () => {
    const words = [...new Set(NORMALISED.flatMap((name) => name.split(/[^a-z0-9]+/)).filter((w) => w.length > 1))].sort();
    const fromCorpus = fc
      .tuple(fc.constantFrom(...words), fc.integer({ min: 1, max: 8 }))
      .map(([word, cut]) => word.slice(0, Math.max(2, word.length - cut)));
    const junk = fc.string({ unit: fc.constantFrom(..."aeiosã-'\"%_*?[] ,;()/"), maxLength: 6 });
    const askedWords = fc.constantFrom("renda", "gado", "carros", "dentista", "pressão alta", "de", "e");
    fc.assert(
      fc.property(fc.array(fc.oneof(fromCorpus, junk, askedWords), { minLength: 1, maxLength: 3 }), (parts) => {
        const expanded = vocab.expandQuery(parts.join(" "));
        expect(sqlIds(expanded)).toStrictEqual(jsIds(expanded));
      }),
      { numRuns: 150 },
    );
  });

  it.each([
    ["%", []],
    ["_", []],
    ["*", []],
    ["?", []],
    ["[xyz]", ["colchete [xyz]"]],
    ["[a-z]*", []],
    ["'", []],
    ['"', []],
    ["' OR 1=1 --", []],
    ['"; DROP TABLE names; --', []],
    ["100%", ["Fundo 100% garantido", "Fundo 100 garantido"]],
    ["10%0", []],
    ["x_y", ["código x_y"]],
    ["xa_y", []],
    ["o'brien", ["Índice O'Brien"]],
    ["a*b", []],
    ["a?b", []],
    ["\"duplas\"", ["Aspas \"duplas\" e ; ponto e vírgula"]],
  ])("%j matches nothing more than its literal words", (query, names) => {
    const expanded = vocab.expandQuery(query);
    const ids = sqlIds(expanded);
    expect(ids.filter((id) => id >= NAMES.length - TRICKY_NAMES.length)).toStrictEqual(idsOf(...names));
    expect(ids).toStrictEqual(jsIds(expanded));
    expect(db.prepare("SELECT count(*) AS n FROM names").get()).toStrictEqual({ n: NAMES.length });
  });
});

describe("the vocabulary guide", () => {
  it.each(["docs/vocabulary.md", "docs/pt-BR/vocabulary.md"])("%s asserts the clause builder's real output", (file) => {
    const readme = readFileSync(new URL(`../../${file}`, import.meta.url), "utf8");
    const example = createVocabulary({
      locale: "pt-BR",
      sourceName: "o IBGE",
      entries: [
        { asked: "renda", source: ["rendimento"] },
        { asked: "pressão alta", source: ["hipertens"] },
      ],
    });
    const expanded = example.expandQuery("renda mensal");
    expect(expanded).toStrictEqual([
      { term: "renda", patterns: ["renda", "rendimento"], translated: true },
      { term: "mensal", patterns: ["mensal"], translated: false },
    ]);
    expect(example.matchesQuery(example.normalize("Rendimento médio mensal"), expanded)).toBe(true);
    expect(example.vocabularyNotes(expanded)).toStrictEqual([
      '"renda" também foi buscado como rendimento — a palavra que o IBGE usa.',
    ]);
    expect(example.askedWordsFor("Rendimento médio mensal")).toStrictEqual(["renda"]);
    const { sql, params } = buildGlobClause(expanded, "nome_lc");
    expect(readme).toContain(`assert.equal(sql, ${JSON.stringify(sql)});\nassert.deepEqual(params, ${JSON.stringify(params)});\n`);
  });
});
