/**
 * The document set of a served folder. It is read once, in the background, then kept current
 * incrementally. A change watch (./watch.ts) tells whether anything happened since the last
 * refresh; only then does a refresh list the tree and stat every file, re-read the files whose
 * modification time or size changed and drop the deleted ones, each change touching only that
 * file's entry in the index (`add`, `replace`, `remove`). Without a working watch, every refresh
 * does that check. Texts are not kept: a snippet or a fetch reads the file again
 * ({@link Folder.load}). Every read goes through the one containment check, {@link readInside},
 * which checks and reads on one file descriptor. A path that cannot be listed or stat'ed is
 * skipped and logged, never fatal; a refresh that fails is retried by the next call.
 */
import { extname } from "node:path";
import { createIndex, type IndexEntry, type IndexLanguage, type IndexRanking, type SearchIndex, type Vocabulary } from "@sbissoli/mcp-search";
import { BINARY_FORMATS } from "../formats/extensions.js";
import { createIgnoreRules, type IgnoreOptions } from "./ignore-rules.js";
import { releaseMemory } from "./memory.js";
import { createMountedWatch, locate, resolveMounts, type Mount } from "./mounts.js";
import { documentId, relativeMessage as relativeMessageIn } from "./paths.js";
import { createDocumentReader } from "./reader.js";
import { openSnapshotCache, type SnapshotFile } from "./snapshot.js";
import { SNOWBALL_STEMMERS } from "./stemmers.js";
import type { FileStat, FolderDocument, Known, Listed, LoadedDocument, Read } from "./types.js";
import { compareCodeUnits, hasAncestorIn, isStale, statFile, statLink, walkMounts } from "./walk.js";
import { settleEvents, type TreeWatchOptions } from "./watch.js";

// The per-file step and the walk are their own modules; their public names stay reachable here.
export { documentEntry, pageStarts, searchableText, type EntrySettings } from "./reader.js";
export type { FolderDocument, LoadedDocument } from "./types.js";
// The vendor folders live beside the containment check, which applies them to a link's target too.
export { VENDOR_FOLDERS } from "./paths.js";

/**
 * The most removed ids a folder remembers, to tell a stale id ("moved or deleted") from an
 * unknown one; past it the oldest is forgotten, and answered as unknown.
 */
export const REMOVED_IDS_KEPT = 10_000;

/** The largest file indexed, by default: 1 MiB. */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;



/**
 * How far the indexing under way has got: files done and to do, and megabytes read.
 *
 * @example
 * const progress: IndexingProgress = { done: 8000, total: 20000, bytes: 104857600 };
 */
export interface IndexingProgress {
  readonly done: number;
  readonly total: number;
  readonly bytes: number;
}

/**
 * The folder as of the last refresh: its documents by relative path, the index over them, and
 * the ids that existed earlier in this session but are gone now (the last
 * {@link REMOVED_IDS_KEPT}). The maps and the index are updated in place, one file at a time.
 * `indexing` is set while a refresh is still reading files: the snapshot then holds what is
 * indexed so far.
 *
 * @example
 * const { documents, index }: FolderSnapshot = await folder.refresh();
 */
export interface FolderSnapshot {
  readonly documents: ReadonlyMap<string, FolderDocument>;
  readonly index: SearchIndex;
  readonly removed: ReadonlySet<string>;
  readonly indexing: IndexingProgress | undefined;
  /**
   * Files of a supported type that could not be read, or only in part: too large, not UTF-8, a
   * scanned or encrypted PDF, a damaged file, a zip bomb, text cut at the cap. Each was named on
   * stderr with its reason.
   */
  readonly unreadable: number;
}

/**
 * Options of {@link openFolder}.
 *
 * @example
 * const options: FolderOptions = { root: "./docs", vocabulary, baseUrl: "https://docs.example.com/" };
 */
