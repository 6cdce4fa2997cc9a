/**
 * Change notification for a served folder, so that a call on an unchanged folder costs no walk.
 * One non-recursive `fs.watch` per indexed folder (Node 20's recursive mode on Linux watches
 * every file, descends into vendor folders and cannot be unref'd), added by the walk just before
 * it lists the folder, so nothing written after the listing goes unnoticed. Any event marks the
 * tree dirty. When a watch cannot be set up (no inotify watches left, too many open files, an
 * unsupported platform), every watch is closed and the folder falls back to a full check on
 * every call.
 */
import { watch as watchFs, type FSWatcher } from "node:fs";
import { join } from "node:path";

/** Codes that mean "this folder is gone or closed to us", not "watching does not work here". */
const FOLDER_GONE = new Set(["ENOENT", "ENOTDIR", "EACCES", "EPERM", "ENAMETOOLONG", "ELOOP"]);

/**
 * The change watch of one root.
 *
 * @example
 * const watch = createTreeWatch("/srv/docs", { log });
 * watch.add(""); // before listing the root
 * watch.takeDirty(); // => true: nothing is known until the first walk
 */
export interface TreeWatch {
  /** False once watching has failed (or was never wanted): every call must then check the tree. */
  readonly active: boolean;
  /** Watches the folder at `relative` ("" is the root), if it is not watched yet. */
  add(relative: string): void;
  /** Closes the watches of folders that are no longer in the tree. */
  retain(folders: ReadonlySet<string>): void;
  /** Whether anything happened since the last call, and clears the mark. */
  takeDirty(): boolean;
  /**
   * What happened since the last call, and clears it: `"all"` when the whole tree must be checked
   * (nothing known yet, a watch failed, or watching is off), else the folders where events came
   * from (empty when nothing happened).
   */
  takeChanges(): "all" | ReadonlySet<string>;
  /** Sets the mark again: a refresh that took it failed, so the next call must walk. */
  markDirty(): void;
  /** Closes every watch. Idempotent. */
  close(): void;
}

/**
 * Options of {@link createTreeWatch}.
 *
 * @example
 * const options: TreeWatchOptions = { log: (line) => process.stderr.write(`${line}\n`) };
 */
export interface TreeWatchOptions {
  /** Where the one fallback line goes. @default undefined (silent) */
  readonly log?: ((line: string) => void) | undefined;
  /** Set to false for a watch that is never active (a full check on every call). @default true */
  readonly enabled?: boolean | undefined;
  /** The watch primitive; a test passes one that fails like a full inotify table. @default fs.watch */
  readonly watch?: ((path: string, listener: (event: string, name: string | null) => void) => FSWatcher) | undefined;
  /**
   * Called on every event, as it comes (a burst of writes calls it many times): the folder may
   * have changed. @default undefined (nobody is told; the next refresh takes the changes)
   */
  readonly onEvent?: (() => void) | undefined;
}

const watchFolder = (path: string, listener: (event: string, name: string | null) => void): FSWatcher =>
  // Not persistent: a watch never keeps the process alive.
  watchFs(path, { persistent: false }, (event, name) => listener(event, name === null ? null : String(name)));

/**
 * Creates the change watch of `root` (a real path). It starts dirty, so the first refresh walks.
 *
 * @example
 * const watch = createTreeWatch("/srv/docs");
 * watch.active; // => true
 */
export function createTreeWatch(root: string, options: TreeWatchOptions = {}): TreeWatch {
  const log = options.log ?? (() => undefined);
  const open = options.watch ?? watchFolder;
  const watchers = new Map<string, FSWatcher>();
  let active = options.enabled ?? true;
  let dirty = true;
  /** When true, the next check covers the whole tree; else only `folders`. */
  let all = true;
  let folders = new Set<string>();

  /** Closes the watches of `relative` and of every folder below it. */
  function dropTree(relative: string): void {
    const below = `${relative}/`;
    for (const [path, watcher] of watchers) {
      if (path !== relative && !path.startsWith(below)) continue;
      watcher.close();
      watchers.delete(path);
    }
  }

  function closeAll(): void {
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
  }

  function add(relative: string): void {
    if (!active || watchers.has(relative)) return;
    let watcher: FSWatcher;
    try {
      watcher = open(join(root, relative), (_event, name) => {
        dirty = true;
        if (name === null) all = true;
        else folders.add(relative);
        // A child renamed, deleted or replaced: its watches (and those below it) may now follow
        // other inodes or none, so drop them; the next walk watches whatever bears those names now.
        if (name !== null) dropTree(relative === "" ? name : `${relative}/${name}`);
        options.onEvent?.();
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "";
      if (FOLDER_GONE.has(code)) return; // the walk reports it; an event on the parent brings it back
      active = false;
      dirty = true;
      all = true;
      closeAll();
      log(`watching ${root} failed (${code || String(error)}): checking every file on each call instead`);
      return;
    }
    watcher.on("error", () => {
      dirty = true;
      all = true;
      dropTree(relative);
      options.onEvent?.();
    });
    watchers.set(relative, watcher);
  }

  return {
    get active() {
      return active;
    },
    add,
    retain(folders) {
      for (const [relative, watcher] of watchers) {
        if (folders.has(relative)) continue;
        watcher.close();
        watchers.delete(relative);
      }
    },
    takeDirty() {
      const was = dirty || !active;
      dirty = false;
      all = false;
      folders = new Set();
      return was;
    },
    takeChanges() {
      const whole = all || !active;
      const changed = folders;
      dirty = all = false;
      folders = new Set();
      return whole ? "all" : changed;
    },
    markDirty() {
      // A failed refresh checks the whole tree next time.
      dirty = all = true;
    },
    close() {
      active = false;
      closeAll();
    },
  };
}

/**
 * Resolves after the event loop has polled for I/O at least once, so a change event already
 * queued by the kernel (a file written just before a call) has been dispatched. One
 * `setImmediate` is not enough: scheduled from an I/O callback, it runs in the same loop turn,
 * before the next poll.
 *
 * @example
 * await settleEvents(); // then read the dirty mark
 */
export async function settleEvents(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  await new Promise<void>((resolve) => setImmediate(resolve));
}
