/**
 * The ranked SQL queries on real catalogues, beyond npm test's budget (about 40 s of PGlite,
 * SQLite and workerd work): SQLite, PostgreSQL (PGlite) and a real Cloudflare D1 (miniflare, the
 * runtime of `wrangler dev`) give createIndex's top 10
 * - on the 1,332 CNAE subclasses (test/fixtures/cnae-subclasses.json), for a fixed set of 150 and
 *   more real queries: a word, two, a whole description, a code, a prefix being typed, and a set
 *   written by hand;
 * - on 30,000 real-shaped pt-BR entries (bench/_corpora.ts), for the ranking bench's queries and
 *   the same set;
 * the D1 server of docs/sql.md, loaded through its own `saveEntry` into a real D1, answers search
 * over a real MCP client as a server on createIndex does; and the identity property of
 * test/sql/ranked-query.test.ts runs 300 times.
 */
import { readFileSync } from "node:fs";
import type { PGlite } from "@electric-sql/pglite";
import Database from "better-sqlite3";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, type McpServer } from "@modelcontextprotocol/server";
import fc from "fast-check";
import { Miniflare } from "miniflare";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCorpus, buildQueries } from "../../bench/_corpora.js";
import { POSTGRES_SCHEMA, SQLITE_SCHEMA, loadPostgres, loadSqlite } from "../../bench/_ranked-schema.js";
import { buildPostgresRankedQuery, buildSqliteRankedQuery, createIndex, tokenize, type IndexEntry } from "../../src/index.js";
import { writePrograms } from "../_doc-programs.js";
import { startPostgres } from "../_pglite.js";
import { RANKING_CASE } from "../_ranked-arbitraries.js";

const SUBCLASSES = JSON.parse(readFileSync(new URL("../fixtures/cnae-subclasses.json", import.meta.url), "utf8")) as [string, string][];

/** The subclasses as index entries, in code order (the tie order). */
const CNAE_ENTRIES: IndexEntry[] = SUBCLASSES.map(([code, description]) => ({
  id: `cnae:${code}`,
  title: description,
  url: `https://concla.ibge.gov.br/busca-online-cnae.html?subclasse=${code}`,
  keywords: ["atividade econômica", `divisão ${code.slice(0, 2)}`],
  text: `Subclasse ${code} da CNAE 2.3.`,
}));

const BY_HAND = [
  "comércio varejista", "comercio atacadista de alimentos", "fabricação de móveis", "cultivo de soja", "criação de bovinos",
  "transporte rodoviário de carga", "serviços de engenharia", "desenvolvimento de software", "restaurantes", "padaria",
  "farmácia", "hotel", "construção de edifícios", "ensino fundamental", "atividades médicas", "odontologia", "advocacia",
  "contabilidade", "academia de ginástica", "salão de beleza", "lanchonete", "pet shop", "oficina mecânica", "açougue",
  "extração de petróleo", "geração de energia elétrica", "telefonia", "seguros de vida", "bancos", "aluguel de imóveis",
];

/** Real queries from the subclasses themselves, one every 8, of five kinds in turn. */
function cnaeQueries(): string[] {
  const derived = SUBCLASSES.filter((_, i) => i % 8 === 0).map(([code, description], i) => {
    const words = description.toLowerCase().split(/\s+/).filter((word) => tokenize(word).length > 0);
    switch (i % 5) {
      case 0:
        return words.slice(0, 2).join(" ");
      case 1:
        return words.at(-1) ?? code;
      case 2:
        return code;
      case 3:
        return (words[1] ?? words[0] ?? code).slice(0, 4);
      default:
        return description;
    }
  });
  return [...new Set([...BY_HAND, ...derived])];
}

const OPTIONS = { table: "catalogue", order: "position" } as const;

let pg: PGlite;
beforeAll(async () => {
  pg = await startPostgres();
  await pg.exec(POSTGRES_SCHEMA);
});
afterAll(async () => {
  await pg.close();
});

/** Checks that both dialects give createIndex's top 10 for every query over `entries`; returns how many found something. */
async function checkTopTen(entries: readonly IndexEntry[], queries: readonly string[]): Promise<number> {
  await pg.exec("TRUNCATE catalogue");
  await loadPostgres(pg, entries);
  const sqlite = new Database(":memory:");
  sqlite.exec(SQLITE_SCHEMA);
  loadSqlite(sqlite, entries);
  const index = createIndex(entries);
  let found = 0;
  for (const query of queries) {
    const expected = index.search(query).map((hit) => hit.id);
    const lite = buildSqliteRankedQuery(query, OPTIONS);
    const postgres = buildPostgresRankedQuery(query, OPTIONS);
    const liteIds = (sqlite.prepare(lite.sql).all(...lite.params) as { id: string }[]).map((row) => row.id);
    const postgresIds = (await pg.query<{ id: string }>(postgres.sql, [...postgres.params])).rows.map((row) => row.id);
    expect({ query, ids: liteIds }).toStrictEqual({ query, ids: expected });
    expect({ query, ids: postgresIds }).toStrictEqual({ query, ids: expected });
    if (expected.length > 0) found += 1;
  }
  sqlite.close();
  return found;
}

