/**
 * Several folders behind one server (`mcp-search serve ~/notes ~/work/docs`): each served folder
 * is a mount with a prefix, its folder's name, so that ids (`doc:notes/a.md`) and resource uris
 * (`mcp-search://doc/notes/a.md`) name one file whatever the other folders hold. A path of the
 * served set is the prefix, then the path inside that folder; every read goes to that folder's own
 * containment check, so a link in one folder to a file of another is refused like any outside one.
 * One folder has no prefix: its paths are as they always were.
 */
import { realpath, stat } from "node:fs/promises";
import { basename, relative as relativeTo, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { createTreeWatch, type TreeWatch, type TreeWatchOptions } from "./watch.js";

/**
 * A served folder: its real path, and the prefix of its paths ("" when it is the only one).
 *
 * @example
 * const mount: Mount = { prefix: "notes", root: "/home/ana/notes" };
 */
export interface Mount {
  readonly prefix: string;
  readonly root: string;
}

/**
 * The real paths of the folders to serve, and their prefixes: each folder's name, made unique
 * with "-2", "-3"… in the order given. Throws an `Error` with one clear sentence when a folder
 * does not exist or is not a directory, or when a folder is given twice.
 *
 * @example
 * await resolveMounts(["~/notes", "~/work/docs"]); // => [{ prefix: "notes", root: "/home/ana/notes" }, { prefix: "docs", root: "/home/ana/work/docs" }]
 * await resolveMounts(["./docs"]);                 // => [{ prefix: "", root: "/srv/docs" }]
 */
export async function resolveMounts(folders: readonly string[]): Promise<Mount[]> {
  const mounts: Mount[] = [];
  const used = new Set<string>();
  for (const folder of folders) {
    let root: string;
    try {
      root = await realpath(folder);
    } catch {
      throw new Error(`The folder ${JSON.stringify(folder)} does not exist.`);
    }
    if (!(await stat(root)).isDirectory()) throw new Error(`${JSON.stringify(folder)} is not a folder.`);
    if (mounts.some((mount) => mount.root === root)) throw new Error(`The folder ${JSON.stringify(folder)} is given twice.`);
    const name = folders.length === 1 ? "" : basename(root).replace(/^\.+/, "") || "folder";
    let prefix = name;
    for (let n = 2; used.has(prefix); n += 1) prefix = `${name}-${n}`;
    used.add(prefix);
    mounts.push({ prefix, root });
  }
  return mounts;
}

/**
 * The mount a path of the served set belongs to, and the path inside it; undefined for a path
 * under no prefix.
 *
 * @example
 * locate(mounts, "notes/a.md"); // => { mount: { prefix: "notes", … }, relative: "a.md" }
 */
export function locate(mounts: readonly Mount[], path: string): { mount: Mount; relative: string } | undefined {
  for (const mount of mounts) {
    if (mount.prefix === "") return { mount, relative: path };
    if (path === mount.prefix) return { mount, relative: "" };
    if (path.startsWith(`${mount.prefix}/`)) return { mount, relative: path.slice(mount.prefix.length + 1) };
  }
  return undefined;
}

/**
 * Where a path of the served set lives: its folder's root and the path inside that folder. A path
 * under no prefix gets the first folder and a path that no file has (it starts with NUL), so that
 * reading it fails as a missing file instead of reading another folder's file.
 *
 * @example
 * placeOf(mounts, "notes/a.md"); // => { root: "/home/ana/notes", relative: "a.md" }
 */
export function placeOf(mounts: readonly Mount[], path: string): { root: string; relative: string } {
  const found = locate(mounts, path);
  return found === undefined ? { root: (mounts[0] as Mount).root, relative: `\0${path}` } : { root: found.mount.root, relative: found.relative };
}

/**
 * A path inside a mount as a path of the served set.
 *
 * @example
 * mountedPath({ prefix: "notes", root: "/home/ana/notes" }, "a.md"); // => "notes/a.md"
 * mountedPath({ prefix: "notes", root: "/home/ana/notes" }, "");     // => "notes"
 */
export function mountedPath(mount: Mount, relative: string): string {
  if (mount.prefix === "") return relative;
  return relative === "" ? mount.prefix : `${mount.prefix}/${relative}`;
}

/**
 * One change watch over every mount (../watch.ts, one per folder), speaking in paths of the
 * served set: a folder's events come back under its prefix.
 *
 * @example
 * const watch = createMountedWatch(mounts, { log });
 * watch.add("notes/guides"); // watches /home/ana/notes/guides
 */
export function createMountedWatch(mounts: readonly Mount[], options: TreeWatchOptions): TreeWatch {
  const watches = mounts.map((mount) => ({ mount, watch: createTreeWatch(mount.root, options) }));
  const only = watches.length === 1 ? watches[0]?.watch : undefined;
  if (only !== undefined) return only;
  const find = (path: string) => {
    const found = locate(mounts, path);
    return found === undefined ? undefined : { watch: watches.find((entry) => entry.mount === found.mount)?.watch, relative: found.relative };
  };
  return {
    get active() {
      return watches.every(({ watch }) => watch.active);
    },
    add(path) {
      const found = find(path);
      found?.watch?.add(found.relative);
    },
    retain(folders) {
      for (const { mount, watch } of watches) {
        const inside = new Set<string>();
        for (const folder of folders) {
          const found = locate(mounts, folder);
          if (found?.mount === mount) inside.add(found.relative);
        }
        watch.retain(inside);
      }
    },
    takeDirty() {
      return watches.map(({ watch }) => watch.takeDirty()).some(Boolean);
    },
    takeChanges() {
      const changes = new Set<string>();
      let all = false;
      for (const { mount, watch } of watches) {
        const taken = watch.takeChanges();
        if (taken === "all") {
          all = true;
          continue;
        }
        for (const folder of taken) changes.add(mountedPath(mount, folder));
      }
      return all ? "all" : changes;
    },
    markDirty() {
      for (const { watch } of watches) watch.markDirty();
    },
    close() {
      for (const { watch } of watches) watch.close();
    },
  };
}

/**
 * With several folders, a `file://` id under one of them as the path of the served set it names
 * (prefix, then path); any other id as it is.
 *
 * @example
 * mountedFileId(mounts, "file:///home/ana/notes/a.md"); // => "notes/a.md"
 * mountedFileId(mounts, "doc:notes/a.md");              // => "doc:notes/a.md"
 */
export function mountedFileId(mounts: readonly Mount[], id: string): string {
  if (mounts.length < 2 || !id.startsWith("file:")) return id;
  let path: string;
  try {
    path = fileURLToPath(id.split("#")[0] as string);
  } catch {
    return id;
  }
  const page = id.includes("#") ? id.slice(id.indexOf("#")) : "";
  for (const mount of mounts) {
    if (path.startsWith(`${mount.root}${sep}`)) return `${mountedPath(mount, relativeTo(mount.root, path).split(sep).join("/"))}${page}`;
  }
  return id;
}