export interface FolderOptions {
  /**
   * The folder to serve; several folders are served together, each under a prefix, its name
   * (./mounts.ts).
   */
  readonly root: string | readonly string[];
  /** Adds the everyday words of its table to each document's keywords. */
  readonly vocabulary: Vocabulary;
  /** Public base URL, given one trailing "/"; a document's url is this plus its path. @default undefined (file:// URIs) */
  readonly baseUrl?: string | undefined;
  /**
   * Text files larger than this are skipped; the text extracted from a binary document (PDF,
   * DOCX, ODT, EPUB) is cut at this many characters. @default 1048576 (1 MiB)
   */
  readonly maxFileBytes?: number | undefined;
  /** Binary documents larger than this are skipped. @default 67108864 (64 MiB) */
  readonly maxBinaryBytes?: number | undefined;
  /** Progress lines; the CLI writes them to stderr. @default undefined (silent) */
  readonly log?: ((line: string) => void) | undefined;
  /**
   * Watch the folder for changes, so a call on an unchanged folder skips the walk; false checks
   * every file on every call. @default true
   */
  readonly watch?: boolean | undefined;
  /**
   * How search ranks the documents: `"bm25"` (BM25F, for prose) or `"rule"` (the library's
   * default rule, for catalogues of short titles). @default "bm25"
   */
  readonly ranking?: IndexRanking | undefined;
  /** The watch primitive, for tests of the fallback. @default fs.watch */
  readonly watchFolder?: TreeWatchOptions["watch"];
  /**
   * A folder for the index snapshot (./snapshot.ts): read at start to skip the files whose path,
   * size and modification time are unchanged, written after each indexing.
   * @default undefined (no snapshot)
   */
  readonly cache?: string | undefined;
  /** What else the snapshot must match, e.g. a hash of the vocabulary file. @default "" */
  readonly vocabularyKey?: string | undefined;
  /** BM25 only: every document's language, or `"auto"` (detected per document). @default "auto" */
  readonly language?: IndexLanguage | "auto" | undefined;
  /** BM25 only: a document's language when `"auto"` is unsure: the locale's. @default "en" */
  readonly fallbackLanguage?: IndexLanguage | undefined;
  /**
   * What the walk leaves out besides hidden and vendor folders (./ignore-rules.ts): the
   * folder's `.gitignore` files, and `--exclude`/`--include` patterns.
   * @default { gitignore: true } (the .gitignore files only)
   */
  readonly ignore?: IgnoreOptions | undefined;
}

/**
 * A served folder. `refresh()` brings the snapshot up to date with every change made before it
 * was called (a call during a refresh waits for one more check), except during the first
 * indexing, when it answers at once with what is indexed so far (`indexing` says how far);
 * `ready` settles when the first indexing is done; `current` is the last snapshot; `load(doc)`
 * reads a document's text again, or gives `undefined` when the file changed since it was
 * indexed; `watching` is false when changes are found by a full check on every call; `close()`
 * stops the watch (the folder then checks on every call). `generation` counts the changes to the
 * document set (a document added, replaced or removed), so a view of it (../mcp/resources.ts) knows
 * when it is out of date; `onChange(listener)` calls `listener` whenever the folder may have
 * changed (an event of the watch, or a refresh that changed documents) and returns how to stop.
 *
 * @example
 * const folder: Folder = await openFolder({ root: "./docs", vocabulary });
 * folder.current.documents.size; // => 31 (examples/corpus)
 * folder.close();
 */
export interface Folder {
  /** The first served folder's real path. */
  readonly root: string;
  /** Every served folder, with the prefix of its paths ("" when it is the only one). */
  readonly mounts: readonly Mount[];
  readonly baseUrl: string | undefined;
  readonly current: FolderSnapshot;
  readonly watching: boolean;
  readonly ready: Promise<FolderSnapshot>;
  readonly generation: number;
  refresh(): Promise<FolderSnapshot>;
  load(doc: FolderDocument): Promise<LoadedDocument | undefined>;
  onChange(listener: () => void): () => void;
  close(): void;
}


/**
 * Opens a folder and indexes it. Throws an `Error` with one clear sentence when the folder does
 * not exist or is not a directory.
 *
 * @example
 * const folder = await openFolder({ root: "examples/corpus", vocabulary });
 * folder.current.index.search("extraction")[0]?.id; // => "doc:reference/glossary.md"
 */
