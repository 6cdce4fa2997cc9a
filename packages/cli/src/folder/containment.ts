/**
 * Paths that come from a model are untrusted input, and so are the files they lead to. This
 * module holds the containment check of every disk access to a served folder: what is served
 * ({@link isServedPath}), and the one resolution behind every open ({@link containedPath}: one
 * realpath, the root check, and the rule of what is served applied to the resolved target).
 *
 * Three entry points share it: {@link readInside} reads a file's bytes (indexing, snippets,
 * fetch, resources/read), {@link statInside} opens the file under the same checks and reads only
 * its size and time (a binary document whose extracted text is cached and current), and
 * {@link resolveInside} only resolves a symbolic link's target (the refresh's change check).
 * Nothing else opens a document. Turning an id or a uri into a relative path is ./ids.ts's work.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, realpathSync, type Stats } from "node:fs";
import { extname, isAbsolute, relative as relativePath, resolve, sep } from "node:path";
import { SUPPORTED_EXTENSIONS } from "../formats/registry.js";

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

/** True where `\` separates path segments (Windows); elsewhere it is a character of a file name. */
export const BACKSLASH_SEPARATES = sep === "\\";

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
 * Why the containment check refused a file, or found nothing to read. `code` is the file
 * system's error code, when there was one.
 *
 * @example
 * const refused: InsideRefusal = { ok: false, why: "unreadable", code: "EACCES" };
 */
export type InsideRefusal = {
  readonly ok: false;
  readonly why: "outside" | "not-served" | "missing" | "not-file" | "too-large" | "changed" | "unreadable";
  readonly code?: string;
};

/**
 * What {@link readInside} found: the bytes and the stat of the very file read, or why nothing
 * was read.
 *
 * @example
 * const read: InsideRead = { ok: false, why: "unreadable", code: "EACCES" };
 */
type InsideRead = { readonly ok: true; readonly bytes: Buffer; readonly modified: number; readonly size: number } | InsideRefusal;

/**
 * What {@link statInside} found: the size and modification time of the very file checked, or why
 * it was refused.
 *
 * @example
 * const stat: InsideStat = { ok: true, modified: 1767225600000, size: 24933 };
 */
type InsideStat = { readonly ok: true; readonly modified: number; readonly size: number } | InsideRefusal;

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
  return onDescriptor(root, relative, max, fs, (fd, info) => {
    const buffer = Buffer.allocUnsafe(info.size);
    let read = 0;
    while (read < info.size) {
      const n = fs.read(fd, buffer, read, info.size - read, read);
      if (n === 0) break; // the file shrank since fstat
      read += n;
    }
    return { ok: true, bytes: buffer.subarray(0, read), modified: info.mtimeMs, size: info.size };
  });
}

/**
 * The size and modification time of `relative` under `root`, under the very checks of
 * {@link readInside} (the same resolution, the same open, the same after-open checks and the same
 * size cap), without reading a byte of it: for a binary document whose extracted text is cached,
 * an `fstat` tells whether that text is still current. `fs` is for tests.
 *
 * @example
 * statInside("/srv/docs", "manual.pdf", 64 << 20); // => { ok: true, modified: 1767225600000, size: 24933 }
 */
export function statInside(root: string, relative: string, max: number, fs: InsideFileSystem = NODE_FILE_SYSTEM): InsideStat {
  return onDescriptor(root, relative, max, fs, (_fd, info) => ({ ok: true, modified: info.mtimeMs, size: info.size }));
}

/**
 * The containment check itself (see {@link readInside}): `relative` resolved and checked, opened,
 * and its descriptor checked again; then `use` is given the descriptor and its `fstat`, and the
 * descriptor is closed whatever happens.
 */
function onDescriptor<T extends { readonly ok: true }>(
  root: string,
  relative: string,
  max: number,
  fs: InsideFileSystem,
  use: (fd: number, info: ReturnType<InsideFileSystem["fstat"]>) => T,
): T | InsideRefusal {
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
    return use(fd, info);
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
function failed(error: unknown): InsideRefusal {
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
export function isWithin(root: string, candidate: string): boolean {
  const rel = relativePath(root, candidate);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}
