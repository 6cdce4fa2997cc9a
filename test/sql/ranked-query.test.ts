/**
 * The ranked queries against `createIndex`, on real databases: SQLite (better-sqlite3, FTS5) and
 * PostgreSQL (PGlite, one instance for the file, started from the cache of test/_pglite.ts), with
 * the schema of docs/sql.md (bench/_ranked-schema.ts). The property compares the order on random
 * catalogues and queries built to meet ties, accents, the phrase bonus, ids equal to a token,
 * prefixes and stopwords; fixed cases hold the caps and the updates.
 *
 * Last, the servers of docs/sql.md, as a user would paste them: the D1 server (on better-sqlite3
 * behind the D1 interface) and the PostgreSQL server (on the same PGlite, the docs' own schema),
 * loaded with CNAE subclasses through the docs' own `saveEntry`, answer the same search and fetch
 * calls over a real MCP client exactly as a server built on `createIndex` over the same entries.
 * The programs are the docs' code blocks (test/_doc-programs.ts), imported, not copied.
 */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import type { PGlite } from "@electric-sql/pglite";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POSTGRES_SCHEMA, SQLITE_SCHEMA, catalogueRow, loadPostgres, loadSqlite } from "../../bench/_ranked-schema.js";
import { LEXEME_LENGTH } from "../../src/sql/row.js";
import {
  McpSearchError,
  SQL_RANKING_LIMITS,
  buildGlobClause,
  buildPostgresClause,
  buildPostgresRankedQuery,
  buildSqliteRankedQuery,
  createIndex,
  createVocabulary,
  registerDeepResearchTools,
  runPostgresRankedQuery,
  runSqliteRankedQuery,
  toRankedRow,
  type IndexEntry,
  type RankedQueryOptions,
  type RankedStatementRunner,
} from "../../src/index.js";
import { rankInSteps, type RankedSearchTuning } from "../../src/sql/ranked-search.js";
import { writePrograms } from "../_doc-programs.js";
import { startPostgres } from "../_pglite.js";
import { RANKING_CASE } from "../_ranked-arbitraries.js";

const OPTIONS = { table: "catalogue", order: "position" } as const;

let pg: PGlite;
beforeAll(async () => {
  pg = await startPostgres();
  await pg.exec(POSTGRES_SCHEMA);
});
afterAll(async () => {
  await pg.close();
});

interface Hit {
  readonly id: string;
  readonly score: number;
}

/** A new in-memory SQLite database holding `entries`. */
function sqliteOf(entries: readonly IndexEntry[]): Database.Database {
  const db = new Database(":memory:");
  db.exec(SQLITE_SCHEMA);
  loadSqlite(db, entries);
  return db;
}

async function reloadPostgres(entries: readonly IndexEntry[]): Promise<void> {
  await pg.exec("TRUNCATE catalogue");
  await loadPostgres(pg, entries);
}

function searchSqlite(db: Database.Database, query: string, options: Partial<RankedQueryOptions> = {}): Hit[] {
  const { sql, params } = buildSqliteRankedQuery(query, { ...OPTIONS, ...options });
  return db.prepare(sql).all(...params) as Hit[];
}

async function searchPostgres(query: string, options: Partial<RankedQueryOptions> = {}): Promise<Hit[]> {
  const { sql, params } = buildPostgresRankedQuery(query, { ...OPTIONS, ...options });
  return (await pg.query<Hit>(sql, [...params])).rows;
}

/**
 * Thresholds so low that a small table walks every step of the ranked search: every pair is
 * frequent, and the sample scores one row of each search.
 */
const EVERY_STEP: RankedSearchTuning = { rareRows: 0, rareEstimate: 0, sampleRows: 1 };

/** What the ranked searches did: statements a search, the most values bound at once, and which steps ran. */
const steps = { searches: 0, sampleEnough: 0, final: 0, upTo: 0, mostParams: 0 };

/** A runner that records the statements it runs (and, for SQLite, the most values one binds: D1 takes 100). */
function recording(run: RankedStatementRunner, sqlite: boolean): { run: RankedStatementRunner; statements: string[] } {
  const statements: string[] = [];
  return {
    statements,
    run: (sql, params) => {
      statements.push(sql);
      if (sqlite) steps.mostParams = Math.max(steps.mostParams, params.length);
      return run(sql, params);
    },
  };
}

const sqliteRunner = (db: Database.Database): RankedStatementRunner => (sql, params) => db.prepare(sql).all(...params) as Record<string, unknown>[];
const postgresRunner: RankedStatementRunner = async (sql, params) => (await pg.query<Record<string, unknown>>(sql, [...params])).rows;

