/**
 * The indexer of a served folder: what is known of every file, the documents, and the index over
 * them, brought up to date by {@link FolderIndexer.update} in named steps:
 *
 * 1. {@link FolderIndexer.restore}: the first update loads the saved snapshot, if any;
 * 2. `list`: walk the tree, or only the subtrees the watch saw events in;
 * 3. `findStale`: stat each listed file, keep those whose size or times changed;
 * 4. `dropMissing`: remove the documents whose file is gone;
 * 5. `readStale`: read the stale files in batches, each put in the index by `apply` (add, replace
 *    or remove one entry), with room for requests between batches;
 * 6. `finish`: log, tell the listeners, schedule the snapshot, and `tidyUp` (compaction in slices,
 *    memory handed back, the first snapshot written).
 *
 * {@link FolderIndexer.rebuild} is the way back from an index that background work found broken:
 * every file read again and one `createIndex` over them. When to update is the folder's decision
 * (./folder.ts); the per-file reading is ./reader.ts's.
 */
import { createIndex, type IndexEntry, type Language, type IndexRanking, type Stemmers, type LanguageDetector, type SearchIndex } from "@sbissoli/mcp-search";
import { binaryFormatOf } from "../formats/registry.js";
import type { IgnoreRules } from "./ignore-rules.js";
import { releaseMemory } from "./memory.js";
import { placeOf, type Mount } from "./mounts.js";
import { documentId } from "./ids.js";
import type { DocumentReader } from "./reader.js";
import type { SnapshotCache, SnapshotFile } from "./snapshot.js";
import type { FileStat, FolderDocument, Known, Listed, Read } from "./types.js";
import { compareCodeUnits, hasAncestorIn, isStale, statFile, statLink, walkMounts } from "./walk.js";
import type { TreeWatch } from "./watch.js";

/**
 * The most removed ids a folder remembers, to tell a stale id ("moved or deleted") from an
 * unknown one; past it the oldest is forgotten, and answered as unknown.
 */
export const REMOVED_IDS_KEPT = 10_000;

/**
 * How far the indexing under way has got: files done and to do, and megabytes read.
 *
 * @example
 * const progress: IndexingProgress = { done: 8000, total: 20000, bytes: 104857600 };
 */
interface IndexingProgress {
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
 * BM25's analysis settings as the folder gives them to `createIndex`: empty for the rule.
 *
 * @example
 * const analysis: FolderAnalysis = { language: "auto", fallbackLanguage: "en", stemmers: SNOWBALL_STEMMERS };
 */
export interface FolderAnalysis {
  readonly language?: Language | "auto";
  readonly fallbackLanguage?: Language;
  readonly stemmers?: Stemmers;
  /** The language detector, under `"auto"` (./detector.ts). */
  readonly detector?: LanguageDetector;
}

/**
 * What a {@link FolderIndexer} works with; the folder (./folder.ts) makes each part.
 *
 * @example
 * const indexer = new FolderIndexer({ mounts, rules, watch, reader, cache: undefined, ranking: "bm25", analysis: {}, log, relativeMessage: (m) => m, events });
 */
interface IndexerParts {
  readonly mounts: readonly Mount[];
  /** Each folder's ignore rules (./ignore-rules.ts). */
  readonly rules: ReadonlyMap<Mount, IgnoreRules>;
  readonly watch: TreeWatch;
  readonly reader: DocumentReader;
  readonly cache: SnapshotCache | undefined;
  readonly ranking: IndexRanking;
  readonly analysis: FolderAnalysis;
  readonly log: (line: string) => void;
  /** A message with the served folders' absolute paths taken out. */
  readonly relativeMessage: (message: string) => string;
  readonly events: IndexerEvents;
}

/**
 * What the indexer tells its folder.
 *
 * @example
 * const events: IndexerEvents = { changed: signal, indexingStarted: opened, broken: () => void folder.refresh() };
 */
interface IndexerEvents {
  /** The document set changed. */
  changed(): void;
  /** An indexing started reading in batches: from now on a search answers with what it has so far. */
  indexingStarted(): void;
  /** Background work found the index broken; the next update rebuilds it ({@link FolderIndexer.mustRebuild}). */
  broken(): void;
}

/** The files a refresh walked: those listed, and a test for the paths under the walked subtrees. */
interface Listing {
  readonly listed: readonly Listed[];
  readonly under: (relative: string) => boolean;
}

/** A listed file whose size or times differ from what is known: it is read again. */
interface StaleFile {
  readonly file: Listed;
  readonly info: FileStat;
}

/**
 * A served folder's index and what is known of its files (see the module comment for its steps).
 *
 * @example
 * const indexer = new FolderIndexer(parts);
 * await indexer.update("all");
 * indexer.snapshot.documents.size; // => 31
 */
export class FolderIndexer {
  /** The snapshot the folder serves: a live view of this indexer's state. */
  readonly snapshot: FolderSnapshot;
  /** Changes to the document set so far (a document added, replaced or removed). */
  generation = 0;
  /** Set when background work found the index broken: the next update rebuilds it from the files. */
  mustRebuild = false;

