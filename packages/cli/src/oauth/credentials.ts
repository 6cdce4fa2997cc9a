/**
 * The credentials of the authorization server, each made and checked in one place: random
 * tokens and their digests, PKCE (S256 only), the owner's secret (scrypt), and access tokens
 * (JWTs signed with HS256 by `jose`, loaded only with `--oauth`).
 */
import { createHash, randomBytes, randomInt, scrypt, timingSafeEqual } from "node:crypto";

/**
 * A random token of `bytes` bytes, base64url: codes, refresh tokens, client ids and secrets.
 *
 * @example
 * randomToken().length; // => 43
 */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/**
 * The SHA-256 digest of a token, base64url: what the state keeps instead of the token. Tokens are
 * 256-bit random values, so a fast digest is enough; a person's secret gets scrypt instead.
 *
 * @example
 * digestToken("abc"); // => "ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0"
 */
export function digestToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("base64url");
}

/** True when two digests are equal, in constant time. */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** RFC 7636 §4.1: 43 to 128 characters of the unreserved set. */
const VERIFIER = /^[\w.~-]{43,128}$/;
/** An S256 challenge: the base64url SHA-256 of a verifier, 43 characters. */
const CHALLENGE = /^[\w-]{43}$/;

/** True for a well-formed S256 code challenge. */
export function isCodeChallenge(value: string): boolean {
  return CHALLENGE.test(value);
}

/**
 * True when `verifier` is well formed and its S256 challenge is `challenge` (RFC 7636 §4.6).
 *
 * @example
 * verifierMatches("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"); // => true
 */
export function verifierMatches(verifier: string, challenge: string): boolean {
  return VERIFIER.test(verifier) && sameDigest(createHash("sha256").update(verifier, "ascii").digest("base64url"), challenge);
}

/** The scrypt hash of the owner's secret, and its salt, both base64url. */
export interface SecretHash {
  readonly salt: string;
  readonly hash: string;
}

/** scrypt's cost: N = 2^15, r = 8 (32 MiB and about 0.1 s a check), so an offline guess is slow too. */
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;

function scryptHash(secret: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(secret.normalize("NFC"), salt, 32, SCRYPT, (error, key) => (error === null ? resolve(key) : reject(error)));
  });
}

/**
 * Hashes the owner's secret with a new salt.
 *
 * @example
 * const stored = await hashSecret("correct horse battery"); // => { salt: "…", hash: "…" }
 */
export async function hashSecret(secret: string): Promise<SecretHash> {
  const salt = randomBytes(16);
  return { salt: salt.toString("base64url"), hash: (await scryptHash(secret, salt)).toString("base64url") };
}

/**
 * True when `secret` is the one `stored` was made from, compared in constant time.
 *
 * @example
 * await secretMatches("correct horse battery", await hashSecret("correct horse battery")); // => true
 */
export async function secretMatches(secret: string, stored: SecretHash): Promise<boolean> {
  const expected = Buffer.from(stored.hash, "base64url");
  const actual = await scryptHash(secret, Buffer.from(stored.salt, "base64url"));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** Letters and digits that read unambiguously aloud and on a phone (no 0/o, 1/l/i). */
const SECRET_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/**
 * A new owner's secret: five groups of five characters, about 122 bits, easy to type on a phone.
 *
 * @example
 * generateSecret(); // => "k7mqz-3hwpa-…"
 */
export function generateSecret(): string {
  const groups: string[] = [];
  for (let group = 0; group < 5; group += 1) {
    let text = "";
    for (let index = 0; index < 5; index += 1) text += SECRET_ALPHABET[randomInt(SECRET_ALPHABET.length)];
    groups.push(text);
  }
  return groups.join("-");
}

/** The claims of an access token this server signs. */
interface AccessClaims {
  /** The grant it belongs to: a revoked grant ends its access tokens at once. */
  readonly grantId: string;
  readonly clientId: string;
  readonly scope: string;
  /** The resource it is for (RFC 8707): the MCP endpoint's URL. */
  readonly resource: string;
  /** Seconds since the epoch. */
  readonly expiresAt: number;
}

type Jose = typeof import("jose");
let jose: Promise<Jose> | undefined;
/** jose loads with the first token, so a server without `--oauth` never pays for it. */
function loadJose(): Promise<Jose> {
  jose ??= import("jose");
  return jose;
}

/**
 * Signs an access token (an RFC 9068 JWT, HS256) for `claims`, issued by `issuer` at `now`.
 *
 * @example
 * const token = await signAccessToken(key, "http://127.0.0.1:8787", claims, Date.now());
 */
export async function signAccessToken(key: Uint8Array, issuer: string, claims: AccessClaims, now: number): Promise<string> {
  const { SignJWT } = await loadJose();
  return new SignJWT({ client_id: claims.clientId, scope: claims.scope, gid: claims.grantId })
    .setProtectedHeader({ alg: "HS256", typ: "at+jwt" })
    .setIssuer(issuer)
    .setAudience(claims.resource)
    .setSubject("owner")
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(claims.expiresAt)
    .setJti(randomToken(16))
    .sign(key);
}

/**
 * The claims of an access token signed with `key` by `issuer`, unexpired at `now`, or
 * `undefined` for any token that is not (forged, expired, malformed, of another issuer). The
 * audience is returned, not checked: the caller compares it with its own resource.
 *
 * @example
 * (await verifyAccessToken(key, issuer, token, Date.now()))?.resource; // => "http://127.0.0.1:8787/mcp"
 */
export async function verifyAccessToken(key: Uint8Array, issuer: string, token: string, now: number): Promise<AccessClaims | undefined> {
  const { jwtVerify } = await loadJose();
  try {
    const { payload } = await jwtVerify(token, key, { issuer, algorithms: ["HS256"], typ: "at+jwt", currentDate: new Date(now), requiredClaims: ["exp", "aud"] });
    const { gid, client_id: clientId, scope, aud, exp } = payload;
    if (typeof gid !== "string" || typeof clientId !== "string" || typeof scope !== "string" || typeof aud !== "string" || typeof exp !== "number") return undefined;
    return { grantId: gid, clientId, scope, resource: aud, expiresAt: exp };
  } catch {
    return undefined;
  }
}
