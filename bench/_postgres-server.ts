/**
 * A real PostgreSQL server for a bench: Debian's `postgresql` package (`apt-get install -y
 * postgresql`), a new cluster in a temporary folder, listening on a Unix socket in that folder
 * only (no TCP port), stopped and deleted by `stop()`. initdb and the server refuse to run as
 * root, so as root they run as the `postgres` user (runuser), who gets the folder.
 *
 * Durability is off (fsync, full_page_writes, synchronous_commit): a bench cluster is thrown
 * away, and the load then measures PostgreSQL's work rather than this disk's flushes. Queries
 * read from memory either way once the data is cached.
 */
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

export interface PostgresServer {
  /** A connected client. */
  readonly client: pg.Client;
  /** The server's major version, e.g. "15". */
  readonly version: string;
  /** Disconnects, stops the server and deletes its folder. */
  stop(): Promise<void>;
}

/** The folder of Debian's newest installed PostgreSQL binaries, or undefined. */
function binaries(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((name) => existsSync(join(root, name, "bin", "pg_ctl"))).sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], "bin");
}

/**
 * Starts a server with `settings` (name → value, passed as `-c name=value`). Throws with the
 * install command when Debian's PostgreSQL is missing.
 */
export async function startPostgresServer(settings: Readonly<Record<string, string>> = {}): Promise<PostgresServer> {
  const bin = binaries();
  if (bin === undefined) throw new Error("No PostgreSQL server found under /usr/lib/postgresql: run `apt-get install -y postgresql`.");
  const folder = mkdtempSync(join(tmpdir(), "mcp-search-pg-"));
  const data = join(folder, "data");
  const asRoot = process.getuid?.() === 0;
  const run = (command: string, args: readonly string[]): void => {
    const [file, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", join(bin, command), ...args]] : [join(bin, command), [...args]];
    execFileSync(file, argv, { stdio: ["ignore", "ignore", "pipe"], cwd: folder });
  };
  if (asRoot) chownSync(folder, Number(execFileSync("id", ["-u", "postgres"]).toString()), Number(execFileSync("id", ["-g", "postgres"]).toString()));
  run("initdb", ["-D", data, "-U", "bench", "-A", "trust", "--no-sync", "-E", "UTF8", "--locale", "C"]);
  const options = Object.entries({ listen_addresses: "''", unix_socket_directories: `'${folder}'`, fsync: "off", full_page_writes: "off", synchronous_commit: "off", ...settings })
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(" ");
  run("pg_ctl", ["start", "-D", data, "-w", "-l", join(folder, "server.log"), "-o", options]);
  const client = new pg.Client({ host: folder, user: "bench", database: "postgres" });
  await client.connect();
  const version = String((await client.query<{ server_version: string }>("SHOW server_version")).rows[0]?.server_version ?? "").split(".")[0] ?? "";
  return {
    client,
    version,
    async stop() {
      await client.end().catch(() => undefined);
      try {
        run("pg_ctl", ["stop", "-D", data, "-m", "fast", "-w"]);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}