  private index: SearchIndex;
  private readonly documents = new Map<string, FolderDocument>();
  private readonly removed = new Set<string>();
  /** What is known of every listed file, by path of the served set. */
  private readonly known = new Map<string, Known>();
  private indexing: IndexingProgress | undefined;
  /** How many known files are marked `unreadable`. */
  private unreadable = 0;
  /** The symbolic links listed: their targets may change without an event, so each check stats them. */
  private links: Listed[] = [];
  /** How many known files changed while they were read, and are read again by the next update. */
  private retrying = 0;
  /** True until the first update ends: it restores the snapshot, and saves at once. */
  private first = true;
  /** True while a tidy-up is scheduled or under way (one at a time). */
  private tidying = false;
  private saveTimer: NodeJS.Timeout | undefined;
  /**
   * The entries of a one-pass rebuild, indexed at once by `createIndex` when the walk is done;
   * undefined the rest of the time, when each file is added to the index as read.
   */
  private bulk: IndexEntry[] | undefined;

  constructor(private readonly parts: IndexerParts) {
    this.index = this.emptyIndex();
    const self = this;
    this.snapshot = {
      documents: this.documents,
      removed: this.removed,
      get index() {
        return self.index;
      },
      get indexing() {
        return self.indexing;
      },
      get unreadable() {
        return self.unreadable;
      },
    };
  }

  /**
   * True when the whole tree must be checked whatever the watch saw: a file changed while it was
   * read, or a symbolic link now resolves elsewhere (its target may sit in an unwatched folder).
   */
  async mustCheckAll(): Promise<boolean> {
    if (this.retrying > 0) return true;
    for (const file of this.links) {
      const place = placeOf(this.parts.mounts, file.relative);
      const info = await statLink(place.root, { ...file, relative: place.relative });
      const before = this.known.get(file.relative);
      if (info === null ? before !== undefined : isStale(before, info)) return true;
    }
    return false;
  }

  /**
   * Brings the index up to date with the tree, or with the subtrees of `targets` only (the
   * folders the watch saw events in): an edit lists and stats one folder, not the whole tree.
   */
  async update(targets: "all" | ReadonlySet<string>): Promise<void> {
    const started = performance.now();
    const restoredBytes = this.first ? this.restore() : 0;
    try {
      const listing = this.list(targets);
      const { seen, stale } = await this.findStale(listing.listed);
      const dropped = this.dropMissing(seen, listing.under);
      const { bytes, fromDisk } = await this.readStale(stale);
      this.finish({ started, changed: dropped > 0 || stale.length > 0, restoredBytes, bytes, fromDisk, dropped });
    } finally {
      this.first = false;
    }
  }