/** The ranked search of both dialects with `tuning`, its steps recorded. */
async function searchInSteps(db: Database.Database, query: string, options: Partial<RankedQueryOptions>, tuning: RankedSearchTuning): Promise<[Hit[], Hit[]]> {
  const lite = recording(sqliteRunner(db), true);
  const postgres = recording(postgresRunner, false);
  const hits = [
    (await rankInSteps("sqlite", "runSqliteRankedQuery", lite.run, query, { ...OPTIONS, ...options }, tuning)) as unknown as Hit[],
    (await rankInSteps("postgres", "runPostgresRankedQuery", postgres.run, query, { ...OPTIONS, ...options }, tuning)) as unknown as Hit[],
  ] as [Hit[], Hit[]];
  steps.searches += 1;
  const [, , third] = lite.statements;
  if (third !== undefined) steps.final += 1;
  if (third?.includes("rank_fts.rowid <= ?") === true) steps.upTo += 1;
  if (lite.statements.length === 2 && lite.statements[1]!.includes("UNION ALL")) steps.sampleEnough += 1;
  return hits;
}

/**
 * Both dialects' ids and scores, from the one statement and from the ranked search (with its
 * thresholds, and with every step walked), all checked equal; the ids are returned.
 */
async function bothDialects(db: Database.Database, query: string, limit?: number): Promise<string[]> {
  const options = limit === undefined ? {} : { limit };
  const pairs = (hits: readonly Hit[]) => hits.map(({ id, score }) => ({ id, score }));
  const lite = pairs(searchSqlite(db, query, options));
  expect(pairs(await searchPostgres(query, options))).toStrictEqual(lite);
  expect(pairs((await runSqliteRankedQuery(sqliteRunner(db), query, { ...OPTIONS, ...options })) as unknown as Hit[])).toStrictEqual(lite);
  expect(pairs((await runPostgresRankedQuery(postgresRunner, query, { ...OPTIONS, ...options })) as unknown as Hit[])).toStrictEqual(lite);
  for (const hits of await searchInSteps(db, query, options, EVERY_STEP)) expect({ query, limit, hits: pairs(hits) }).toStrictEqual({ query, limit, hits: lite });
  return lite.map((hit) => hit.id);
}

