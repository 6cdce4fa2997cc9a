/**
 * Paths that come from a model are untrusted input. This module holds the containment check of
 * every disk access, and the lexical clean-up that turns an id, a bare path, a url or a `file://`
 * URI into a path relative to the served root.
 *
 * The check has two entry points over one resolution ({@link containedPath}: one realpath, the
 * root check, and the rule of what is served, {@link isServedPath}, applied to the resolved
 * target): {@link readInside} reads a file's bytes (indexing, snippets, fetch, resources/read),
 * and {@link resolveInside} only stats a symbolic link's target (the refresh's change check).
 * Nothing else opens a document.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, realpathSync, type Stats } from "node:fs";
import { extname, isAbsolute, relative as relativePath, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { SUPPORTED_EXTENSIONS } from "../formats/documents.js";

/** The id prefix of every document: `doc:guides/brewing.md`. */
export const ID_PREFIX = "doc:";

/**
 * An id taken apart: the relative path it names and the page it asks for, or why it was refused
 * before touching the disk.
 *
 * @example
 * const parsed: ParsedId = { ok: true, relative: "guides/brewing.md", page: 2 };
 */
type ParsedId =
  | { readonly ok: true; readonly relative: string; readonly page: number }
  | { readonly ok: false; readonly why: RefusedId };

/**
 * Why an id was refused before any disk access: it holds a NUL byte, names no path at all
 * (`doc:`, `doc:.`), cannot be decoded (bad percent-encoding, a malformed `file://` URI), or
 * climbs out of the served folder.
 *
 * @example
 * const why: RefusedId = "empty";
 */
export type RefusedId = "nul" | "empty" | "invalid" | "outside";

/** Where the served folder lives, and how its documents are addressed. */
interface RootAddress {
  /** The root with every symlink resolved (realpath). */
  readonly root: string;
  /** The base URL documents are published under, ending in "/", if any. @default undefined */
  readonly baseUrl?: string | undefined;
}

/**
 * Folders never indexed, wherever they are: version control, dependencies, build output and
 * virtual environments. Every folder whose name starts with "." is skipped too.
 *
 * @example
 * VENDOR_FOLDERS.has("node_modules"); // => true
 */
export const VENDOR_FOLDERS: ReadonlySet<string> = new Set([
  "node_modules", "bower_components", "jspm_packages", "vendor", "dist", "build", "out", "target",
  "coverage", "venv", "env", "__pycache__", "site-packages", "_build", "__MACOSX",
]);

/**
 * True when a path relative to the root names something the server serves: no segment hidden
 * (starting with ".") or a vendor folder ({@link VENDOR_FOLDERS}), and a supported extension.
 * The folder's walk skips such names as it lists them; {@link containedPath} applies the rule to
 * where a symbolic link leads, so `env.txt -> .env` or `notes.md -> node_modules/x/README.md`
 * serve nothing.
 *
 * @example
 * isServedPath("guides/brewing.md"); // => true
 * isServedPath(".git/config");       // => false
 * isServedPath("docs/.secret.md");   // => false
 * isServedPath(".env");              // => false
 * isServedPath("keys/id_rsa");       // => false (no supported extension)
 */
export function isServedPath(relative: string): boolean {
  const parts = relative.split(BACKSLASH_SEPARATES ? /[\\/]/ : "/");
  // Stryker disable next-line StringLiteral: split always gives at least one part, so the fallback never runs
  const last = parts[parts.length - 1] ?? "";
  for (const [index, part] of parts.entries()) {
    if (part.startsWith(".") || (index < parts.length - 1 && VENDOR_FOLDERS.has(part))) return false;
  }
  return SUPPORTED_EXTENSIONS.has(extname(last).toLowerCase());
}

/**
 * The file system calls of the containment check. Tests pass a wrapper that swaps a file
 * between the check and the open, to show each after-open check stopping the swap on its own.
 *
 * @example
 * const fs: InsideFileSystem = { ...NODE_FILE_SYSTEM, noFollow: 0 }; // as where O_NOFOLLOW is missing
 */