  /**
   * Builds the index again from the files, in one pass: every file is read again and the whole
   * index made by one `createIndex`, without the updates one file at a time that the failure may
   * have come from. Searches meanwhile wait for it: a rebuild runs inside a refresh of the folder
   * (./folder.ts), every tool call refreshes first, and a refresh waits for the one under way, so
   * it answers from the rebuilt index. Only `snapshot` read without a refresh sees the index
   * being rebuilt, empty until the walk is done.
   */
  async rebuild(): Promise<void> {
    this.mustRebuild = false;
    this.index = this.emptyIndex();
    this.known.clear();
    this.unreadable = 0;
    this.documents.clear();
    this.parts.reader.forget();
    this.generation += 1;
    const bulk: IndexEntry[] = [];
    this.bulk = bulk;
    try {
      await this.update("all");
      this.index = createIndex(bulk, { ranking: this.parts.ranking, ...this.parts.analysis });
    } finally {
      this.bulk = undefined;
    }
    this.generation += 1;
    this.parts.log(`rebuilt the index: ${this.documents.size} documents`);
  }

  /** Writes a snapshot that a timer still waits to write (the folder is closing). */
  flush(): void {
    if (this.saveTimer === undefined) return;
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    this.save();
  }

  private emptyIndex(): SearchIndex {
    return createIndex([], { ranking: this.parts.ranking, ...this.parts.analysis });
  }

  /**
   * Loads the saved snapshot, when there is one to trust: its index becomes the index, and its
   * files what is known, so that the walk that follows reads only the files changed since.
   * Returns the snapshot's size in bytes, 0 when none was loaded.
   */
  private restore(): number {
    const saved = this.parts.cache?.load();
    if (saved === undefined) return 0;
    this.index = saved.index;
    for (const [relative, file] of saved.files) {
      const { size, modified, changed, title, format, partial } = file;
      const document: FolderDocument | undefined =
        title === undefined ? undefined : { id: documentId(relative), relative, title, url: this.parts.reader.urlOf(relative), format: format as string, bytes: size, modified };
      this.known.set(relative, { modified, changed, size, ...(document !== undefined && { document }), ...(partial === true && { unreadable: true }) });
      if (document !== undefined) this.documents.set(relative, document);
      if (partial === true) this.unreadable += 1;
    }
    this.generation += 1;
    return saved.bytes;
  }

  /**
   * Saves the index and what is known of each file; a file to read again is left out, so a
   * restart reads it, and so is a file that could not be read, so a restart says why again (and
   * counts it), from the text cache when it is a binary document. A document read only in part
   * is kept, marked, so a restart counts it too.
   */
  private save(): void {
    const { cache } = this.parts;
    if (cache === undefined) return;
    const files = new Map<string, SnapshotFile>();
    for (const [relative, { size, modified, changed, document, retry, unreadable }] of this.known) {
      if (retry === true || (unreadable === true && document === undefined)) continue;
      files.set(relative, { size, modified, changed, ...(document !== undefined && { title: document.title, format: document.format }), ...(unreadable === true && { partial: true }) });
    }
    cache.save(this.index, files);
  }

  /** Step 2: the files under `targets`, walked; the folders seen are watched. */
  private list(targets: "all" | ReadonlySet<string>): Listing {
    const { mounts, rules, watch, log } = this.parts;
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
      this.links = listed.filter((file) => file.link);
    } else {
      this.links = [...this.links.filter((file) => !under(file.relative)), ...listed.filter((file) => file.link)];
    }
    return { listed, under };
  }

  /** Step 3: each listed file stat'ed; those whose size or times changed, in code-unit order. */
  private async findStale(listed: readonly Listed[]): Promise<{ seen: Set<string>; stale: StaleFile[] }> {
    const seen = new Set<string>();
    const stale: StaleFile[] = [];
    for (const [n, file] of listed.entries()) {
      const place = placeOf(this.parts.mounts, file.relative);
      const inside = { ...file, relative: place.relative };
      const info = file.link ? await statLink(place.root, inside) : statFile(place.root, inside, this.parts.log);
      // Let requests in while a large tree is stat'ed: initialize must not wait for it.
      if (n % 500 === 499) await new Promise((resolve) => setImmediate(resolve));
      if (info === null) continue;
      seen.add(file.relative);
      if (isStale(this.known.get(file.relative), info)) stale.push({ file, info });
    }
    // Code-unit order, so ties rank the same on every run, warm or cold.
    stale.sort((a, b) => compareCodeUnits(a.file.relative, b.file.relative));
    return { seen, stale };
  }