describe("buildSqliteRankedQuery and buildPostgresRankedQuery", () => {
  it("rank random catalogues exactly as createIndex does, on SQLite and PostgreSQL", async () => {
    let ties = 0;
    let phrases = 0;
    await fc.assert(
      fc.asyncProperty(RANKING_CASE, async ({ entries, queries, limit }) => {
        const db = sqliteOf(entries);
        await reloadPostgres(entries);
        const index = createIndex(entries);
        for (const query of queries) {
          const expected = index.search(query, limit === undefined ? {} : { limit }).map((hit) => hit.id);
          const hits = searchSqlite(db, query, limit === undefined ? {} : { limit });
          if (hits.some((hit, i) => i > 0 && hit.score === hits[i - 1]!.score)) ties += 1;
          if (hits.some((hit) => hit.score % 1 === 0.5 || hit.score % 5 === 0)) phrases += 1;
          expect(await bothDialects(db, query, limit)).toStrictEqual(expected);
        }
        db.close();
      }),
      { numRuns: 30, seed: 35 },
    );
    // The generator reaches the cases it is built for, and the ranked search each of its steps.
    expect(ties).toBeGreaterThan(8);
    expect(phrases).toBeGreaterThan(0);
    expect(steps.final).toBeGreaterThan(20);
    expect(steps.upTo).toBeGreaterThan(2);
  });

  it("gives the README's worked example, scores included", async () => {
    const entries: IndexEntry[] = [
      { id: "sidra:1612", title: "Produção agrícola municipal: lavouras temporárias", url: "https://example.org/1612", keywords: ["soja", "milho"] },
      { id: "cnae:0115600", title: "Cultivo de soja", url: "https://example.org/0115600" },
      { id: "soja", title: "Soja em grão: série histórica", url: "https://example.org/soja", text: "Produção anual de soja" },
      { id: "cnae:1041400", title: "Fabricação de óleos vegetais, exceto óleo de milho", url: "https://example.org/1041400", text: "inclui óleo de soja" },
      { id: "ibge:pam-soja", title: "Produção de soja por município", url: "https://example.org/pam-soja" },
    ];
    const db = sqliteOf(entries);
    await reloadPostgres(entries);
    expect(searchSqlite(db, "produção de soja").map(({ id, score }) => [id, score])).toStrictEqual([
      ["ibge:pam-soja", 41],
      ["soja", 35],
      ["sidra:1612", 25],
      ["cnae:0115600", 13],
      ["cnae:1041400", 11],
    ]);
    expect(await bothDialects(db, "produção de soja")).toStrictEqual(createIndex(entries).search("produção de soja").map((hit) => hit.id));
    // An id equal to the token counts in full; a prefix of 3 or more counts half; 2 letters never as a prefix.
    expect(searchSqlite(db, "soj").map(({ id, score }) => [id, score])).toStrictEqual([
      ["soja", 22], // id 5 + title 1.5 + text 0.5 + 10, and the phrase "soj" is in its title: + 5
      ["ibge:pam-soja", 21.5],
      ["cnae:0115600", 16.5],
      ["sidra:1612", 11], // keywords 1 + 10: "soj" is not in its title
      ["cnae:1041400", 10.5],
    ]);
    expect(searchSqlite(db, "so")).toStrictEqual([]);
    db.close();
  });

  it("reach every row at the caps, and refuse one token, one character or one row more", async () => {
    const words = Array.from({ length: SQL_RANKING_LIMITS.maxTokens + 1 }, (_, i) => `w${i.toString(36)}x${"y".repeat(i % 4)}`);
    const long = "a".repeat(LEXEME_LENGTH + 45);
    const entries: IndexEntry[] = [
      ...words.map((_, i) => ({ id: `e${i}`, title: words.slice(i, i + 3).join(" "), url: `https://x.org/${i}` })),
      { id: "long", title: `${long} ${long.slice(0, LEXEME_LENGTH + 1)}b`, url: "https://x.org/long" },
      { id: "soja", title: "soja ".repeat(800), url: "https://x.org/soja" },
    ];
    const db = sqliteOf(entries);
    await reloadPostgres(entries);
    const index = createIndex(entries);
    const atCap = words.slice(0, SQL_RANKING_LIMITS.maxTokens).join(" ");
    expect(await bothDialects(db, atCap, SQL_RANKING_LIMITS.maxLimit)).toStrictEqual(index.search(atCap, { limit: SQL_RANKING_LIMITS.maxLimit }).map((hit) => hit.id));
    expect(() => buildSqliteRankedQuery(words.join(" "), OPTIONS)).toThrow(new McpSearchError(`buildSqliteRankedQuery: the query has 33 distinct words, over the 32 a ranked query searches at once: shorten it.`));
    expect(() => buildPostgresRankedQuery(words.join(" "), OPTIONS)).toThrow(McpSearchError);
    expect(() => buildPostgresRankedQuery("soja", { ...OPTIONS, limit: SQL_RANKING_LIMITS.maxLimit + 1 })).toThrow(/`limit` must be a whole number from 0 to 1000 \(got 1001\)/);
    // The longest query: 4096 characters once normalised, the whole of it the phrase.
    const longest = "soja ".repeat(819) + "s";
    expect(longest.length).toBe(SQL_RANKING_LIMITS.maxQueryLength);
    expect(await bothDialects(db, longest)).toStrictEqual(index.search(longest).map((hit) => hit.id));
    expect(() => buildSqliteRankedQuery(`${longest}a`, OPTIONS)).toThrow(/4097 characters long once normalised, over the 4096/);
    // Tokens longer than the lexemes the candidates' index holds: exact, and as prefixes past the cut.
    for (const query of [long, long.slice(0, LEXEME_LENGTH + 1), `${long.slice(0, LEXEME_LENGTH + 1)}b`, long.slice(0, LEXEME_LENGTH), `${long}a`]) {
      expect(await bothDialects(db, query)).toStrictEqual(index.search(query).map((hit) => hit.id));
    }
    db.close();
  });

  it("return no row for a query with no token or a limit of 0, and refuse a limit that is not a whole number, as every limit of the library", async () => {
    const entries: IndexEntry[] = [
      { id: "a", title: "Soja", url: "https://x.org/a" },
      { id: "b", title: "Soja", url: "https://x.org/b" },
    ];
    const db = sqliteOf(entries);
    await reloadPostgres(entries);
    for (const [query, limit, expected] of [
      ["", undefined, []],
      ["de da do", undefined, []],
      ["soja", 0, []],
      ["soja", 1, ["a"]],
      ["soja", -3, null],
      ["soja", 1.9, null],
      ["soja", Infinity, null],
    ] as const) {
      if (expected === null) {
        expect(() => buildSqliteRankedQuery(query, { ...OPTIONS, limit })).toThrow(McpSearchError);
        expect(() => buildPostgresRankedQuery(query, { ...OPTIONS, limit })).toThrow(`buildPostgresRankedQuery: \`limit\` must be a whole number from 0 to 1000 (got ${limit})`);
        continue;
      }
      expect(await bothDialects(db, query, limit)).toStrictEqual(expected);
    }
    db.close();
  });

  it("throw McpSearchError naming what is wrong in the options", () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ table: "catalogue; DROP TABLE x", order: "position" }, /the table "catalogue; DROP TABLE x" is not a plain identifier/],
      [{ table: "catalogue", order: "position desc" }, /the order column "position desc" is not a plain identifier/],
      [{ table: "catalogue", order: "position", columns: ["id", "title--"] }, /the column "title--" is not a plain identifier/],
      [{ table: "catalogue", order: "position", columns: ["score"] }, /a column named "score"/],
      [{ table: "catalogue", order: "position", columns: [] }, /"columns" must list at least one column/],
      [{ table: "catalogue", order: "position", limit: "10" }, /`limit` must be a whole number from 0 to 1000 \(got "10"\)/],
      [{ table: "catalogue", order: "position", fts: "x y" }, /the FTS5 table "x y"/],
      [undefined, /options \{ table, order \} are required/],
    ];
    for (const [options, message] of cases) {
      expect(() => buildSqliteRankedQuery("soja", options as RankedQueryOptions)).toThrow(message);
    }
    expect(() => buildPostgresRankedQuery(42 as unknown as string, OPTIONS)).toThrow(/the query must be a string, not number/);
    expect(() => toRankedRow({ id: "", title: "x", url: "u" })).toThrow(/has an empty "id"/);
  });

  it("select the named columns, from a schema-qualified table, with the order column's ties", async () => {
    const entries: IndexEntry[] = [
      { id: "b", title: "Soja", url: "https://x.org/b" },
      { id: "a", title: "Soja", url: "https://x.org/a" },
    ];
    const db = sqliteOf(entries);
    const { sql, params } = buildSqliteRankedQuery("soja", { table: "main.catalogue", order: "position", columns: ["url"] });
    expect(db.prepare(sql).all(...params)).toStrictEqual([
      { url: "https://x.org/b", score: 18 }, // title 3 + 10, the phrase + 5
      { url: "https://x.org/a", score: 18 },
    ]);
    db.close();
  });
});