export interface InsideFileSystem {
  realpath(path: string): string;
  lstat(path: string): Pick<Stats, "dev" | "ino" | "isFile">;
  open(path: string, flags: number): number;
  fstat(fd: number): Pick<Stats, "dev" | "ino" | "isFile" | "size" | "mtimeMs">;
  read(fd: number, buffer: Buffer, offset: number, length: number, position: number): number;
  close(fd: number): void;
  /** The path the system holds for an open descriptor, or `undefined` where it names none. */
  descriptorPath(fd: number): string | undefined;
  /** `O_NOFOLLOW`, or 0 where the platform lacks it (Windows). */
  readonly noFollow: number;
}

/** The real file system: libuv's realpath (`realpathSync.native`) and `/proc/self/fd` on Linux. */
export const NODE_FILE_SYSTEM: InsideFileSystem = {
  realpath: (path) => realpathSync.native(path),
  lstat: (path) => lstatSync(path),
  open: (path, flags) => openSync(path, flags),
  fstat: (fd) => fstatSync(fd),
  read: (fd, buffer, offset, length, position) => readSync(fd, buffer, offset, length, position),
  close: (fd) => closeSync(fd),
  descriptorPath,
  noFollow: constants.O_NOFOLLOW ?? 0,
};

/**
 * The one resolution of the containment check: `relative` resolved under `root` with every
 * symbolic link followed (one realpath), then refused when it lands outside the root or on
 * something not served ({@link isServedPath}, applied to the target's path relative to the root).
 * Throws the file system's error for a path that does not resolve.
 */
function containedPath(root: string, relative: string, fs: InsideFileSystem): { real: string } | { refused: "outside" | "not-served" } {
  const real = fs.realpath(resolve(root, relative));
  if (!isWithin(root, real)) return { refused: "outside" };
  const rel = relativePath(root, real);
  return rel === "" || !isServedPath(rel) ? { refused: "not-served" } : { real };
}

/**
 * Resolves `relative` under `root` and returns the real path (symlinks resolved) only when it
 * is inside the root and names a served file ({@link containedPath}, the same resolution as
 * {@link readInside}). A link inside the root that points outside or at a hidden or vendor file,
 * a missing file, or a path that climbs out all give `null`. `root` must itself be a real path.
 * It only resolves: reading goes through {@link readInside}.
 *
 * @example
 * await resolveInside("/srv/docs", "guides/brewing.md"); // => "/srv/docs/guides/brewing.md"
 * await resolveInside("/srv/docs", "../etc/passwd");     // => null
 * await resolveInside("/srv/docs", "env.txt");           // => null (a link to .env)
 */
export async function resolveInside(root: string, relative: string, fs: InsideFileSystem = NODE_FILE_SYSTEM): Promise<string | null> {
  if (relative.includes("\0")) return null;
  try {
    const found = containedPath(root, relative, fs);
    return "real" in found ? found.real : null;
  } catch {
    return null;
  }
}

/**
 * What {@link readInside} found: the bytes and the stat of the very file read, or why nothing
 * was read. `code` is the file system's error code, when there was one.
 *
 * @example
 * const read: InsideRead = { ok: false, why: "unreadable", code: "EACCES" };
 */
export type InsideRead =
  | { readonly ok: true; readonly bytes: Buffer; readonly modified: number; readonly size: number }
  | { readonly ok: false; readonly why: "outside" | "not-served" | "missing" | "not-file" | "too-large" | "changed" | "unreadable"; readonly code?: string };

/**
 * Checks and reads `relative` under `root` as ONE operation on one file descriptor, so a file
 * swapped for a symbolic link between the check and the read cannot make it read anything outside
 * the root. The path is resolved and checked ({@link containedPath}: inside the root, and served:
 * a link to `.env` is refused as `"not-served"`); the real path is opened with `O_NOFOLLOW` (a
 * link swapped in as its last part fails to open); the descriptor's device and inode must be those
 * of the checked path (a folder above the file swapped for a link to another folder); where the
 * system names an open descriptor's file (`/proc/self/fd` on Linux), that name must be inside the
 * root too (a folder moved out and linked back, the same inode). Only then is the descriptor
 * read, at most `max` bytes. `O_NONBLOCK` keeps a FIFO swapped in from blocking the server.
 * Synchronous on purpose: a file is capped, and one blocking read from the page cache is about
 * twice as fast as `readFile`'s thread-pool round trips. `fs` is for tests.
 *
 * @example
 * readInside("/srv/docs", "guides/brewing.md", 1 << 20); // => { ok: true, bytes: <Buffer …>, … }
 * readInside("/srv/docs", "leak.md", 1 << 20);           // => { ok: false, why: "outside" } (a link to /etc/passwd)
 */