describe("the ranked queries on real catalogues", () => {
  it("give createIndex's top 10 on the CNAE subclasses for each of 150 and more real queries, on SQLite and PostgreSQL", async () => {
    const queries = cnaeQueries();
    expect(queries.length).toBeGreaterThanOrEqual(150);
    // The set is made of real questions: nearly all of them find something.
    expect(await checkTopTen(CNAE_ENTRIES, queries)).toBeGreaterThan(queries.length * 0.9);
  });

  it("give createIndex's top 10 on 30,000 real-shaped entries for the ranking bench's queries and the CNAE set", async () => {
    const queries = [...buildQueries("pt"), ...cnaeQueries()];
    expect(await checkTopTen(buildCorpus("pt", 30_000), queries)).toBeGreaterThan(queries.length * 0.8);
  });

  it("rank random catalogues exactly as createIndex does, 300 runs", async () => {
    await fc.assert(
      fc.asyncProperty(RANKING_CASE, async ({ entries, queries, limit }) => {
        await pg.exec("TRUNCATE catalogue");
        await loadPostgres(pg, entries);
        const sqlite = new Database(":memory:");
        sqlite.exec(SQLITE_SCHEMA);
        loadSqlite(sqlite, entries);
        const index = createIndex(entries);
        const options = { ...OPTIONS, ...(limit === undefined ? {} : { limit }) };
        for (const query of queries) {
          const expected = index.search(query, limit === undefined ? {} : { limit }).map((hit) => hit.id);
          const lite = buildSqliteRankedQuery(query, options);
          const postgres = buildPostgresRankedQuery(query, options);
          expect((sqlite.prepare(lite.sql).all(...lite.params) as { id: string }[]).map((row) => row.id)).toStrictEqual(expected);
          expect((await pg.query<{ id: string }>(postgres.sql, [...postgres.params])).rows.map((row) => row.id)).toStrictEqual(expected);
        }
        sqlite.close();
      }),
      { numRuns: 300, seed: 3535 },
    );
  });

  it("give createIndex's results from the D1 server of docs/sql.md on a real D1, over a real MCP client, for the CNAE set", async () => {
    interface D1Program {
      CATALOGUE_SCHEMA: string;
      saveEntry(db: unknown, entry: IndexEntry): Promise<void>;
      createCatalogueServer(db: unknown): McpServer;
    }
    const program = writePrograms().find((candidate) => candidate.doc === "docs/sql.md" && candidate.section === "SQLite and Cloudflare D1")!;
    const before = globalThis.__docStdio?.length ?? 0;
    const d1Program = (await import(/* @vite-ignore */ pathToFileURL(program.runnable).href)) as D1Program;
    for (const pair of (globalThis.__docStdio ?? []).splice(before)) pair.input.end();
    const mf = new Miniflare({ modules: true, script: "export default { fetch() { return new Response(null, { status: 404 }); } }", compatibilityDate: "2026-04-01", d1Databases: ["DB"] });
    try {
      const db = await mf.getD1Database("DB");
      // The schema as a migration runs it: one statement at a time, a trigger's body whole.
      for (const statement of d1Program.CATALOGUE_SCHEMA.split(/;\s*\n(?=CREATE)/).map((part) => part.trim()).filter((part) => part !== "")) {
        await db.prepare(statement.endsWith(";") ? statement : `${statement};`).run();
      }
      // A third of the subclasses: each saveEntry is a round trip to workerd.
      const entries = CNAE_ENTRIES.filter((_, i) => i % 3 === 0);
      for (const entry of entries) await d1Program.saveEntry(db, entry);
      const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
      await d1Program.createCatalogueServer(db).connect(serverTransport);
      const client = new Client({ name: "host", version: "1.0.0" });
      await client.connect(clientTransport);
      const index = createIndex(entries);
      for (const query of cnaeQueries()) {
        const reply = await client.callTool({ name: "search", arguments: { query } });
        expect({ query, results: reply.structuredContent }).toStrictEqual({ query, results: { results: index.search(query) } });
      }
      await client.close();
    } finally {
      await mf.dispose();
    }
  });
});
