/**
 * The schema of docs/sql.md for the ranked queries, in SQLite and in PostgreSQL, and loaders that
 * fill it from index entries, shared by the tests (test/sql/) and the bench (bench/sql-rank.bench.ts).
 * The tie order is the `position` column: an entry's index in the array given to `createIndex`.
 */
import type Database from "better-sqlite3";
import { toRankedRow, type IndexEntry, type RankedRow, type RankedRowOptions } from "../src/index.js";

/** SQLite: the entries, their ranked columns, and the FTS5 table that finds the candidates. */
export const SQLITE_SCHEMA = `
CREATE TABLE catalogue (
  position INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  title TEXT NOT NULL,
  url TEXT NOT NULL,
  id_tokens TEXT NOT NULL,
  title_tokens TEXT NOT NULL,
  keyword_tokens TEXT NOT NULL,
  text_tokens TEXT NOT NULL,
  title_phrase TEXT NOT NULL,
  lexemes TEXT NOT NULL
);
CREATE VIRTUAL TABLE catalogue_lexemes USING fts5(
  lexemes, content = 'catalogue', content_rowid = 'position', detail = 'none', prefix = '4 5 6 7 8 9'
);
CREATE TRIGGER catalogue_insert AFTER INSERT ON catalogue BEGIN
  INSERT INTO catalogue_lexemes (rowid, lexemes) VALUES (new.position, new.lexemes);
END;
CREATE TRIGGER catalogue_delete AFTER DELETE ON catalogue BEGIN
  INSERT INTO catalogue_lexemes (catalogue_lexemes, rowid, lexemes) VALUES ('delete', old.position, old.lexemes);
END;
CREATE TRIGGER catalogue_update AFTER UPDATE ON catalogue BEGIN
  INSERT INTO catalogue_lexemes (catalogue_lexemes, rowid, lexemes) VALUES ('delete', old.position, old.lexemes);
  INSERT INTO catalogue_lexemes (rowid, lexemes) VALUES (new.position, new.lexemes);
END;
`;

/** PostgreSQL: the same columns, and a GIN index on the lexemes and their prefixes as a tsvector. */
export const POSTGRES_SCHEMA = `
CREATE OR REPLACE FUNCTION ranked_lexeme_vector(lexemes text) RETURNS tsvector
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT array_to_tsvector(coalesce(array_agg(DISTINCT lexeme), '{}'))
  FROM unnest(string_to_array(lexemes, ' ')) AS token,
  LATERAL (SELECT token UNION ALL SELECT upper(left(token, 1)) || substr(token, 2, n) FROM generate_series(3, least(length(token) - 1, 8)) AS n) AS found(lexeme)
  WHERE token <> ''
$$;
CREATE TABLE catalogue (
  position bigint PRIMARY KEY,
  id text NOT NULL UNIQUE,
  title text NOT NULL,
  url text NOT NULL,
  id_tokens text NOT NULL,
  title_tokens text NOT NULL,
  keyword_tokens text NOT NULL,
  text_tokens text NOT NULL,
  title_phrase text NOT NULL,
  lexemes text NOT NULL,
  lexeme_vector tsvector GENERATED ALWAYS AS (ranked_lexeme_vector(lexemes)) STORED
);
CREATE INDEX catalogue_lexeme_vector ON catalogue USING gin (lexeme_vector);
`;

const COLUMNS = ["position", "id", "title", "url", "id_tokens", "title_tokens", "keyword_tokens", "text_tokens", "title_phrase", "lexemes"] as const;
type Row = Record<(typeof COLUMNS)[number], string | number>;

/** The row of `entry` at `position`. */
export function catalogueRow(entry: IndexEntry, position: number, options?: RankedRowOptions): Row {
  const ranked: RankedRow = toRankedRow(entry, options);
  return { position, id: entry.id, title: entry.title, url: entry.url, ...ranked };
}

/** Inserts `entries` in one transaction, positions 0…n-1, into a database that has {@link SQLITE_SCHEMA}. */
export function loadSqlite(db: Database.Database, entries: readonly IndexEntry[], options?: RankedRowOptions): void {
  const insert = db.prepare(`INSERT INTO catalogue (${COLUMNS.join(", ")}) VALUES (${COLUMNS.map((name) => `@${name}`).join(", ")})`);
  db.transaction(() => entries.forEach((entry, position) => insert.run(catalogueRow(entry, position, options))))();
}

/** What node-postgres's Client and PGlite both offer. */
export interface Queryable {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** Inserts `entries` into a database that has {@link POSTGRES_SCHEMA}, `batch` rows a statement, positions 0…n-1. */
export async function loadPostgres(db: Queryable, entries: readonly IndexEntry[], options?: RankedRowOptions, batch = 5000): Promise<void> {
  const types = ["bigint", ...COLUMNS.slice(1).map(() => "text")];
  const sql = `INSERT INTO catalogue (${COLUMNS.join(", ")}) SELECT * FROM unnest(${types.map((type, i) => `$${i + 1}::${type}[]`).join(", ")})`;
  for (let from = 0; from < entries.length; from += batch) {
    const rows = entries.slice(from, from + batch).map((entry, i) => catalogueRow(entry, from + i, options));
    await db.query(sql, COLUMNS.map((name) => rows.map((row) => row[name])));
  }
}