export function readInside(root: string, relative: string, max: number, fs: InsideFileSystem = NODE_FILE_SYSTEM): InsideRead {
  if (relative.includes("\0")) return { ok: false, why: "outside" };
  let real: string;
  let checked: { dev: number; ino: number; isFile(): boolean };
  try {
    const found = containedPath(root, relative, fs);
    if ("refused" in found) return { ok: false, why: found.refused };
    real = found.real;
    checked = fs.lstat(real);
  } catch (error) {
    return failed(error);
  }
  if (!checked.isFile()) return { ok: false, why: "not-file" };
  let fd: number;
  try {
    fd = fs.open(real, constants.O_RDONLY | constants.O_NONBLOCK | fs.noFollow);
  } catch (error) {
    return failed(error);
  }
  try {
    const info = fs.fstat(fd);
    if (info.dev !== checked.dev || info.ino !== checked.ino || !info.isFile()) return { ok: false, why: "changed" };
    const named = fs.descriptorPath(fd);
    if (named !== undefined && !isWithin(root, named.replace(/ \(deleted\)$/, ""))) return { ok: false, why: "changed" };
    if (info.size > max) return { ok: false, why: "too-large" };
    const buffer = Buffer.allocUnsafe(info.size);
    let read = 0;
    while (read < info.size) {
      const n = fs.read(fd, buffer, read, info.size - read, read);
      if (n === 0) break; // the file shrank since fstat
      read += n;
    }
    return { ok: true, bytes: buffer.subarray(0, read), modified: info.mtimeMs, size: info.size };
  } catch (error) {
    return failed(error);
  } finally {
    fs.close(fd);
  }
}

