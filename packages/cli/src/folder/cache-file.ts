/**
 * The one way the `--cache` folder's files are read and written, by the folder snapshot
 * (./snapshot.ts) and the extracted-text cache (./text-cache.ts). Anyone who can plant
 * a file, a link or a FIFO in that folder is kept from steering the server: a file is opened
 * without following a last link and without waiting (`O_NOFOLLOW | O_NONBLOCK`), must be a
 * regular file (not a FIFO, which would block the read forever, nor a link to `/dev/zero`), and is
 * read up to a size cap on that one descriptor; a write goes to a temporary file created new
 * (`O_EXCL | O_NOFOLLOW`, mode 600) under a random name, then renamed over the old one at once.
 */
import { randomBytes } from "node:crypto";
import { closeSync, constants, fstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, statSync, writeSync } from "node:fs";

/**
 * Creates a private folder when missing (mode 700), and refuses one that someone else could
 * write: owned by another user, or writable by group or others (a shared folder, or a path under
 * /tmp made in advance by someone else), since anyone who can write there can forge what it
 * keeps. `flag` names the option that chose it, `forged` what could be forged. Not checked on
 * Windows, which has no such modes.
 *
 * @example
 * checkPrivateFolder("/tmp/shared", "--cache", "its snapshot");
 * // throws "--cache /tmp/shared is writable by others (mode 777), who could forge its snapshot: run chmod 700 on it, or use a folder of your own."
 */
export function checkPrivateFolder(dir: string, flag: string, forged: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const info = statSync(dir);
  // Stryker disable next-line all: mkdirSync (recursive) already throws for a path that is not a folder; this guards a race only
  if (!info.isDirectory()) throw new Error(`${flag} ${dir} is not a folder.`);
  // Stryker disable next-line OptionalChaining: process.getuid exists wherever these modes mean anything (not on Windows)
  const uid = process.getuid?.();
  // Stryker disable next-line all: Windows only, where the tests do not run
  if (uid === undefined) return;
  if (info.uid !== uid) {
    throw new Error(`${flag} ${dir} belongs to another user (uid ${info.uid}), who could forge ${forged}: use a folder of your own, such as ~/.cache/mcp-search.`);
  }
  if ((info.mode & 0o022) !== 0) {
    throw new Error(
      `${flag} ${dir} is writable by ${(info.mode & 0o002) !== 0 ? "others" : "its group"} (mode ${(info.mode & 0o7777).toString(8)}), who could forge ${forged}: run chmod 700 on it, or use a folder of your own.`,
    );
  }
}

/** `O_NOFOLLOW` where the platform has it (0 on Windows). */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * The bytes of the cache file at `path`: opened without following a link and without waiting
 * (a FIFO), checked to be a regular file of at most `max` bytes, read on that one descriptor.
 * Throws the file system's error (ENOENT when there is none), or one saying why it is refused.
 *
 * @example
 * readCacheFile("/home/me/.cache/mcp-search/texts-0a1b/3c4d.json", 1 << 20); // => <Buffer 7b 22 …>
 */
export function readCacheFile(path: string, max: number): Buffer {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | NO_FOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") throw new Error("it is a symbolic link");
    throw error;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new Error("it is not a regular file");
    if (info.size > max) throw new Error(`it is ${info.size} bytes, over the ${max}-byte cap`);
    const bytes = Buffer.allocUnsafe(info.size);
    let read = 0;
    // Stryker disable next-line all: one readSync reads a regular file whole; the loop is for a file that shrinks after fstat, which no test can time
    while (read < info.size) {
      const n = readSync(fd, bytes, read, info.size - read, read);
      // Stryker disable next-line all: as above, a file cut short between fstat and the read
      if (n === 0) break;
      read += n;
    }
    return bytes.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `parts` to `path` atomically: into a temporary file beside it, created new under a
 * random name (a link or a file planted at a guessable name is never followed), then renamed
 * over `path`. The temporary file is removed when anything fails, and the error thrown.
 *
 * @example
 * writeCacheFile("/home/me/.cache/mcp-search/texts-0a1b/3c4d.json", [Buffer.from("{}")]);
 */
export function writeCacheFile(path: string, parts: readonly Uint8Array[]): void {
  const temporary = `${path}.${randomBytes(8).toString("hex")}.tmp`;
  try {
    const fd = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW, 0o600);
    try {
      for (const part of parts) writeSync(fd, part);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: without force, rmSync fails only when the open did, with the same error
    rmSync(temporary, { force: true });
    throw error;
  }
}