  /** Step 4: the known files under the walked subtrees that the walk did not see, removed. */
  private dropMissing(seen: ReadonlySet<string>, under: (relative: string) => boolean): number {
    let dropped = 0;
    for (const relative of [...this.known.keys()]) {
      if (seen.has(relative) || !under(relative)) continue;
      this.apply(relative, { known: { modified: 0, changed: 0, size: 0 } });
      this.known.delete(relative);
      dropped += 1;
    }
    return dropped;
  }

  /**
   * Step 5: the stale files read and applied, in two lanes that run together: the text files in
   * batches of at most {@link BATCH} files or {@link SLICE_MS}, whichever comes first, with room
   * for requests between batches; and beside them the binary documents (PDF, DOCX, ODT, EPUB),
   * read one at a time off the event loop, so that a note never waits behind a long PDF. Each
   * lane reads in code-unit order, and a binary document enters the index once every text file
   * has, so the tie order is the same on every run. Returns the bytes read and the files that
   * gave a document.
   */
  private async readStale(stale: readonly StaleFile[]): Promise<{ bytes: number; fromDisk: number }> {
    const { reader, log } = this.parts;
    const isBinary = ({ file }: StaleFile) => binaryFormatOf(file.relative) !== undefined;
    const texts = stale.filter((file) => !isBinary(file));
    const binaries = stale.filter(isBinary);
    let bytes = 0;
    let fromDisk = 0;
    let done = 0;
    let lastLog = performance.now();
    const applied = (file: StaleFile, read: Read) => {
      this.apply(file.file.relative, read);
      done += 1;
      if (read.entry !== undefined) {
        bytes += file.info.size;
        fromDisk += 1;
      }
    };
    const progress = () => {
      if (this.indexing === undefined) return;
      this.indexing = { done, total: stale.length, bytes };
      if (performance.now() - lastLog >= PROGRESS_MS) {
        lastLog = performance.now();
        log(`indexing: ${done} of ${stale.length} files, ${(bytes / 1048576).toFixed(1)} MB read`);
      }
    };
    // A binary document may take seconds to read (a 500-page PDF): with one to read, even a small
    // folder answers at once with what is indexed so far, as a large one does.
    if (stale.length > BATCH || binaries.length > 0) {
      this.indexing = { done: 0, total: stale.length, bytes: 0 };
      log(`indexing ${stale.length} files`);
      this.parts.events.indexingStarted();
    }
    let textsDone: () => void = () => undefined;
    const textsApplied = new Promise<void>((resolve) => (textsDone = resolve));
    const binaryLane = (async () => {
      for (const file of binaries) {
        const read = await reader.readOne(file.file, file.info);
        // Held until the text lane is done (at most one document's text waits here).
        await textsApplied;
        applied(file, read);
        progress();
      }
    })();
    // Handled at once: a rejection while the text lane still runs is awaited below, not unhandled.
    binaryLane.catch(() => undefined);
    try {
      try {
        for (let from = 0; from < texts.length; ) {
          const sliceEnd = performance.now() + SLICE_MS;
          const batchEnd = Math.min(texts.length, from + BATCH);
          do {
            const file = texts[from++] as StaleFile;
            applied(file, reader.readOne(file.file, file.info) as Read);
          } while (from < batchEnd && (this.indexing === undefined || performance.now() < sliceEnd));
          if (this.indexing === undefined) continue;
          progress();
          // Let requests in between batches: a search meanwhile sees what is indexed so far.
          await new Promise((resolve) => setImmediate(resolve));
        }
      } finally {
        textsDone();
      }
      await binaryLane;
    } finally {
      // The binary lane ends before the indexing does, even when the text lane threw.
      await binaryLane.catch(() => undefined);
      this.indexing = undefined;
    }
    return { bytes, fromDisk };
  }

