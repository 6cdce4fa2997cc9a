import { readFileSync } from "node:fs";
import { getMunicipalities } from "@brazilian-utils/brazilian-utils";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpSearchError, SQL_CLAUSE_LIMITS, buildGlobClause, createVocabulary, type ExpandedTerm } from "../../src/index.js";
import { TABLE_CASE, tableAndQuery, tableVocabulary } from "../_word-start-arbitraries.js";

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
      expect(build).toThrow(`buildGlobClause: column ${JSON.stringify(column)} is not a plain identifier`);
    },
  );

  it("refuses a column that is not text", () => {
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
      // Each run scans all 10k rows twice (SQLite and matchesQuery).
      { numRuns: 100 },
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

describe("buildGlobClause is bounded", () => {
  const cjk = Array.from({ length: 1024 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join(" ");

  it("refuses a 2047-character query of 1024 CJK words with McpSearchError naming maxTerms", () => {
    expect(cjk).toHaveLength(2047);
    const build = () => buildGlobClause(vocab.expandQuery(cjk), "name_lc");
    expect(build).toThrow(McpSearchError);
    expect(build).toThrow("buildGlobClause: the query has 1024 terms; the maximum is 16 (SQL_CLAUSE_LIMITS.maxTerms)");
  });

  it("refuses an entry of 500 sources with McpSearchError naming maxPatterns", () => {
    const wide = createVocabulary({
      sourceName: "a fonte",
      entries: [{ asked: "largo", source: Array.from({ length: 500 }, (_, i) => `fonte${String(i).padStart(3, "0")}x`) }],
    });
    expect(() => buildGlobClause(wide.expandQuery("largo"), "name_lc")).toThrow(
      "buildGlobClause: the expansion has 501 patterns; the maximum is 32 (SQL_CLAUSE_LIMITS.maxPatterns)",
    );
  });

  it("refuses a pattern longer than maxPatternLength, and takes the longest legal query word", () => {
    const long = "a".repeat(SQL_CLAUSE_LIMITS.maxPatternLength + 1);
    expect(() => buildGlobClause([{ term: long, patterns: [long], translated: false }], "name_lc")).toThrow(
      `a pattern has ${long.length} characters; the maximum is ${SQL_CLAUSE_LIMITS.maxPatternLength}`,
    );
    const word = "b".repeat(2047);
    expect(sqlIds(vocab.expandQuery(word))).toStrictEqual([]);
  });

  it("runs on SQLite at the caps, and selects what matchesQuery accepts", () => {
    expect(SQL_CLAUSE_LIMITS).toStrictEqual({ maxTerms: 16, maxPatterns: 32, maxPatternLength: 4096 });
    // 16 terms of two patterns each: 32 patterns, 64 bound values, the widest clause allowed.
    const words = [...new Set(NORMALISED.flatMap((name) => name.split(/[^a-z0-9]+/)).filter((w) => w.length > 3))];
    const expanded: ExpandedTerm[] = Array.from({ length: 16 }, (_, i) => ({
      term: `t${i}`,
      patterns: i === 0 ? ["cultivo", "comercio"] : [words[i * 7]!.slice(0, 3), "de"],
      translated: false,
    }));
    const { sql, params } = buildGlobClause(expanded, "name_lc");
    expect(params).toHaveLength(64);
    expect(sql.split("AND")).toHaveLength(16);
    expect(sqlIds(expanded)).toStrictEqual(jsIds(expanded));
    expect(() => buildGlobClause([...expanded, { term: "x", patterns: ["x"], translated: false }], "name_lc")).toThrow(McpSearchError);
  });

  it("nests the ORs and ANDs as a balanced tree, not a chain", () => {
    const expanded: ExpandedTerm[] = [
      { term: "a", patterns: ["a1", "b1", "c1"], translated: false },
      { term: "b", patterns: ["d1"], translated: false },
      { term: "c", patterns: ["e1"], translated: false },
    ];
    const pair = "(c GLOB ? OR c GLOB ?)";
    expect(buildGlobClause(expanded, "c").sql).toBe(`((((${pair} OR ${pair}) OR ${pair}) AND ${pair}) AND ${pair})`);
  });

  it("strips NUL: the query \"\\0zz\" looks for zz, not for any row with punctuation", () => {
    expect(vocab.expandQuery("\0zz")).toStrictEqual([{ term: "zz", patterns: ["zz"], translated: false }]);
    expect(buildGlobClause([{ term: "\0zz", patterns: ["\0zz"], translated: false }], "name_lc").params).toStrictEqual([
      "zz*",
      "*[^a-z0-9]zz*",
    ]);
    expect(sqlIds(vocab.expandQuery("\0zz"))).toStrictEqual([]);
  });

  it("drops a pattern another pattern of its term covers", () => {
    const expanded: ExpandedTerm[] = [{ term: "carros", patterns: ["carros", "automoveis", "carro", "automove"], translated: true }];
    expect(buildGlobClause(expanded, "c").params).toStrictEqual(["carro*", "*[^a-z0-9]carro*", "automove*", "*[^a-z0-9]automove*"]);
  });

  it.each([null, "soja", [{ term: "x" }], [{ term: "x", patterns: [1] }]])("refuses the expansion %j with McpSearchError", (bad) => {
    expect(() => buildGlobClause(bad as unknown as ExpandedTerm[], "c")).toThrow("buildGlobClause: the expansion must be a list");
  });
});

describe("buildGlobClause on random tables", () => {
  it("selects exactly the rows matchesQuery accepts", () => {
    const probe = db.prepare("SELECT count(*) AS n FROM names");
    let selectedSome = 0;
    fc.assert(
      fc.property(TABLE_CASE, (input) => {
        const { table, query } = tableAndQuery(input);
        const expanded = tableVocabulary.expandQuery(query);
        const { sql, params } = buildGlobClause(expanded, "name_lc");
        const selected = db
          .prepare(`WITH t(id, name_lc) AS (SELECT key, value FROM json_each(?)) SELECT id FROM t WHERE ${sql} ORDER BY id`)
          .all(JSON.stringify(table), ...params) as { id: number }[];
        const accepted = table.flatMap((text, id) => (tableVocabulary.matchesQuery(text, expanded) ? [id] : []));
        expect(selected.map((row) => row.id)).toStrictEqual(accepted);
        if (accepted.length > 0) selectedSome += 1;
      }),
      { numRuns: 400 },
    );
    // The property saw real matches, not only empty sets. The bound is far below chance: over 300
    // seeds, 400 runs selected rows 113 times on average (standard deviation 9.3, lowest 87).
    expect(selectedSome).toBeGreaterThan(35);
    expect(probe.get()).toStrictEqual({ n: NAMES.length });
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
