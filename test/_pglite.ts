/**
 * Shared by the tests that run SQL on PostgreSQL: a PGlite (Postgres 17 compiled to WASM) with
 * pg_trgm loaded. A new cluster's initdb takes most of its start (about 6 s of CPU), so the
 * cluster initdb made is kept under node_modules/.cache, one per PGlite version, and later starts
 * copy it (about 1 s). Each test file starts one instance and shares it among its tests. Not a
 * test file itself.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

const PGLITE_VERSION = (JSON.parse(readFileSync(new URL("../node_modules/@electric-sql/pglite/package.json", import.meta.url), "utf8")) as { version: string }).version;
const CLUSTER = fileURLToPath(new URL(`../../node_modules/.cache/pglite/cluster-${PGLITE_VERSION}.tar`, import.meta.url));

/** A PGlite on a fresh copy of the cached new cluster, or on a new one (then cached). */
export async function startPostgres(): Promise<PGlite> {
  if (existsSync(CLUSTER)) {
    try {
      return await PGlite.create({ extensions: { pg_trgm }, loadDataDir: new Blob([readFileSync(CLUSTER)]) });
    } catch {
      rmSync(CLUSTER, { force: true }); // unreadable: made again below
    }
  }
  const fresh = await PGlite.create({ extensions: { pg_trgm } });
  const cluster = await fresh.dumpDataDir("none");
  mkdirSync(dirname(CLUSTER), { recursive: true });
  writeFileSync(`${CLUSTER}.${process.pid}`, new Uint8Array(await cluster.arrayBuffer()));
  renameSync(`${CLUSTER}.${process.pid}`, CLUSTER);
  return fresh;
}