describe("runSqliteRankedQuery and runPostgresRankedQuery", () => {
  /**
   * A catalogue where "ibge" is in every id (a frequent word), a code is in a few (a rare one),
   * and the titles tie in groups, so that the limit falls inside a group of equal scores.
   */
  const ENTRIES: IndexEntry[] = Array.from({ length: 120 }, (_, i) => ({
    id: `ibge:${i % 40 === 7 ? "3550308" : String(1000 + i)}/t${i % 3}`,
    title: i % 5 === 0 ? `Produção de soja — São Paulo (${2000 + (i % 4)})` : `População residente — Município ${i % 7} (${2000 + (i % 4)})`,
    url: `https://x.org/${i}`,
    keywords: i % 6 === 0 ? ["ibge", "soja"] : ["município"],
    text: i % 9 === 0 ? "Código IBGE 3550308, São Paulo" : `Código IBGE ${1000 + i}`,
  }));
  const QUERIES = ["ibge:3550308", "ibge 3550308", "ibge", "produção de soja", "soja 2001", "populacao residente", "sao paulo", "sao pa", "pro", "t1", "municipio 3", "ibge soja 2003"];
  const TUNINGS: RankedSearchTuning[] = [EVERY_STEP, { rareRows: 30, rareEstimate: 30, sampleRows: 1 }];

  it("rank a frequent word with a rare one, with ties at the cut-off, exactly as createIndex, at every limit", async () => {
    const db = sqliteOf(ENTRIES);
    await reloadPostgres(ENTRIES);
    await pg.exec("ANALYZE catalogue");
    const index = createIndex(ENTRIES);
    Object.assign(steps, { searches: 0, sampleEnough: 0, final: 0, upTo: 0 });
    for (const query of QUERIES) {
      const all = index.search(query, { limit: ENTRIES.length });
      const scores = searchSqlite(db, query, { limit: ENTRIES.length }).map((hit) => hit.score);
      // Every limit where the list is cut inside a group of equal scores, and around it.
      const inside = scores.flatMap((score, i) => (i > 0 && score === scores[i - 1] ? [i] : []));
      const cuts = [1, 2, 10, all.length - 1, all.length, all.length + 1, ...inside.filter((_, i) => i % Math.ceil(inside.length / 3) === 0)];
      for (const limit of [...new Set(cuts)].filter((limit) => limit > 0)) {
        const expected = all.slice(0, limit).map((hit) => hit.id);
        for (const tuning of TUNINGS) {
          for (const hits of await searchInSteps(db, query, { limit }, tuning)) expect({ query, limit, tuning, ids: hits.map((hit) => hit.id) }).toStrictEqual({ query, limit, tuning, ids: expected });
        }
      }
    }
    // Each way out is taken: the sample enough, and the last statement with the rows at the cut-off.
    expect(steps.sampleEnough).toBeGreaterThan(3);
    expect(steps.final).toBeGreaterThan(10);
    expect(steps.upTo).toBeGreaterThan(10);
    db.close();
  });

  it("bind at most 100 values a statement on SQLite, at the caps of tokens and rows", async () => {
    const words = Array.from({ length: SQL_RANKING_LIMITS.maxTokens }, (_, i) => `w${i.toString(36)}x${"y".repeat(i % 4)}`);
    const entries: IndexEntry[] = words.map((_, i) => ({ id: `e${i}`, title: words.slice(i, i + 3).join(" "), url: `https://x.org/${i}` }));
    const db = sqliteOf(entries);
    await reloadPostgres(entries);
    steps.mostParams = 0;
    const query = words.join(" ");
    const expected = createIndex(entries).search(query, { limit: SQL_RANKING_LIMITS.maxLimit }).map((hit) => hit.id);
    for (const hits of await searchInSteps(db, query, { limit: SQL_RANKING_LIMITS.maxLimit }, EVERY_STEP)) expect(hits.map((hit) => hit.id)).toStrictEqual(expected);
    for (const hits of await searchInSteps(db, query, { limit: 3 }, EVERY_STEP)) expect(hits.map((hit) => hit.id)).toStrictEqual(expected.slice(0, 3));
    expect(steps.mostParams).toBeGreaterThan(60);
    expect(steps.mostParams).toBeLessThanOrEqual(100);
    db.close();
  });

  it("return no row without a token or with a limit of 0, and throw McpSearchError as the builders do", async () => {
    const db = sqliteOf(ENTRIES);
    let statements = 0;
    const run: RankedStatementRunner = (sql, params) => {
      statements += 1;
      return db.prepare(sql).all(...params) as Record<string, unknown>[];
    };
    expect(await runSqliteRankedQuery(run, "de da", OPTIONS)).toStrictEqual([]);
    expect(await runSqliteRankedQuery(run, "soja", { ...OPTIONS, limit: 0 })).toStrictEqual([]);
    expect(statements).toBe(0);
    await expect(runSqliteRankedQuery(run, "soja", { ...OPTIONS, limit: 1001 })).rejects.toThrow(new McpSearchError("runSqliteRankedQuery: `limit` must be a whole number from 0 to 1000 (got 1001)."));
    await expect(runPostgresRankedQuery(postgresRunner, "soja", { table: "x y", order: "position" })).rejects.toThrow(/runPostgresRankedQuery: the table "x y" is not a plain identifier/);
    await expect(runSqliteRankedQuery(undefined as unknown as RankedStatementRunner, "soja", OPTIONS)).rejects.toThrow(/"run" must be a function/);
    // The rows come back as the one statement gives them: the chosen columns and the score.
    expect(await runSqliteRankedQuery(run, "soja", { ...OPTIONS, columns: ["url"], limit: 1 })).toStrictEqual(searchSqlite(db, "soja", { columns: ["url"], limit: 1 }));
    db.close();
  });
});