/** The path the system holds for an open descriptor (Linux), or `undefined` where it names none. */
function descriptorPath(fd: number): string | undefined {
  if (process.platform !== "linux") return undefined;
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/** An error of the file system as a refusal; a link swapped in (`ELOOP`) means the file changed. */
function failed(error: unknown): InsideRead {
  const code = (error as NodeJS.ErrnoException).code ?? "";
  if (code === "ENOENT" || code === "ENOTDIR") return { ok: false, why: "missing", code };
  if (code === "ELOOP") return { ok: false, why: "changed", code };
  return { ok: false, why: "unreadable", code };
}

/**
 * An error's message with every mention of the served folder's absolute path made relative to it,
 * so no answer reveals where the folder lives on the server's disk.
 *
 * @example
 * relativeMessage("/srv/docs", "EACCES: permission denied, scandir '/srv/docs/private'");
 * // => "EACCES: permission denied, scandir './private'"
 */
export function relativeMessage(root: string, message: string): string {
  return root === sep ? message : message.replaceAll(root, ".");
}

/** True when `candidate` is `root` or below it; both absolute, already resolved. */
function isWithin(root: string, candidate: string): boolean {
  const rel = relativePath(root, candidate);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** True where `\` separates path segments (Windows); elsewhere it is a character of a file name. */
const BACKSLASH_SEPARATES = sep === "\\";

/**
 * Cleans a relative path lexically: backslashes become slashes, leading slashes are dropped (an
 * absolute-looking path is read relative to the root), `.` and empty segments vanish, and a `..`
 * that would climb above the root is refused. A drive letter (`C:`) is refused too. With
 * `backslashes: "literal"`, only `/` separates segments and `\` and `C:` are characters of a
 * name, as they are in a file name on Linux or macOS.
 *
 * @example
 * cleanRelative("/guides\\brewing.md");             // => "guides/brewing.md"
 * cleanRelative("guides\\brewing.md", "literal");   // => "guides\\brewing.md"
 * cleanRelative("a/../../etc/passwd");               // => null
 */
// Stryker disable next-line StringLiteral: any default but "literal" reads backslashes as separators
export function cleanRelative(path: string, backslashes: "separator" | "literal" = "separator"): string | null {
  if (path.includes("\0")) return null;
  const literal = backslashes === "literal";
  if (!literal && /^[a-zA-Z]:/.test(path)) return null;
  const parts: string[] = [];
  for (const part of (literal ? path : path.replaceAll("\\", "/")).split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.pop() === undefined) return null;
      continue;
    }
    parts.push(part);
  }
  return parts.length === 0 ? null : parts.join("/");
}

/**
 * Reads what a model passed to `fetch`: `doc:path`, the bare path, the document's url or its
 * `file://` URI, each with an optional `#page` suffix. A NUL byte, or a path that leaves the root,
 * is refused here, before the containment check on disk.
 *
 * A backslash separates folders (a model may write a Windows path), except where the served
 * folder really holds a file with that backslash in its name (Linux and macOS allow it):
 * when `indexed` has the path read with backslashes as characters, that reading wins, so every
 * id a search returns can be fetched.
 *
 * @example
 * parseId("doc:guides\\brewing.md#2", { root: "/srv/docs" });
 * // => { ok: true, relative: "guides/brewing.md", page: 2 }
 * parseId("doc:a\\b.md", { root: "/srv/docs" }, new Set(["a\\b.md"]));
 * // => { ok: true, relative: "a\\b.md", page: 1 } (on Linux and macOS)
 */
export function parseId(input: string, address: RootAddress, indexed?: { has(relative: string): boolean }): ParsedId {
  if (input.includes("\0")) return { ok: false, why: "nul" };
  let rest = input.trim();
  let page = 1;
  const suffix = /#(\d{1,9})$/.exec(rest);
  if (suffix !== null) {
    page = Number(suffix[1]);
    rest = rest.slice(0, suffix.index);
  }
  const path = pathPart(rest, address);
  if (typeof path !== "string") return { ok: false, why: path.why };
  const relative = relativeOf(path, indexed);
  return typeof relative === "string" ? { ok: true, relative, page: Math.max(1, page) } : relative;
}

/**
 * A decoded path as a path relative to the root, read as {@link parseId} reads it: a backslash
 * separates folders unless `indexed` holds the path with that backslash in a name.
 */
function relativeOf(path: string, indexed: { has(relative: string): boolean } | undefined): string | { readonly ok: false; readonly why: RefusedId } {
  if (path.includes("\0")) return { ok: false, why: "nul" };
  const asWritten = BACKSLASH_SEPARATES || indexed === undefined ? null : cleanRelative(path, "literal");
  const relative = asWritten !== null && indexed?.has(asWritten) === true ? asWritten : cleanRelative(path);
  return relative ?? { ok: false, why: namesNothing(path) ? "empty" : "outside" };
}

/** True when a path has no segment but `.` (and separators): `""`, `"."`, `"./"`, `"/"`. */
function namesNothing(path: string): boolean {
  return path.replaceAll("\\", "/").split("/").every((part) => part === "" || part === ".");
}

/** The path inside an id, a url or a file URI, or why it cannot name a place inside the root. */
function pathPart(rest: string, address: RootAddress): string | { readonly why: "invalid" | "outside" } {
  if (rest.startsWith(ID_PREFIX)) return rest.slice(ID_PREFIX.length);
  if (address.baseUrl !== undefined) {
    const published = pathUnderBaseUrl(rest, address.baseUrl);
    if (published !== undefined) return published;
  }
  if (rest.startsWith("file:")) {
    let absolute: string;
    try {
      absolute = fileURLToPath(rest);
    } catch {
      return { why: "invalid" };
    }
    return isWithin(address.root, absolute) ? relativePath(address.root, absolute) : { why: "outside" };
  }
  return rest;
}

/**
 * The decoded path of `rest` below the base URL, when `rest` is a url on the base URL's host: the
 * scheme (http or https, or none written), the host's case and a leading `www.` do not matter;
 * the port and the path prefix must match. `undefined` when `rest` is not on that host; a reason
 * when it is, but outside the base path or not decodable.
 */
function pathUnderBaseUrl(rest: string, baseUrl: string): string | { readonly why: "invalid" | "outside" } | undefined {
  const base = webUrl(baseUrl);
  const url = webUrl(rest) ?? webUrl(`https://${rest}`);
  if (base === undefined || url === undefined || bareHost(url) !== bareHost(base) || url.port !== base.port) return undefined;
  if (!url.pathname.startsWith(base.pathname)) return { why: "outside" };
  try {
    return decodeURIComponent(url.pathname.slice(base.pathname.length));
  } catch {
    return { why: "invalid" };
  }
}

/** `value` parsed as an http or https URL, else `undefined`. */
function webUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The host without a leading `www.`; the URL parser has already lower-cased it. */
function bareHost(url: URL): string {
  return url.hostname.replace(/^www\./, "");
}

/**
 * The id of a document (and of one of its pages, from 2 on).
 *
 * @example
 * documentId("guides/brewing.md", 2); // => "doc:guides/brewing.md#2"
 */
export function documentId(relative: string, page = 1): string {
  return page > 1 ? `${ID_PREFIX}${relative}#${page}` : `${ID_PREFIX}${relative}`;
}

/**
 * The start of every document's resource uri. A scheme of its own, with a fixed authority, so a
 * resource uri is never mistaken for a file path, a `file://` URI or a fetch id.
 */
export const RESOURCE_URI_PREFIX = "mcp-search://doc/";

/**
 * The resource uri of a document: {@link RESOURCE_URI_PREFIX} and its relative path, each segment
 * percent-encoded with `encodeURIComponent` (so a space is `%20`, `#` is `%23`, `é` is `%C3%A9`,
 * and `/` only ever separates folders).
 *
 * @example
 * resourceUri("guias/café com leite.md"); // => "mcp-search://doc/guias/caf%C3%A9%20com%20leite.md"
 */
export function resourceUri(relative: string): string {
  return RESOURCE_URI_PREFIX + relative.split("/").map(encodeURIComponent).join("/");
}

/**
 * Why a resource uri was refused before any disk access: a reason of {@link RefusedId}, or
 * `"scheme"` when it does not start with {@link RESOURCE_URI_PREFIX}.
 *
 * @example
 * const why: RefusedUri = "scheme";
 */
export type RefusedUri = RefusedId | "scheme";

/**
 * A resource uri taken apart: the relative path it names, or why it was refused.
 *
 * @example
 * const parsed: ParsedUri = { ok: true, relative: "guides/brewing.md" };
 */
type ParsedUri = { readonly ok: true; readonly relative: string } | { readonly ok: false; readonly why: RefusedUri };

/**
 * Reads a resource uri a client sent, lexically, before any disk access. The scheme and the
 * authority are compared without case; the rest is split at `/`, each segment percent-decoded,
 * and the decoded path cleaned like a fetch id ({@link cleanRelative}): a `..` that climbs out
 * (written, or encoded as `%2e%2e` or `..%2F`) is `"outside"`, a query or fragment or bad
 * percent-encoding is `"invalid"`, a NUL byte (`%00`) is `"nul"`. A leading `/` after the
 * authority is read relative to the root, as an absolute-looking id is.
 *
 * @example
 * parseResourceUri("mcp-search://doc/guides/pour%20over.md"); // => { ok: true, relative: "guides/pour over.md" }
 * parseResourceUri("mcp-search://doc/..%2F..%2Fetc%2Fpasswd"); // => { ok: false, why: "outside" }
 * parseResourceUri("file:///etc/passwd");                      // => { ok: false, why: "scheme" }
 */
export function parseResourceUri(uri: string, indexed?: { has(relative: string): boolean }): ParsedUri {
  if (uri.includes("\0")) return { ok: false, why: "nul" };
  if (uri.slice(0, RESOURCE_URI_PREFIX.length).toLowerCase() !== RESOURCE_URI_PREFIX) return { ok: false, why: "scheme" };
  const rest = uri.slice(RESOURCE_URI_PREFIX.length);
  if (rest.includes("?") || rest.includes("#")) return { ok: false, why: "invalid" };
  let path: string;
  try {
    path = rest.split("/").map(decodeURIComponent).join("/");
  } catch {
    return { ok: false, why: "invalid" };
  }
  const relative = relativeOf(path, indexed);
  return typeof relative === "string" ? { ok: true, relative } : relative;
}
