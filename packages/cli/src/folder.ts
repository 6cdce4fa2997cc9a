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
import { lstatSync, readdirSync, type Dirent } from "node:fs";
import { stat } from "node:fs/promises";
import { basename, extname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { createIndex, tokenize, type IndexEntry, type IndexLanguage, type IndexRanking, type SearchIndex, type Vocabulary } from "@sbissoli/mcp-search";
import { decodeUtf8, extractDocument, isGenericHeading, sectionHeadings, SUPPORTED_EXTENSIONS, type ExtractedDocument } from "./documents.js";
import { createRecentTexts, DEFAULT_MAX_BINARY_BYTES, EXTRACTION_TIME_LIMIT_MS, MAX_UNZIPPED_BYTES, openTextCache, readBinaryFile, type BinaryFile } from "./formats/binary-file.js";
import { BINARY_FORMATS, readsAsMarkdown, type BinaryFormat } from "./formats/extensions.js";
import { pageMarker, type FormatOutput } from "./formats/types.js";
import { markdownToText } from "./markdown.js";
import { releaseMemory } from "./memory.js";
import { documentId, readInside, type InsideRead, relativeMessage as relativeMessageIn, resolveInside, VENDOR_FOLDERS } from "./paths.js";
import { openSnapshotCache, type SnapshotFile } from "./snapshot.js";
import { SNOWBALL_STEMMERS } from "./stemmers.js";
import { settleEvents, type TreeWatchOptions } from "./watch.js";
import { createIgnoreRules, type IgnoreOptions, type IgnoreRules } from "./ignore-rules.js";
import { createMountedWatch, locate, mountedPath, resolveMounts, type Mount } from "./mounts.js";

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
 * One indexed file. Its text is not kept: {@link Folder.load} reads it again when a snippet or a
 * fetch needs it.
 *
 * @example
 * const doc: FolderDocument = { id: "doc:a.md", relative: "a.md", title: "A", url: "file:///srv/docs/a.md",
 *   format: "markdown", bytes: 3, modified: 1767225600000 };
 */
export interface FolderDocument {
  readonly id: string;
  readonly relative: string;
  readonly title: string;
  readonly url: string;
  readonly format: string;
  readonly bytes: number;
  readonly modified: number;
}

/**
 * An indexed file with its text, as read again from disk by {@link Folder.load}.
 *
 * @example
 * const loaded: LoadedDocument = { ...doc, text: "# A" };
 */
export interface LoadedDocument extends FolderDocument {
  readonly text: string;
  /** A paged document's (PDF's) page starts in `text`, in order. @default undefined (one page) */
  readonly pageStarts?: readonly number[] | undefined;
}

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
 * document set (a document added, replaced or removed), so a view of it (./resources.ts) knows
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
 * What was known of a file at the last refresh; `document` is absent when it was skipped.
 * `changed` is the status-change time (ctime): a `chmod` that makes a file readable moves it, not
 * the modification time. `retry` marks a file that changed while it was read: the next refresh
 * reads it again whatever its times.
 */
interface Known {
  readonly modified: number;
  readonly changed: number;
  readonly size: number;
  readonly document?: FolderDocument;
  readonly retry?: boolean;
  /** Set when the file could not be read, or only in part (counted in {@link FolderSnapshot.unreadable}). */
  readonly unreadable?: boolean;
}

/** The times and size a refresh compares. */
interface FileStat {
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly size: number;
}

/** A file read for the index: what is known of it, and the entry to index when it is a document. */
interface Read {
  readonly known: Known;
  readonly entry?: IndexEntry;
}

/** A file found by the walk, and whether it is a symbolic link. */
interface Listed {
  readonly relative: string;
  readonly link: boolean;
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
  const loaded = new Map<string, LoadedDocument>();
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
  // The binary formats (./formats/): their caps, and the text cache beside the snapshot.
  const binary = {
    maxBytes: options.maxBinaryBytes ?? DEFAULT_MAX_BINARY_BYTES,
    limits: { maxTextChars: maxFileBytes, maxUnzippedBytes: MAX_UNZIPPED_BYTES },
    timeLimitMs: EXTRACTION_TIME_LIMIT_MS,
    cache: options.cache === undefined ? undefined : openTextCache(options.cache, cacheKey),
    recent: createRecentTexts(RECENT_TEXT_CHARS),
  };

  const urlOf = (relative: string) =>
    baseUrl === undefined ? pathToFileURL(join(at(relative).root, at(relative).relative)).href : baseUrl + relative.split("/").map(encodeURIComponent).join("/");

  /** The file's decoded text, read through the containment check on one descriptor, or why not. */
  function readSource(relative: string): { source: string; modified: number; size: number } | { why: string; retry: boolean } {
    const read = readInside(at(relative).root, at(relative).relative, maxFileBytes);
    if (!read.ok) return { why: `${SKIP_REASONS[read.why]}${read.code === undefined ? "" : ` (${read.code})`}`, retry: read.why === "changed" };
    const source = decodeUtf8(read.bytes);
    if (source === undefined) return { why: "not readable as UTF-8 text", retry: false };
    return { source, modified: read.modified, size: read.size };
  }

  function readOne(file: Listed, info: FileStat): Read | Promise<Read> {
    const { mtimeMs: modified, ctimeMs: changed, size } = info;
    const binaryFormat = BINARY_FORMATS[extname(file.relative).toLowerCase()];
    if (binaryFormat !== undefined) return readOneBinary(file, info, binaryFormat);
    if (size > maxFileBytes) {
      log(`skipped ${file.relative}: ${size} bytes is over the ${maxFileBytes}-byte cap`);
      return { known: { modified, changed, size, unreadable: true } };
    }
    const read = readSource(file.relative);
    if ("why" in read) {
      log(`skipped ${file.relative}: ${read.why}`);
      return { known: { modified, changed, size, retry: read.retry, unreadable: !read.retry } };
    }
    const url = urlOf(file.relative);
    const { entry, format } = documentEntry(file.relative, read.source, { url, linksResolve: baseUrl !== undefined, ranking, vocabulary: options.vocabulary });
    const document: FolderDocument = { id: entry.id, relative: file.relative, title: entry.title, url, format, bytes: read.size, modified: read.modified };
    return { known: { modified, changed, size, document }, entry };
  }

  /** {@link readOne} for a binary document (./formats/): read and extracted off the text path. */
  async function readOneBinary(file: Listed, info: FileStat, format: BinaryFormat): Promise<Read> {
    const { mtimeMs: modified, ctimeMs: changed, size } = info;
    if (size > binary.maxBytes) {
      log(`skipped ${file.relative}: ${size} bytes is over the ${binary.maxBytes}-byte cap`);
      return { known: { modified, changed, size, unreadable: true } };
    }
    const read = await readBinaryFile(at(file.relative).root, at(file.relative).relative, format, binary);
    const why = binaryFailure(read);
    if (!read.ok) {
      const retry = "refused" in read && read.refused.why === "changed";
      log(`skipped ${file.relative}: ${why}`);
      return { known: { modified, changed, size, retry, unreadable: !retry } };
    }
    if (read.output.truncated === true) log(`truncated ${file.relative}: its text is over the ${maxFileBytes}-character cap`);
    const url = urlOf(file.relative);
    const extracted = binaryDocument(file.relative, format, read.output);
    const { entry } = documentEntry(file.relative, extracted, { url, linksResolve: baseUrl !== undefined, ranking, vocabulary: options.vocabulary });
    const document: FolderDocument = { id: entry.id, relative: file.relative, title: entry.title, url, format, bytes: read.size, modified: read.modified };
    return { known: { modified, changed, size, document, unreadable: read.output.truncated === true }, entry };
  }

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
    loaded.delete(relative);
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
    loaded.clear();
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
    const listed = tops.flatMap((top) => walkMounts(top, visit));
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

  /**
   * Lists the supported files under `top`, a folder of the served set ("" for all of it): each
   * folder is walked with its own ignore rules, and its paths come back under its prefix.
   */
  function walkMounts(top: string, visit: (folder: string) => void): Listed[] {
    const chosen = top === "" ? mounts.map((mount) => ({ mount, relative: "" })) : [locate(mounts, top)].filter((found) => found !== undefined);
    return chosen.flatMap(({ mount, relative }) =>
      walk(mount.root, log, (folder) => visit(mountedPath(mount, folder)), rules.get(mount) as IgnoreRules, relative).map((file) => ({ ...file, relative: mountedPath(mount, file.relative) })),
    );
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
    async load(doc) {
      const hit = loaded.get(doc.relative);
      if (hit !== undefined && hit.modified === doc.modified && hit.bytes === doc.bytes) return hit;
      const binaryFormat = BINARY_FORMATS[extname(doc.relative).toLowerCase()];
      if (binaryFormat !== undefined) {
        const read = await readBinaryFile(at(doc.relative).root, at(doc.relative).relative, binaryFormat, binary);
        if (!read.ok || read.modified !== doc.modified || read.size !== doc.bytes) return undefined;
        const extracted = binaryDocument(doc.relative, binaryFormat, read.output);
        const full: LoadedDocument = { ...doc, text: extracted.text, ...(extracted.pages !== undefined && { pageStarts: pageStarts(extracted.text, extracted.pages.length) }) };
        loaded.set(doc.relative, full);
        if (loaded.size > LOADED_KEPT) loaded.delete(loaded.keys().next().value as string);
        return full;
      }
      const read = readSource(doc.relative);
      // The same change check as the index: a file whose size or time moved is not this document.
      if ("why" in read || read.modified !== doc.modified || read.size !== doc.bytes) return undefined;
      const full: LoadedDocument = { ...doc, text: extractDocument(doc.relative, read.source, baseUrl === undefined ? {} : { url: doc.url }).text };
      loaded.set(doc.relative, full);
      if (loaded.size > LOADED_KEPT) loaded.delete(loaded.keys().next().value as string);
      return full;
    },
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

/**
 * What {@link documentEntry} needs besides the file: the document's public url, whether its
 * relative links resolve against that url (only under `--base-url`), the ranking and the
 * vocabulary.
 *
 * @example
 * const settings: EntrySettings = { url: "file:///srv/docs/a.md", linksResolve: false, ranking: "bm25", vocabulary };
 */
export interface EntrySettings {
  readonly url: string;
  readonly linksResolve: boolean;
  readonly ranking: IndexRanking;
  readonly vocabulary: Vocabulary;
}

/**
 * The index entry of one file's decoded text, and its format: what the folder indexes for it,
 * and what a fresh `createIndex` over the same files must be given to rank as the folder does
 * (the differential test of packages/cli/test/extra/ builds one that way).
 *
 * @example
 * documentEntry("a.md", "# Zip files\n\nHow to zip.", settings).entry.title; // => "Zip files"
 */
export function documentEntry(relative: string, source: string | ExtractedDocument, settings: EntrySettings): { entry: IndexEntry; format: string } {
  const { url, ranking, vocabulary } = settings;
  // Relative links of an HTML page resolve against its public URL, only under --base-url.
  const extracted = typeof source === "string" ? extractDocument(relative, source, settings.linksResolve ? { url } : {}) : source;
  const { title, text, format } = extracted;
  const asked = vocabulary.askedWordsFor(`${title}\n${text}`);
  // BM25 reads a Markdown or HTML document's section headings as its keywords: they name what
  // it covers in few words (measured on the relevance bench, docs/performance.md). A generic
  // heading ("Introduction", "Introdução", "Uso") names no subject: it stays an ordinary word of
  // the text, so that it does not put one page first for every query that holds it.
  const named = extracted.headings ?? (format === "markdown" || format === "html" ? sectionHeadings(text) : []);
  const headings = ranking === "bm25" ? named.filter((heading) => !isGenericHeading(heading)) : [];
  const keywords = [...asked, ...headings];
  // Markdown and HTML are indexed as plain text: a link's target or a badge's URL is markup, and
  // its words ("https", "svg") would otherwise count in every page that links.
  // A PDF is indexed without its page markers.
  const plain = extracted.pages !== undefined ? extracted.pages.join("\n\n") : readsAsMarkdown(format) ? markdownToText(text) : text;
  // BM25 counts repeats, so it indexes the whole text; the rule only needs each token once.
  const indexed = ranking === "bm25" ? plain : searchableText(plain);
  return { entry: { id: documentId(relative), title, url, keywords, text: indexed }, format };
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
/** Documents whose text stays loaded for the next snippet or fetch page. */
const LOADED_KEPT = 32;
/**
 * The extracted texts of binary documents (PDF, DOCX, ODT, EPUB) kept in memory besides, in
 * characters × 2 (UTF-16 bytes): 64 MiB, so snippets and fetches of a folder of PDFs rarely
 * extract one again (without it, the PDF relevance bench's median search took 157 ms, not 20).
 */
const RECENT_TEXT_CHARS = 64 * 1024 * 1024;

/**
 * A document's text as the index sees it: each of its tokens once, in first-seen order.
 * The rule's `createIndex` records whether a token occurs in a field, not how often, so it builds
 * the same index from this as from the full text (a property test holds it to that); kept per file, it
 * makes the rebuild after an edit tokenise each document's distinct words instead of its whole
 * text again.
 *
 * @example
 * searchableText("Produção de soja e de milho; soja outra vez."); // => "producao soja milho outra vez"
 */
export function searchableText(text: string): string {
  return tokenize(text).join(" ");
}

/** True when a proper ancestor folder of `folder` is in `targets` ("" is every folder's ancestor). */
function hasAncestorIn(folder: string, targets: ReadonlySet<string>): boolean {
  if (folder === "") return false;
  if (targets.has("")) return true;
  for (let at = folder.lastIndexOf("/"); at > 0; at = folder.lastIndexOf("/", at - 1)) {
    if (targets.has(folder.slice(0, at))) return true;
  }
  return false;
}

/** Code-unit order: deterministic, independent of the machine's locale. */
function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The size and times of a plain listed file, or `null` when it vanished or cannot be stat'ed (a
 * folder without search permission, a path too long, a folder replaced by a file since it was
 * listed): such a path is logged and skipped, never fatal.
 */
function statFile(root: string, file: Listed, log: (line: string) => void): FileStat | null {
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
function isStale(before: Known | undefined, info: FileStat): boolean {
  return before === undefined || before.retry === true || before.modified !== info.mtimeMs || before.changed !== info.ctimeMs || before.size !== info.size;
}

/** What each refusal of {@link readInside} means, in a log line. */
const SKIP_REASONS: Readonly<Record<Exclude<InsideRead, { ok: true }>["why"], string>> = {
  outside: "it resolves outside the folder",
  "not-served": "it leads to a hidden file, into a vendor folder or to an unsupported file",
  missing: "it vanished before it could be read",
  "not-file": "it is not a regular file",
  "too-large": "it grew over the size cap",
  changed: "it changed while it was read (a link swapped in?); it is read again on the next call",
  unreadable: "it cannot be opened or read",
};

/** The same for a symbolic link, followed only when it resolves inside the root. */
async function statLink(root: string, file: Listed): Promise<FileStat | null> {
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

/** A binary format's reading as a document: its title, else the file name. */
function binaryDocument(relative: string, format: BinaryFormat, output: FormatOutput): ExtractedDocument {
  const title = output.title?.replace(/\s+/g, " ").trim();
  return { title: title === undefined || title === "" ? basename(relative) : title, text: output.text, format, headings: output.headings, pages: output.pages };
}

/** Why a binary document gave no text, in a log line. */
function binaryFailure(read: BinaryFile): string {
  if (read.ok) return "";
  if ("unreadable" in read) return read.unreadable.message;
  return `${SKIP_REASONS[read.refused.why]}${read.refused.code === undefined ? "" : ` (${read.refused.code})`}`;
}

/**
 * Where each page starts in a paged document's fetch text: at its marker line ("[page 2]"), found
 * in order, so each search starts where the last one ended.
 *
 * @example
 * pageStarts("[page 1]\n\nA\n\n[page 2]\n\nB", 2); // => [0, 13]
 */
export function pageStarts(text: string, pages: number): number[] {
  if (pages <= 1) return [0];
  const starts: number[] = [];
  let from = 0;
  for (let page = 1; page <= pages; page += 1) {
    const at = text.indexOf(pageMarker(page), from);
    if (at === -1) break;
    starts.push(at);
    from = at + 1;
  }
  return starts;
}