describe("the where option", () => {
  it("ranks by the rule among the rows the vocabulary's word-start match selects, as filtering createIndex's ranking does", async () => {
    const ibge = createVocabulary({ sourceName: "o IBGE", entries: [{ asked: "renda", source: ["rendimento"] }, { asked: "carros", source: ["automóveis"] }] });
    const titles = [
      "Rendimento médio mensal real", "Taxa de desocupação", "Renda per capita", "Desrendimento mensal", "Venda de automóveis novos",
      "Rendimento-hora médio", "Média de carros por domicílio", "Renda média mensal dos carros", "Rendas e rendimentos", "Comércio de automóveis e carros",
    ];
    const entries: IndexEntry[] = titles.map((title, i) => ({ id: `t${i}`, title, url: `https://x.org/${i}`, keywords: ibge.askedWordsFor(title) }));
    const db = sqliteOf(entries);
    await reloadPostgres(entries);
    db.exec("ALTER TABLE catalogue ADD COLUMN title_lc TEXT NOT NULL DEFAULT ''");
    await pg.exec("ALTER TABLE catalogue ADD COLUMN title_lc text NOT NULL DEFAULT ''");
    for (const [position, title] of titles.entries()) {
      db.prepare("UPDATE catalogue SET title_lc = ? WHERE position = ?").run(ibge.normalize(title), position);
      await pg.query("UPDATE catalogue SET title_lc = $1 WHERE position = $2", [ibge.normalize(title), position]);
    }
    const index = createIndex(entries);
    for (const query of ["renda", "renda mensal", "carros", "media", "rendimento medio", "renda carros", "xyz"]) {
      for (const limit of [10, 2]) {
        const expanded = ibge.expandQuery(query);
        const expected = index
          .search(query, { limit: entries.length })
          .filter((hit) => ibge.matchesQuery(ibge.normalize(hit.title), expanded) && Number(hit.id.slice(1)) >= 1)
          .slice(0, limit)
          .map((hit) => hit.id);
        const lite = buildSqliteRankedQuery(query, {
          ...OPTIONS,
          limit,
          where: () => {
            const clause = buildGlobClause(expanded, "title_lc");
            return { sql: `${clause.sql} AND c.position >= ?`, params: [...clause.params, 1] };
          },
        });
        const postgres = buildPostgresRankedQuery(query, {
          ...OPTIONS,
          limit,
          where: (first) => {
            const clause = buildPostgresClause(expanded, "title_lc", { firstParameter: first });
            return { sql: `${clause.sql} AND c.position >= $${first + clause.params.length}`, params: [...clause.params, 1] };
          },
        });
        expect({ query, limit, ids: (db.prepare(lite.sql).all(...lite.params) as Hit[]).map((hit) => hit.id) }).toStrictEqual({ query, limit, ids: expected });
        expect({ query, limit, ids: (await pg.query<Hit>(postgres.sql, [...postgres.params])).rows.map((hit) => hit.id) }).toStrictEqual({ query, limit, ids: expected });
        // The ranked search binds the condition once a statement, wherever it reads rows.
        const whereLite = () => {
          const clause = buildGlobClause(expanded, "title_lc");
          return { sql: `${clause.sql} AND c.position >= ?`, params: [...clause.params, 1] };
        };
        const wherePostgres = (first: number) => {
          const clause = buildPostgresClause(expanded, "title_lc", { firstParameter: first });
          return { sql: `${clause.sql} AND c.position >= $${first + clause.params.length}`, params: [...clause.params, 1] };
        };
        for (const tuning of [EVERY_STEP, { rareRows: 2, rareEstimate: 2, sampleRows: 1 }]) {
          const inLite = (await rankInSteps("sqlite", "runSqliteRankedQuery", sqliteRunner(db), query, { ...OPTIONS, limit, where: whereLite }, tuning)) as unknown as Hit[];
          const inPostgres = (await rankInSteps("postgres", "runPostgresRankedQuery", postgresRunner, query, { ...OPTIONS, limit, where: wherePostgres }, tuning)) as unknown as Hit[];
          expect({ query, limit, ids: inLite.map((hit) => hit.id) }).toStrictEqual({ query, limit, ids: expected });
          expect({ query, limit, ids: inPostgres.map((hit) => hit.id) }).toStrictEqual({ query, limit, ids: expected });
        }
      }
    }
    // The vocabulary reaches "Rendimento…" for "renda", and its word start keeps "Desrendimento" out.
    const renda = buildSqliteRankedQuery("renda", { ...OPTIONS, where: () => buildGlobClause(ibge.expandQuery("renda"), "title_lc") });
    expect((db.prepare(renda.sql).all(...renda.params) as Hit[]).map((hit) => hit.id).sort()).toStrictEqual(["t0", "t2", "t5", "t7", "t8"]);
    expect(() => buildSqliteRankedQuery("renda", { ...OPTIONS, where: () => ({ sql: "1", params: [null] }) as never })).toThrow(/"where" must return \{ sql, params \}/);
    expect(() => buildSqliteRankedQuery("renda", { ...OPTIONS, where: "1 = 1" as never })).toThrow(/"where" must be a function/);
    await pg.exec("ALTER TABLE catalogue DROP COLUMN title_lc");
    db.close();
  });
});

