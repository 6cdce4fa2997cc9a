/**
 * The servers of docs/sql.md, as a user would paste them: the D1 server (on better-sqlite3 behind
 * the D1 interface) and the PostgreSQL server (on PGlite), each loaded with the 1,332 CNAE
 * subclasses through the docs' own `saveEntry`, answer the same search and fetch calls over a
 * real MCP client exactly as a server built on `createIndex` over the same entries does. The
 * programs are the docs' code blocks (test/_doc-programs.ts), imported, not copied.
 */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIndex, registerDeepResearchTools, type IndexEntry } from "../../src/index.js";
import { writePrograms } from "../_doc-programs.js";
import { startPostgres } from "../_pglite.js";

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
const ENTRIES: IndexEntry[] = SUBCLASSES.map(([code, description]) => ({
  id: `cnae:${code}`,
  title: description,
  url: `https://concla.ibge.gov.br/busca-online-cnae.html?subclasse=${code}`,
  text: `Subclasse ${code} da CNAE 2.3: ${description.toLowerCase()}.`,
}));
const QUERIES = [
  "soja", "cultivo de soja", "comércio varejista", "fabricação de móveis", "0115600", "cnae:4711301", "fab", "criação de bovinos",
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

let pg: PGlite;
let sqlite: Database.Database;
const clients: Record<"createIndex" | "D1" | "PostgreSQL", Client> = {} as never;
const before = globalThis.__docStdio?.length ?? 0;

beforeAll(async () => {
  const programs = writePrograms().filter((program) => program.doc === "docs/sql.md");
  const load = async <T>(section: string): Promise<T> =>
    (await import(/* @vite-ignore */ pathToFileURL(programs.find((program) => program.section === section)!.runnable).href)) as T;
  const d1 = await load<D1Program>("SQLite and Cloudflare D1");
  const postgres = await load<PostgresProgram>("PostgreSQL");

  sqlite = new Database(":memory:");
  sqlite.exec(d1.CATALOGUE_SCHEMA);
  const db = d1OnSqlite(sqlite);
  sqlite.exec("BEGIN");
  for (const entry of ENTRIES) await d1.saveEntry(db, entry);
  sqlite.exec("COMMIT");
  clients.D1 = await clientOf(d1.createCatalogueServer(db));

  pg = await startPostgres();
  await pg.exec(postgres.POSTGRES_CATALOGUE_SCHEMA);
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
  await pg.close();
  // The D1 program also connected its own stdio server when imported: end it.
  for (const pair of (globalThis.__docStdio ?? []).splice(before)) pair.input.end();
});

describe("the servers of docs/sql.md", () => {
  it("answer search and fetch over a real MCP client exactly as the server built on createIndex", async () => {
    let hits = 0;
    for (const query of QUERIES) {
      const replies = await Promise.all(
        (["createIndex", "D1", "PostgreSQL"] as const).map((name) => clients[name].callTool({ name: "search", arguments: { query } })),
      );
      const [reference, ...others] = replies;
      for (const reply of others) expect({ query, reply }).toStrictEqual({ query, reply: reference });
      const results = (reference!.structuredContent as { results: { id: string }[] }).results;
      hits += results.length;
      for (const id of [results[0]?.id ?? "cnae:0115600", "cnae:9999999"]) {
        const fetched = await Promise.all((["createIndex", "D1", "PostgreSQL"] as const).map((name) => clients[name].callTool({ name: "fetch", arguments: { id } })));
        expect(fetched[1]).toStrictEqual(fetched[0]);
        expect(fetched[2]).toStrictEqual(fetched[0]);
      }
    }
    expect(hits).toBeGreaterThan(100);
  });

  it("rank an updated entry in its old place, as index.replace does, on both databases", async () => {
    const updated: IndexEntry = { ...ENTRIES[1]!, title: "Cultivo de milho e de soja" };
    const index = createIndex(ENTRIES);
    index.replace(updated);
    const programs = writePrograms().filter((program) => program.doc === "docs/sql.md");
    const load = async <T>(section: string): Promise<T> =>
      (await import(/* @vite-ignore */ pathToFileURL(programs.find((program) => program.section === section)!.runnable).href)) as T;
    await (await load<D1Program>("SQLite and Cloudflare D1")).saveEntry(d1OnSqlite(sqlite), updated);
    await (await load<PostgresProgram>("PostgreSQL")).savePostgresEntry(pg, updated);
    const expected = { results: index.search("soja") };
    for (const name of ["D1", "PostgreSQL"] as const) {
      const reply = await clients[name].callTool({ name: "search", arguments: { query: "soja" } });
      expect(reply.structuredContent).toStrictEqual(expected);
    }
  });
});