  /** Puts what was read of one file in the index: add, replace or remove its document. */
  private apply(relative: string, read: Read): void {
    const before = this.known.get(relative);
    const document = before?.document;
    this.unreadable += (read.known.unreadable === true ? 1 : 0) - (before?.unreadable === true ? 1 : 0);
    this.known.set(relative, read.known);
    this.parts.reader.forget(relative);
    if (read.entry === undefined) {
      if (document === undefined) return;
      this.index.remove(document.id);
      this.documents.delete(relative);
      this.removed.add(document.id);
      // The oldest first: a session that deletes uniquely named files forever keeps a bounded set.
      if (this.removed.size > REMOVED_IDS_KEPT) this.removed.delete(this.removed.values().next().value as string);
      this.generation += 1;
      return;
    }
    this.generation += 1;
    if (this.bulk !== undefined) this.bulk.push(read.entry);
    else if (document === undefined) this.index.add(read.entry);
    else this.index.replace(read.entry);
    this.documents.set(relative, read.known.document as FolderDocument);
    this.removed.delete(read.entry.id);
  }

  /**
   * Step 6: the update's log line, the listeners told, the snapshot scheduled, and the tidy-up
   * after a large indexing.
   */
  private finish(update: { started: number; changed: boolean; restoredBytes: number; bytes: number; fromDisk: number; dropped: number }): void {
    const { started, changed, restoredBytes, bytes, fromDisk, dropped } = update;
    const large = fromDisk + dropped > BATCH;
    this.retrying = 0;
    for (const entry of this.known.values()) if (entry.retry === true) this.retrying += 1;
    if (changed || restoredBytes > 0) this.parts.log(`indexed ${this.documents.size} documents in ${Math.round(performance.now() - started)} ms (${fromDisk} files read)`);
    if (changed) {
      this.parts.events.changed();
      // The first indexing saves at once; later edits at most every SAVE_DELAY_MS, since a save
      // rewrites the whole snapshot. A snapshot a little behind is still correct: the files
      // changed since are read again on the next start.
      if (this.first) {
        if (!large) this.save();
      } else if (this.parts.cache !== undefined && this.saveTimer === undefined) {
        this.saveTimer = setTimeout(() => {
          this.saveTimer = undefined;
          this.save();
        }, SAVE_DELAY_MS);
        this.saveTimer.unref();
      }
    }
    // After a large indexing, the first snapshot is written by the tidy-up, once compacted.
    this.tidyUp({ compact: large && this.bulk === undefined, release: bytes + restoredBytes >= RELEASE_AFTER_BYTES, save: this.first && changed && large });
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
  private tidyUp(work: { compact: boolean; release: boolean; save: boolean }): void {
    if ((!work.compact && !work.release && !work.save) || this.tidying) return;
    this.tidying = true;
    const tidied = this.index;
    const slice = () => {
      try {
        // An index swapped meanwhile (a rebuild) is not this tidy-up's to finish.
        if (this.index !== tidied) return void (this.tidying = false);
        const until = performance.now() + SLICE_MS;
        let compacted = !work.compact;
        while (!compacted && performance.now() < until) compacted = this.index.compactStep();
        // A timer, not setImmediate: an unref'd immediate lets the loop sleep in poll until the
        // next request, so an idle server would never finish (nor write its first snapshot).
        if (!compacted) return void setTimeout(slice, 0).unref();
        this.tidying = false;
        if (work.release) releaseMemory();
        if (work.save) this.save();
      } catch (error) {
        this.tidying = false;
        this.breakDown("compacting the index", error);
      }
    };
    setTimeout(slice, 0).unref();
  }

  /**
   * What background work does with an error: one line on stderr with the file count, then the
   * next update (asked for now) builds the index again from the files rather than serve it.
   */
  private breakDown(doing: string, error: unknown): void {
    const message = this.parts.relativeMessage(error instanceof Error ? error.message : String(error));
    this.parts.log(`${doing} failed with ${this.documents.size} files indexed: ${message}; building the index again from the files`);
    this.mustRebuild = true;
    this.parts.events.broken();
  }
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