describe("toRankedRow", () => {
  it("stores each field's tokens between spaces, the normalised title and the lexemes", () => {
    expect(toRankedRow({ id: "6579", title: "População: 6579 — POPULAÇÃO", url: "u", keywords: ["Censo", "censo 2022"], text: "a de" })).toStrictEqual({
      id_tokens: " 6579 ",
      title_tokens: " populacao 6579 ",
      keyword_tokens: " censo 2022 ",
      text_tokens: "",
      title_phrase: "populacao: 6579 — populacao",
      lexemes: "i6579 tpopulacao t6579 kcenso k2022",
    });
    expect(toRankedRow({ id: "n", title: "a\0b", url: "u" }).title_phrase).toBe("a\u0360b");
    expect(toRankedRow({ id: "n", title: "\uDFFFa\uD800", url: "u" }).title_phrase).toBe("\u031f\u035fa\u0300\u0320");
    expect(toRankedRow({ id: "n", title: "😀", url: "u" }).title_phrase).toBe("\u0300\u035d\u0318\u0320");
  });

  it("keeps the phrase bonus exact for surrogates: lone ones (stored as U+FFFD) and half of a pair", async () => {
    const entries: IndexEntry[] = [
      { id: "a", title: "soja \uFFFDb", url: "https://x.org/a" },
      { id: "b", title: "soja \uD800b", url: "https://x.org/b" },
      { id: "c", title: "soja \uD801b", url: "https://x.org/c" },
      { id: "d", title: "soja 😀b", url: "https://x.org/d" },
    ];
    const db = sqliteOf(entries);
    await reloadPostgres(entries);
    const index = createIndex(entries);
    for (const query of ["soja \uD800b", "soja \uFFFDb", "soja \0b", "soja \uD800", "\uDC00soja", "soja \uD83D", "\uDE00b", "soja 😀"]) {
      expect(await bothDialects(db, query)).toStrictEqual(index.search(query).map((hit) => hit.id));
    }
    expect(searchSqlite(db, "soja \uD800b").map((hit) => hit.id)).toStrictEqual(["b", "a", "c", "d"]);
    // Half of an emoji's pair, as "includes" finds it in memory.
    expect(searchSqlite(db, "soja \uD83D").map((hit) => hit.id)).toStrictEqual(["d", "a", "b", "c"]);
    db.close();
  });

  it("joins a vocabulary's asked words to the keywords, as the in-memory recipe does", async () => {
    const ibge = createVocabulary({ sourceName: "o IBGE", entries: [{ asked: "renda", source: ["rendimento"] }] });
    const entries: IndexEntry[] = [
      { id: "t1", title: "Taxa de desocupação", url: "https://x.org/1" },
      { id: "t2", title: "Rendimento médio mensal", url: "https://x.org/2" },
      { id: "t3", title: "Renda e pobreza", url: "https://x.org/3" },
    ];
    const db = new Database(":memory:");
    db.exec(SQLITE_SCHEMA);
    loadSqlite(db, entries, { vocabulary: ibge });
    await pg.exec("TRUNCATE catalogue");
    await loadPostgres(pg, entries, { vocabulary: ibge });
    const inMemory = createIndex(entries.map((entry) => ({ ...entry, keywords: ibge.askedWordsFor(entry.title) })));
    expect(await bothDialects(db, "renda mensal")).toStrictEqual(inMemory.search("renda mensal").map((hit) => hit.id));
    expect(await bothDialects(db, "renda mensal")).toStrictEqual(["t2", "t3"]);
    db.close();
  });
});

