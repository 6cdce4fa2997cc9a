/**
 * The walk of a served folder: listing the supported files of each folder (hidden and vendor
 * folders, and what the ignore rules leave out, skipped), and the size and times a refresh
 * compares to tell which files to read again. The listing and the stats are synchronous on
 * purpose (see {@link walk}).
 */
import { lstatSync, readdirSync, type Dirent } from "node:fs";
import { stat } from "node:fs/promises";
import { extname, join } from "node:path";
import { SUPPORTED_EXTENSIONS } from "../formats/registry.js";
import type { IgnoreRules } from "./ignore-rules.js";
import { locate, mountedPath, type Mount } from "./mounts.js";
import { resolveInside, VENDOR_FOLDERS } from "./containment.js";
import type { FileStat, Known, Listed } from "./types.js";


/** True when a proper ancestor folder of `folder` is in `targets` ("" is every folder's ancestor). */
export function hasAncestorIn(folder: string, targets: ReadonlySet<string>): boolean {
  if (folder === "") return false;
  if (targets.has("")) return true;
  for (let at = folder.lastIndexOf("/"); at > 0; at = folder.lastIndexOf("/", at - 1)) {
    if (targets.has(folder.slice(0, at))) return true;
  }
  return false;
}

/** Code-unit order: deterministic, independent of the machine's locale. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The size and times of a plain listed file, or `null` when it vanished or cannot be stat'ed (a
 * folder without search permission, a path too long, a folder replaced by a file since it was
 * listed): such a path is logged and skipped, never fatal.
 */
export function statFile(root: string, file: Listed, log: (line: string) => void): FileStat | null {
  let info;
  try {
    info = lstatSync(join(root, file.relative), { throwIfNoEntry: false });
  } catch (error) {
    log(`skipped ${file.relative}: it cannot be stat'ed (${(error as NodeJS.ErrnoException).code ?? "error"})`);
    return null;
  }
  return info?.isFile() === true ? info : null;
}

/** True when a listed file must be read (again): new, changed, or marked for a retry. */
export function isStale(before: Known | undefined, info: FileStat): boolean {
  return before === undefined || before.retry === true || before.modified !== info.mtimeMs || before.changed !== info.ctimeMs || before.size !== info.size;
}


/** The same for a symbolic link, followed only when it resolves inside the root. */
export async function statLink(root: string, file: Listed): Promise<FileStat | null> {
  const real = await resolveInside(root, file.relative);
  if (real === null) return null;
  const info = await stat(real).catch(() => null);
  return info?.isFile() === true ? info : null;
}

/**
 * Lists the supported files under `root`, as relative paths with "/" separators. Vendor and
 * hidden folders are skipped; symbolic links to folders are not followed (no cycles); symbolic
 * links to files are listed and checked for containment when read. `visit` sees each folder just
 * before it is listed (the change watch starts there). The listing and the stats
 * are synchronous on purpose: for thousands of files, one blocking pass is several times faster
 * than as many promises.
 */
function walk(root: string, log: (line: string) => void, visit: (folder: string) => void, rules: IgnoreRules, from = ""): Listed[] {
  const found: Listed[] = [];
  const pending: string[] = [from];
  for (let folder = pending.pop(); folder !== undefined; folder = pending.pop()) {
    visit(folder);
    rules.enter(folder);
    let entries: Dirent[];
    try {
      entries = readdirSync(join(root, folder), { withFileTypes: true });
    } catch (error) {
      log(`skipped folder ${folder || "."}: it cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`);
      continue;
    }
    for (const entry of entries) {
      const relative = folder === "" ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!entry.name.startsWith(".") && !VENDOR_FOLDERS.has(entry.name) && !rules.ignores(relative, true)) pending.push(relative);
      } else if (entry.name.startsWith(".")) {
        continue; // hidden files are skipped like hidden folders
      } else if ((entry.isFile() || entry.isSymbolicLink()) && SUPPORTED_EXTENSIONS.has(extname(entry.name).toLowerCase()) && !rules.ignores(relative, false)) {
        found.push({ relative, link: entry.isSymbolicLink() });
      }
    }
  }
  return found;
}

/**
 * Lists the supported files under `top`, a folder of the served set ("" for all of it): each
 * mount is walked with its own ignore rules, and its paths come back under its prefix.
 *
 * @example
 * walkMounts(mounts, rules, "", () => undefined, log); // => [{ relative: "notes/a.md", link: false }, …]
 */
export function walkMounts(mounts: readonly Mount[], rules: ReadonlyMap<Mount, IgnoreRules>, top: string, visit: (folder: string) => void, log: (line: string) => void): Listed[] {
  const chosen = top === "" ? mounts.map((mount) => ({ mount, relative: "" })) : [locate(mounts, top)].filter((found) => found !== undefined);
  return chosen.flatMap(({ mount, relative }) =>
    walk(mount.root, log, (folder) => visit(mountedPath(mount, folder)), rules.get(mount) as IgnoreRules, relative).map((file) => ({ ...file, relative: mountedPath(mount, file.relative) })),
  );
}
