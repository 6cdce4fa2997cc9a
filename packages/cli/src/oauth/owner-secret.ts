/**
 * The owner's secret, typed on the consent page to allow a client. It comes from
 * `MCP_SEARCH_OWNER_SECRET`, or from `--owner-secret-file FILE`; without either, the server makes
 * one at its first start and prints it once on stderr. Only its scrypt hash is kept, in the
 * state. A secret other than the one the state knows ends every grant.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { generateSecret, hashSecret, secretMatches, type SecretHash } from "./credentials.js";
import type { StateStore } from "./state.js";

/** The shortest secret accepted: twelve characters, with the rate limits of the consent page. */
const MIN_SECRET_LENGTH = 12;
/** The largest secret file read. */
const MAX_SECRET_FILE_BYTES = 4096;

/** Where the owner's secret comes from. */
interface OwnerSecretSource {
  /** `MCP_SEARCH_OWNER_SECRET`, when set and not empty. */
  readonly environment?: string | undefined;
  /** `--owner-secret-file`. */
  readonly file?: string | undefined;
}

/**
 * The secret configured by the environment or the file, checked; `undefined` when neither is
 * given. Throws one sentence for a secret that is too short or a file that cannot be read.
 *
 * @example
 * configuredSecret({ environment: "correct horse battery" }); // => "correct horse battery"
 */
export function configuredSecret(source: OwnerSecretSource): string | undefined {
  let secret = source.environment === "" ? undefined : source.environment;
  let from = "MCP_SEARCH_OWNER_SECRET";
  if (secret === undefined && source.file !== undefined) {
    secret = readSecretFile(source.file).replace(/\r?\n$/, "");
    from = `--owner-secret-file ${source.file}`;
  }
  if (secret === undefined) return undefined;
  if ([...secret].length < MIN_SECRET_LENGTH || secret.length > 1024) {
    throw new Error(`the owner's secret from ${from} must be ${MIN_SECRET_LENGTH} to 1024 characters long (it is ${[...secret].length}).`);
  }
  return secret;
}

function readSecretFile(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new Error(`--owner-secret-file ${path} cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || info.size > MAX_SECRET_FILE_BYTES) throw new Error(`--owner-secret-file ${path} must be a regular file of at most ${MAX_SECRET_FILE_BYTES} bytes.`);
    const bytes = Buffer.alloc(info.size);
    const read = readSync(fd, bytes, 0, info.size, 0);
    return bytes.subarray(0, read).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/**
 * The hash the consent page checks against, settled with the state:
 * - a configured secret the state knows: kept;
 * - a configured secret the state does not know: its hash replaces the old one, and every grant
 *   ends (the owner changed the secret to lock everyone out);
 * - no configured secret, and one in the state: the one printed at the first start;
 * - neither: a new one, printed once through `announce`, and only its hash kept.
 *
 * @example
 * const hash = await settleOwnerSecret(store, configuredSecret(source), log, (secret) => process.stderr.write(secret));
 */
export async function settleOwnerSecret(store: StateStore, configured: string | undefined, log: (line: string) => void, announce: (secret: string) => void): Promise<SecretHash> {
  const known = store.read().ownerSecret;
  if (configured !== undefined) {
    if (known !== undefined && (await secretMatches(configured, known))) return known;
    const hash = await hashSecret(configured);
    const ended = store.read().grants.length;
    store.update((state) => ({ ...state, ownerSecret: hash, grants: [] }));
    if (known !== undefined) log(`oauth: the owner's secret changed${ended > 0 ? `: ${ended} grant${ended === 1 ? "" : "s"} ended` : ""}`);
    return hash;
  }
  if (known !== undefined) return known;
  const secret = generateSecret();
  const hash = await hashSecret(secret);
  store.update((state) => ({ ...state, ownerSecret: hash, grants: [] }));
  announce(secret);
  return hash;
}