describe("updates", () => {
  it("rank as createIndex after rows are replaced in place and deleted (triggers in SQLite, a generated column in PostgreSQL)", async () => {
    const entries: IndexEntry[] = ["Cultivo de soja", "Cultivo de milho", "Soja em grão", "Produção de soja"].map((title, i) => ({ id: `e${i}`, title, url: `https://x.org/${i}` }));
    const db = sqliteOf(entries);
    await reloadPostgres(entries);
    const index = createIndex(entries);
    const replacement: IndexEntry = { id: "e1", title: "Cultivo de soja e milho", url: "https://x.org/1" };
    index.replace(replacement);
    index.remove("e2");
    const row = catalogueRow(replacement, 1);
    const set = "title = @title, id_tokens = @id_tokens, title_tokens = @title_tokens, keyword_tokens = @keyword_tokens, text_tokens = @text_tokens, title_phrase = @title_phrase, lexemes = @lexemes";
    db.prepare(`UPDATE catalogue SET ${set} WHERE id = @id`).run(row);
    db.prepare("DELETE FROM catalogue WHERE id = ?").run("e2");
    await pg.query(
      "UPDATE catalogue SET title = $2, id_tokens = $3, title_tokens = $4, keyword_tokens = $5, text_tokens = $6, title_phrase = $7, lexemes = $8 WHERE id = $1",
      [row.id, row.title, row.id_tokens, row.title_tokens, row.keyword_tokens, row.text_tokens, row.title_phrase, row.lexemes],
    );
    await pg.query("DELETE FROM catalogue WHERE id = $1", ["e2"]);
    for (const query of ["soja", "milho", "cultivo de soja", "gra"]) {
      expect(await bothDialects(db, query)).toStrictEqual(index.search(query).map((hit) => hit.id));
    }
    expect(await bothDialects(db, "milho")).toStrictEqual(["e1"]);
    db.close();
  });
});

interface D1Like {
  prepare(sql: string): { bind(...values: unknown[]): { all(): Promise<{ results: unknown[] }>; first(): Promise<unknown>; run(): Promise<unknown> } };
}
interface Queryable {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}
interface D1Program {
  CATALOGUE_SCHEMA: string;
  saveEntry(db: D1Like, entry: IndexEntry): Promise<void>;
  createCatalogueServer(db: D1Like): McpServer;
}
interface PostgresProgram {
  POSTGRES_CATALOGUE_SCHEMA: string;
  savePostgresEntry(db: Queryable, entry: IndexEntry): Promise<void>;
  createPostgresCatalogueServer(db: Queryable): McpServer;
}

const SUBCLASSES = JSON.parse(readFileSync(new URL("../fixtures/cnae-subclasses.json", import.meta.url), "utf8")) as [string, string][];
/** One CNAE subclass in four (333 of them, soja among them), in code order. */
const ENTRIES: IndexEntry[] = SUBCLASSES.filter((_, i) => i % 4 === 1).map(([code, description]) => ({
  id: `cnae:${code}`,
  title: description,
  url: `https://concla.ibge.gov.br/busca-online-cnae.html?subclasse=${code}`,
  text: `Subclasse ${code} da CNAE 2.3: ${description.toLowerCase()}.`,
}));
const QUERIES = [
  "soja", "cultivo de soja", "comércio varejista", "fabricação de móveis", "0115600", ENTRIES[200]!.id, ENTRIES[150]!.id.slice("cnae:".length), "fab", "criação de bovinos",
  "transporte rodoviário", "serviços de engenharia", "restaurantes e similares", "extração", "de", "", "zzzz", "ÓLEO DE MILHO",
];