export async function openFolder(options: FolderOptions): Promise<Folder> {
  // Several folders: each path of the served set is its folder's prefix, then the path inside it;
  // `at(path)` gives the folder and the path inside it, for every read and stat (./mounts.ts).
  const mounts = await resolveMounts(typeof options.root === "string" ? [options.root] : options.root);
  const root = (mounts[0] as Mount).root;
  const at = (path: string): { root: string; relative: string } => {
    const found = locate(mounts, path);
    return found === undefined ? { root, relative: `\0${path}` } : { root: found.mount.root, relative: found.relative };
  };
  // The snapshot and the text cache belong to the set of folders served together.
  const cacheKey = mounts.length === 1 ? root : mounts.map((mount) => `${mount.prefix}=${mount.root}`).join("\n");
  const relativeMessage = (message: string) => mounts.reduce((text, mount) => relativeMessageIn(mount.root, text), message);
  // The one place the base URL gets its single trailing "/"; the lookbehind keeps it linear in a run of slashes.
  const baseUrl = options.baseUrl === undefined ? undefined : options.baseUrl.replace(/(?<!\/)\/*$/, "/");
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const log = options.log ?? (() => undefined);
  const ranking = options.ranking ?? "bm25";
  const known = new Map<string, Known>();
  const removed = new Set<string>();
  const documents = new Map<string, FolderDocument>();
  // Replaced once, when the first indexing loads a saved snapshot.
  // BM25's analysis: the languages go into the index, its settings into the snapshot's fingerprint.
  const analysis = ranking === "bm25" ? { language: options.language ?? "auto", fallbackLanguage: options.fallbackLanguage ?? "en", stemmers: SNOWBALL_STEMMERS } : {};
  let index = createIndex([], { ranking, ...analysis });
  let indexing: IndexingProgress | undefined;
  const snapshot: FolderSnapshot = {
    documents, removed,
    get index() {
      return index;
    },
    get indexing() {
      return indexing;
    },
    get unreadable() {
      return unreadable;
    },
  };
  let first = true;
  // Settles when the first indexing starts reading in batches (or ends): from then on a search
  // answers at once with what is indexed so far.
  let opened: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (opened = resolve));
  let running: Promise<FolderSnapshot> | undefined;
  let queued: Promise<FolderSnapshot> | undefined;
  let links: Listed[] = [];
  /** Changes to the document set so far, and who wants to hear that the folder may have changed. */
  let generation = 0;
  const listeners = new Set<() => void>();
  const signal = () => {
    for (const listener of listeners) listener();
  };
  const rules = new Map(mounts.map((mount) => [mount, createIgnoreRules(mount.root, options.ignore, log)]));
  const watch = createMountedWatch(mounts, { log, enabled: options.watch ?? true, watch: options.watchFolder, onEvent: signal });
  const cache = options.cache === undefined ? undefined : openSnapshotCache(options.cache, cacheKey, { ranking, baseUrl, maxFileBytes, vocabulary: options.vocabularyKey ?? "", ...analysis }, documentId, log, analysis);
  let saveTimer: NodeJS.Timeout | undefined;
  /** How many known files changed while they were read, and are read again by the next refresh. */
  let retrying = 0;
  /** True while a tidy-up is scheduled or under way (one at a time). */
  let tidying = false;
  /**
   * Set when background work found the index broken: the next refresh builds it again from the
   * files, in one pass. `lastFailure` is the message of the last refresh that failed, so that the
   * same failure twice in a row falls back to that rebuild instead of failing for good.
   */
  let rebuildNext = false;
  let lastFailure: string | undefined;
  /** How many known files are marked `unreadable`. */
  let unreadable = 0;
  // The per-file step: reading a file into an index entry, and a document's text again (./reader.ts).
  const reader = createDocumentReader({
    mounts, baseUrl, maxFileBytes, ranking, vocabulary: options.vocabulary, log,
    maxBinaryBytes: options.maxBinaryBytes, cache: options.cache, cacheKey,
  });
  const { urlOf, readOne } = reader;

  /**
   * Loads the saved snapshot, when there is one to trust: its index becomes the index, and its
   * files what is known, so that the walk that follows reads only the files changed since.
   * Returns the snapshot's size in bytes, 0 when none was loaded.
   */
  function restore(): number {
    const saved = cache?.load();
    if (saved === undefined) return 0;
    index = saved.index;
    for (const [relative, file] of saved.files) {
      const { size, modified, changed, title, format } = file;
      const document: FolderDocument | undefined =
        title === undefined ? undefined : { id: documentId(relative), relative, title, url: urlOf(relative), format: format as string, bytes: size, modified };
      known.set(relative, { modified, changed, size, ...(document !== undefined && { document }) });
      if (document !== undefined) documents.set(relative, document);
    }
    generation += 1;
    return saved.bytes;
  }

  /**
   * Saves the index and what is known of each file; a file to read again is left out, so a
   * restart reads it, and so is a file that could not be read, so a restart says why again (and
   * counts it), from the text cache when it is a binary document.
   */
  function saveSnapshot(): void {
    if (cache === undefined) return;
    const files = new Map<string, SnapshotFile>();
    for (const [relative, { size, modified, changed, document, retry, unreadable: skipped }] of known) {
      if (retry !== true && !(skipped === true && document === undefined)) files.set(relative, { size, modified, changed, ...(document !== undefined && { title: document.title, format: document.format }) });
    }
    cache.save(index, files);
  }

  /**
   * The entries of a one-pass rebuild ({@link rebuild}), indexed at once by `createIndex` when the
   * walk is done; undefined the rest of the time, when each file is added to the index as read.
   */
  let bulk: IndexEntry[] | undefined;

  /** Puts what was read of one file in the index: add, replace or remove its document. */
  function apply(relative: string, read: Read): void {
    const before = known.get(relative)?.document;
    unreadable += (read.known.unreadable === true ? 1 : 0) - (known.get(relative)?.unreadable === true ? 1 : 0);
    known.set(relative, read.known);
    reader.forget(relative);
    if (read.entry === undefined) {
      if (before !== undefined) {
        index.remove(before.id);
        documents.delete(relative);
        removed.add(before.id);
        // The oldest first: a session that deletes uniquely named files forever keeps a bounded set.
        if (removed.size > REMOVED_IDS_KEPT) removed.delete(removed.values().next().value as string);
        generation += 1;
      }
      return;
    }
    generation += 1;
    if (bulk !== undefined) bulk.push(read.entry);
    else if (before === undefined) index.add(read.entry);
    else index.replace(read.entry);
    documents.set(relative, read.known.document as FolderDocument);
    removed.delete(read.entry.id);
  }

  /**
   * Maintenance after a large indexing, from the next turn of the event loop on: `compact`
   * merges the postings its files left pending (the index's smallest and fastest form, rather
   * than on some later update), in slices of at most {@link SLICE_MS} between which requests run;
   * `release` then hands what it freed (texts read, postings merged away, a snapshot's bytes) back
   * to the system now, not whenever the server next allocates (./memory.ts); `save` writes the
   * snapshot last, when compacting it costs nothing. A small indexing is not worth any of it. What
   * this work throws is caught: it is logged, and the index is built again from the files.
   */
  function tidyUp(compact: boolean, release: boolean, save: boolean): void {
    if (!compact && !release && !save) return;
    if (tidying) return;
    tidying = true;
    const tidied = index;
    const slice = () => {
      try {
        // An index swapped meanwhile (a rebuild) is not this tidy-up's to finish.
        if (index !== tidied) return void (tidying = false);
        const until = performance.now() + SLICE_MS;
        let compacted = !compact;
        while (!compacted && performance.now() < until) compacted = index.compactStep();
        // A timer, not setImmediate: an unref'd immediate lets the loop sleep in poll until the
        // next request, so an idle server would never finish (nor write its first snapshot).
        if (!compacted) return void setTimeout(slice, 0).unref();
        tidying = false;
        if (release) releaseMemory();
        if (save) saveSnapshot();
      } catch (error) {
        tidying = false;
        breakDown("compacting the index", error);
      }
    };
    setTimeout(slice, 0).unref();
  }

  /**
   * What background work does with an error: one line on stderr with the file count, then the
   * next refresh (started now) builds the index again from the files rather than serve it.
   */
  function breakDown(doing: string, error: unknown): void {
    log(`${doing} failed with ${documents.size} files indexed: ${relativeMessage(error instanceof Error ? error.message : String(error))}; building the index again from the files`);
    rebuildNext = true;
    folder.refresh().catch(() => undefined);
  }

  /**
   * Builds the index again from the files, in one pass: every file is read again and the whole
   * index made by one `createIndex`, without the updates one file at a time that the failure may
   * have come from. Searches meanwhile answer from what is indexed so far, as in a first indexing.
   */
  async function rebuild(): Promise<FolderSnapshot> {
    index = createIndex([], { ranking });
    known.clear();
    unreadable = 0;
    documents.clear();
    reader.forget();
    generation += 1;
    bulk = [];
    try {
      await run("all");
      index = createIndex(bulk, { ranking });
    } finally {
      bulk = undefined;
    }
    generation += 1;
    log(`rebuilt the index: ${documents.size} documents`);
    return snapshot;
  }

  /** True when a symbolic link now resolves to another file, or changed size or time. */
  async function linksChanged(): Promise<boolean> {
    for (const file of links) {
      const info = await statLink(at(file.relative).root, { ...file, relative: at(file.relative).relative });
      const before = known.get(file.relative);
      if (info === null ? before !== undefined : isStale(before, info)) return true;
    }
    return false;
  }

  async function check(): Promise<FolderSnapshot> {
    await settleEvents();
    if (rebuildNext) {
      rebuildNext = false;
      watch.takeChanges();
      return await rebuild();
    }
    // A link's target may sit in an unwatched folder (hidden, vendor): links are always checked.
    const changes = watch.takeChanges();
    // A link's target may sit in an unwatched folder (hidden, vendor), and a file that changed
    // while it was read is read again: either checks the whole tree.
    const whole = retrying > 0 || (await linksChanged());
    if (!whole && changes !== "all" && changes.size === 0) return snapshot;
    try {
      const done = await run(whole ? "all" : changes);
      lastFailure = undefined;
      return done;
    } catch (error) {
      // The changes were taken: put the mark back, so the next call walks again instead of
      // serving a stale snapshot for good; and no absolute path of the server's disk in the message.
      watch.markDirty();
      const message = relativeMessage(error instanceof Error ? error.message : String(error));
      if (message !== lastFailure) {
        lastFailure = message;
        throw new Error(message);
      }
      // The same failure twice: the incremental path may be what fails. Say so once, and rebuild.
      lastFailure = undefined;
      log(`indexing failed again (${message}): building the index again from the files, in one pass`);
      return await rebuild();
    }
  }

  /**
   * Brings the index up to date with the tree, or with the subtrees of `targets` only (the
   * folders the watch saw events in): an edit lists and stats one folder, not the whole tree.
   */
  async function run(targets: "all" | ReadonlySet<string>): Promise<FolderSnapshot> {
    const started = performance.now();
    const restoredBytes = first ? restore() : 0;
    const restored = restoredBytes > 0;
    const folders = new Set<string>();
    const visit = (relative: string) => {
      folders.add(relative);
      watch.add(relative);
    };
    // The subtrees to check: the targets with no target above them.
    const tops = targets === "all" ? [""] : [...targets].filter((folder) => !hasAncestorIn(folder, targets));
    const under = (relative: string) => tops.some((top) => top === "" || relative.startsWith(`${top}/`));
    const listed = tops.flatMap((top) => walkMounts(mounts, rules, top, visit, log));
    if (targets === "all") {
      watch.retain(folders);
      links = listed.filter((file) => file.link);
    } else {
      links = [...links.filter((file) => !under(file.relative)), ...listed.filter((file) => file.link)];
    }
    let changed = false;
    const seen = new Set<string>();
    const stale: { file: Listed; info: FileStat }[] = [];
    for (const [n, file] of listed.entries()) {
      const inside = { ...file, relative: at(file.relative).relative };
      const info = file.link ? await statLink(at(file.relative).root, inside) : statFile(at(file.relative).root, inside, log);
      // Let requests in while a large tree is stat'ed: initialize must not wait for it.
      if (n % 500 === 499) await new Promise((resolve) => setImmediate(resolve));
      if (info === null) continue;
      seen.add(file.relative);
      if (isStale(known.get(file.relative), info)) stale.push({ file, info });
    }
    let dropped = 0;
    for (const relative of [...known.keys()]) {
      if (seen.has(relative) || !under(relative)) continue;
      apply(relative, { known: { modified: 0, changed: 0, size: 0 } });
      known.delete(relative);
      changed = true;
      dropped += 1;
    }
    // Code-unit order, so ties rank the same on every run, warm or cold.
    stale.sort((a, b) => compareCodeUnits(a.file.relative, b.file.relative));
    let bytes = 0;
    let fromDisk = 0;
    let lastLog = performance.now();
    // A binary document may take seconds to read (a 500-page PDF): with one to read, even a small
    // folder answers at once with what is indexed so far, as a large one does.
    const slow = stale.some(({ file }) => BINARY_FORMATS[extname(file.relative).toLowerCase()] !== undefined);
    if (stale.length > BATCH || slow) {
      indexing = { done: 0, total: stale.length, bytes: 0 };
      log(`indexing ${stale.length} files`);
      opened();
    }
    for (let from = 0; from < stale.length; ) {
      // A batch ends after BATCH files or SLICE_MS, whichever comes first: large files too leave
      // room for requests.
      const sliceEnd = performance.now() + SLICE_MS;
      const batchEnd = Math.min(stale.length, from + BATCH);
      do {
        const { file, info } = stale[from++]!;
        const reading = readOne(file, info);
        // Only a binary document is read asynchronously (its reader may run in a worker).
        const read = reading instanceof Promise ? await reading : reading;
        apply(file.relative, read);
        if (read.entry !== undefined) {
          bytes += info.size;
          fromDisk += 1;
        }
      } while (from < batchEnd && (indexing === undefined || performance.now() < sliceEnd));
      changed = true;
      if (indexing !== undefined) {
        indexing = { done: from, total: stale.length, bytes };
        if (performance.now() - lastLog >= PROGRESS_MS) {
          lastLog = performance.now();
          log(`indexing: ${indexing.done} of ${indexing.total} files, ${(bytes / 1048576).toFixed(1)} MB read`);
        }
        // Let requests in between batches: a search meanwhile sees what is indexed so far.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    indexing = undefined;
    const large = fromDisk + dropped > BATCH;
    retrying = 0;
    for (const entry of known.values()) if (entry.retry === true) retrying += 1;
    if (changed || restored) log(`indexed ${documents.size} documents in ${Math.round(performance.now() - started)} ms (${fromDisk} files read)`);
    if (changed) {
      signal();
      // The first indexing saves at once; later edits at most every SAVE_DELAY_MS, since a save
      // rewrites the whole snapshot. A snapshot a little behind is still correct: the files
      // changed since are read again on the next start.
      if (first) {
        if (!large) saveSnapshot();
      } else if (cache !== undefined && saveTimer === undefined) {
        saveTimer = setTimeout(() => {
          saveTimer = undefined;
          saveSnapshot();
        }, SAVE_DELAY_MS);
        saveTimer.unref();
      }
    }
    // After a large indexing, the first snapshot is written by the tidy-up, once compacted.
    tidyUp(large && bulk === undefined, bytes + restoredBytes >= RELEASE_AFTER_BYTES, first && changed && large);
    return snapshot;
  }

  const folder: Folder = {
    root,
    mounts,
    baseUrl,
    get current() {
      return snapshot;
    },
    get watching() {
      return watch.active;
    },
    get generation() {
      return generation;
    },
    ready: undefined as unknown as Promise<FolderSnapshot>,
    refresh() {
      // The first indexing answers at once with what it has so far.
      if (first && running !== undefined) return gate.then(() => snapshot);
      if (running === undefined) {
        running = check().finally(() => {
          running = undefined;
          first = false;
          opened();
        });
        return running;
      }
      // A refresh is under way and may have listed the tree before this call's change: one more
      // check after it, shared by every call that arrives meanwhile.
      queued ??= running.then(
        () => ((queued = undefined), folder.refresh()),
        () => ((queued = undefined), folder.refresh()),
      );
      return queued;
    },
    load: (doc) => reader.load(doc),
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    close() {
      watch.close();
      listeners.clear();
      if (saveTimer !== undefined) {
        clearTimeout(saveTimer);
        saveTimer = undefined;
        saveSnapshot();
      }
    },
  };
  // Never rejects: a first indexing that fails is logged, and the next call retries it.
  (folder as { ready: Promise<FolderSnapshot> }).ready = folder.refresh().catch((error: unknown) => {
    log(`indexing failed: ${error instanceof Error ? error.message : String(error)}; the next call tries again`);
    return snapshot;
  });
  return folder;
}

/** An indexing that read this many bytes hands the memory it freed back at once (./memory.ts). */
const RELEASE_AFTER_BYTES = 16 * 1024 * 1024;
/** Files read between two chances for requests to run, during an indexing, at most. */
const BATCH = 64;
/**
 * The longest the folder's own work holds the thread before requests may run (ms): a batch of
 * files during an indexing, a slice of compaction after one. A tenth of the 100 ms that a search
 * may wait at most, since a loaded machine stretches a slice's wall time two to three times
 * (docs/performance.md measures the longest stall).
 */
const SLICE_MS = 10;
/** Progress lines, at most this often (ms). */
const PROGRESS_MS = 1000;
/** The least time between two snapshot saves after edits (ms). */
const SAVE_DELAY_MS = 30_000;



