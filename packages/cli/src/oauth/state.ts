/**
 * What the authorization server remembers across restarts (`--state DIR`, by default the
 * `--cache` folder): the registered clients, the grants with their refresh tokens (hashed), the
 * key that signs access tokens, and the hash of the owner's secret. Without a folder, the state
 * lives in memory and a restart ends every grant.
 *
 * One file, `<dir>/mcp-search-oauth.json`, kept with the snapshot's care: the folder must be the
 * user's own and writable by nobody else (anyone who can write there can forge a client or a
 * grant); the file is opened with `O_NOFOLLOW | O_NONBLOCK`, must be a regular file of at most
 * {@link MAX_STATE_BYTES}, and its shape is checked; a write goes to a new file under a random
 * name (`O_EXCL | O_NOFOLLOW`, mode 600) renamed over the old one. No token and no secret is kept
 * in plain text: refresh tokens and client secrets as SHA-256 digests, the owner's secret as a
 * scrypt hash. The signing key is the one secret kept as it is, as an SSH key is, readable by the
 * owner only.
 *
 * `mcp-search revoke` writes the same file while a server may run: the server notices the change
 * (size, modification time, inode) before each use and reads the file again.
 */
import { randomBytes } from "node:crypto";
import { statSync, type Stats } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { checkPrivateFolder, readCacheFile, writeCacheFile } from "../folder/cache-file.js";

/** The largest state file read: 4 MiB (100 clients and their grants take a few kilobytes). */
const MAX_STATE_BYTES = 4 * 1024 * 1024;

/** The file's name inside the state folder. */
export const STATE_FILE_NAME = "mcp-search-oauth.json";

const clientSchema = z.strictObject({
  clientId: z.string().min(1).max(200),
  clientName: z.string().max(200).optional(),
  redirectUris: z.array(z.string().max(2000)).min(1).max(10),
  authMethod: z.enum(["none", "client_secret_post", "client_secret_basic"]),
  /** SHA-256 of the client secret, base64url; absent for a public client. */
  secretHash: z.string().max(100).optional(),
  issuedAt: z.number().int().nonnegative(),
});

const grantSchema = z.strictObject({
  id: z.string().min(1).max(100),
  clientId: z.string().min(1).max(200),
  resource: z.string().max(2000),
  scope: z.string().max(200),
  createdAt: z.number().int().nonnegative(),
  /** SHA-256 of the refresh token that is valid now. */
  refreshHash: z.string().max(100),
  refreshExpiresAt: z.number().int().nonnegative(),
  /** SHA-256 of the refresh tokens this grant has rotated away: one seen again revokes the grant. */
  usedRefreshHashes: z.array(z.string().max(100)).max(64),
});

const stateSchema = z.strictObject({
  version: z.literal(1),
  /** The HMAC key of access tokens, base64url, 32 bytes. */
  signingKey: z.string().regex(/^[\w-]{43}$/),
  /** The scrypt hash of the owner's secret. */
  ownerSecret: z.strictObject({ salt: z.string().max(100), hash: z.string().max(200) }).optional(),
  clients: z.array(clientSchema).max(1000),
  grants: z.array(grantSchema).max(10_000),
});

/** A client registered by RFC 7591 dynamic registration. */
export type RegisteredClient = z.infer<typeof clientSchema>;
/** One authorisation the owner gave a client, alive while its refresh token is. */
export type Grant = z.infer<typeof grantSchema>;
/** Everything the state file holds. */
export type OAuthState = z.infer<typeof stateSchema>;

/**
 * The authorization server's state, read and written as a whole.
 *
 * @example
 * const store = openStateStore("/home/me/.cache/mcp-search", log);
 * store.update((state) => ({ ...state, grants: [] }));
 */
export interface StateStore {
  /** The current state, read again first when the file changed on disk. */
  read(): OAuthState;
  /** Reads the current state, applies `change` and writes the result; returns it. */
  update(change: (state: OAuthState) => OAuthState): OAuthState;
  /** Where the state lives, for log lines: the file, or "memory". */
  readonly where: string;
}

/** A fresh state: a new signing key, nothing else. */
function emptyState(): OAuthState {
  return { version: 1, signingKey: randomBytes(32).toString("base64url"), clients: [], grants: [] };
}

/**
 * Opens the state kept in `dir`, or in memory when `dir` is undefined. Throws one sentence when
 * `dir` is not a folder only this user can write; a state file that cannot be trusted (a link,
 * not a regular file, too large, malformed) is also refused with one sentence rather than
 * silently replaced, so a mistake never ends the owner's grants.
 *
 * @example
 * const store = openStateStore(undefined, log); // in memory
 * store.where; // => "memory"
 */
export function openStateStore(dir: string | undefined, log: (line: string) => void): StateStore {
  if (dir === undefined) {
    let state = emptyState();
    return {
      where: "memory",
      read: () => state,
      update(change) {
        state = change(state);
        return state;
      },
    };
  }
  checkPrivateFolder(dir, "--state", "a grant");
  const path = join(dir, STATE_FILE_NAME);
  let state: OAuthState;
  let seen: string | undefined;
  const load = (): void => {
    const file = readStateFile(path);
    if (file === undefined) {
      if (seen === undefined) {
        state = emptyState();
        write();
      }
      return;
    }
    state = file.state;
    seen = file.stamp;
  };
  const write = (): void => {
    try {
      writeCacheFile(path, [Buffer.from(`${JSON.stringify(state, null, 1)}\n`)]);
      seen = stampOf(statSync(path));
    } catch (error) {
      log(`oauth state not written: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  state = emptyState();
  load();
  return {
    where: path,
    read() {
      if (changedOnDisk(path, seen)) load();
      return state;
    },
    update(change) {
      if (changedOnDisk(path, seen)) load();
      state = change(state);
      write();
      return state;
    },
  };
}

/** What identifies one version of the file: inode, size and modification time. */
function stampOf(info: Stats): string {
  return `${info.ino}:${info.size}:${info.mtimeMs}`;
}

function changedOnDisk(path: string, seen: string | undefined): boolean {
  try {
    return stampOf(statSync(path)) !== seen;
  } catch {
    return seen !== undefined;
  }
}

/** Reads and checks the state file; `undefined` when there is none. Throws saying why it is refused. */
function readStateFile(path: string): { state: OAuthState; stamp: string } | undefined {
  let bytes: Buffer;
  try {
    bytes = readCacheFile(path, MAX_STATE_BYTES);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(`the OAuth state ${path} cannot be used: ${error instanceof Error ? error.message : String(error)}. Remove it, or use another --state folder.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString("utf8"));
  } catch {
    parsed = undefined;
  }
  const checked = stateSchema.safeParse(parsed);
  if (!checked.success) throw new Error(`the OAuth state ${path} is malformed: remove it to start again (every grant ends), or restore it.`);
  return { state: checked.data, stamp: stampOf(statSync(path)) };
}