/** better-sqlite3 behind D1's interface, as the docs' own program does. */
function d1OnSqlite(sqlite: Database.Database): D1Like {
  return {
    prepare: (sql) => ({
      bind: (...values) => ({
        all: async () => ({ results: sqlite.prepare(sql).all(...values) }),
        first: async () => sqlite.prepare(sql).get(...values) ?? null,
        run: async () => sqlite.prepare(sql).run(...values),
      }),
    }),
  };
}

async function clientOf(server: McpServer): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: "host", version: "1.0.0" });
  await client.connect(clientTransport);
  return client;
}

describe("the servers of docs/sql.md", () => {
  let sqlite: Database.Database;
  let d1: D1Program;
  let postgres: PostgresProgram;
  const clients = {} as Record<"createIndex" | "D1" | "PostgreSQL", Client>;
  const before = globalThis.__docStdio?.length ?? 0;

  beforeAll(async () => {
    const programs = writePrograms().filter((program) => program.doc === "docs/sql.md");
    const load = async <T>(section: string): Promise<T> =>
      (await import(/* @vite-ignore */ pathToFileURL(programs.find((program) => program.section === section)!.runnable).href)) as T;
    d1 = await load<D1Program>("SQLite and Cloudflare D1");
    postgres = await load<PostgresProgram>("PostgreSQL");

    sqlite = new Database(":memory:");
    sqlite.exec(d1.CATALOGUE_SCHEMA);
    const db = d1OnSqlite(sqlite);
    sqlite.exec("BEGIN");
    for (const entry of ENTRIES) await d1.saveEntry(db, entry);
    sqlite.exec("COMMIT");
    clients.D1 = await clientOf(d1.createCatalogueServer(db));

    // The same PGlite, now with the docs' own schema.
    await pg.exec(`DROP TABLE catalogue; ${postgres.POSTGRES_CATALOGUE_SCHEMA}`);
    await pg.transaction(async (tx) => {
      for (const entry of ENTRIES) await postgres.savePostgresEntry(tx, entry);
    });
    clients.PostgreSQL = await clientOf(postgres.createPostgresCatalogueServer(pg));

    const index = createIndex(ENTRIES);
    const reference = new McpServer({ name: "cnae-memory", version: "1.0.0" });
    registerDeepResearchTools(reference, {
      corpus: "the CNAE 2.3 subclasses (Brazilian classification of economic activities)",
      search: (query) => index.search(query),
      fetch: (id) => {
        const entry = ENTRIES.find((candidate) => candidate.id === id);
        return entry === undefined ? null : { id: entry.id, title: entry.title, url: entry.url, text: entry.text ?? entry.title };
      },
    });
    clients.createIndex = await clientOf(reference);
  });

  afterAll(async () => {
    await Promise.all(Object.values(clients).map((client) => client.close()));
    sqlite.close();
    // The D1 program also connected its own stdio server when it was imported: end it.
    for (const pair of (globalThis.__docStdio ?? []).splice(before)) pair.input.end();
  });

  it("answer search and fetch over a real MCP client exactly as the server built on createIndex", async () => {
    let hits = 0;
    for (const query of QUERIES) {
      const [reference, ...others] = await Promise.all(
        (["createIndex", "D1", "PostgreSQL"] as const).map((name) => clients[name].callTool({ name: "search", arguments: { query } })),
      );
      for (const reply of others) expect({ query, reply }).toStrictEqual({ query, reply: reference });
      const results = (reference!.structuredContent as { results: { id: string }[] }).results;
      hits += results.length;
      for (const id of [results[0]?.id ?? "cnae:0115600", "cnae:9999999"]) {
        const [expected, ...fetched] = await Promise.all(
          (["createIndex", "D1", "PostgreSQL"] as const).map((name) => clients[name].callTool({ name: "fetch", arguments: { id } })),
        );
        for (const reply of fetched) expect({ id, reply }).toStrictEqual({ id, reply: expected });
      }
    }
    expect(hits).toBeGreaterThan(50);
  });

  it("rank an updated entry in its old place, as index.replace does, on both databases", async () => {
    const updated: IndexEntry = { ...ENTRIES[1]!, title: "Cultivo de milho e de soja" };
    const index = createIndex(ENTRIES);
    index.replace(updated);
    await d1.saveEntry(d1OnSqlite(sqlite), updated);
    await postgres.savePostgresEntry(pg, updated);
    const expected = { results: index.search("soja") };
    expect(expected.results.map((hit) => hit.id)).toContain(updated.id);
    for (const name of ["D1", "PostgreSQL"] as const) {
      const reply = await clients[name].callTool({ name: "search", arguments: { query: "soja" } });
      expect(reply.structuredContent).toStrictEqual(expected);
    }
  });
});
