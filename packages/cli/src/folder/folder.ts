/**
 * The document set of a served folder. It is read once, in the background, then kept current
 * incrementally. A change watch (./watch.ts) tells whether anything happened since the last
 * refresh; only then does a refresh list the tree and stat every file, re-read the files whose
 * modification time or size changed and drop the deleted ones, each change touching only that
 * file's entry in the index (`add`, `replace`, `remove`). Without a working watch, every refresh
 * does that check. Texts are not kept: a snippet or a fetch reads the file again
 * ({@link Folder.load}). Every read goes through the one containment check, `readInside`
 * (./containment.ts), which checks and reads on one file descriptor. A path that cannot be listed or
 * stat'ed is skipped and logged, never fatal; a refresh that fails is retried by the next call.
 *
 * This module decides when to refresh; the indexer (./indexer.ts) does it, in named steps, and
 * the reader (./reader.ts) reads each file.
 */
import type { Language, IndexRanking, Vocabulary } from "@sbissoli/mcp-search";
import { createIgnoreRules, type IgnoreOptions } from "./ignore-rules.js";
import { FolderIndexer, type FolderAnalysis, type FolderSnapshot } from "./indexer.js";
import { createMountedWatch, resolveMounts, type Mount } from "./mounts.js";
import { relativeMessage as relativeMessageIn } from "./containment.js";
import { documentId } from "./ids.js";
import { ELD_DETECTOR } from "./detector.js";
import { createDocumentReader, READER_VERSION } from "./reader.js";
import { FORMATS_VERSION } from "../formats/types.js";
import { openSnapshotCache } from "./snapshot.js";
import { SNOWBALL_STEMMERS } from "./stemmers.js";
import type { FolderDocument, LoadedDocument } from "./types.js";
import { settleEvents, type TreeWatch, type TreeWatchOptions } from "./watch.js";

export type { FolderSnapshot } from "./indexer.js";
export type { FolderDocument, LoadedDocument } from "./types.js";

/** The largest file indexed, by default: 1 MiB. */
const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

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
  readonly language?: Language | "auto" | undefined;
  /** BM25 only: a document's language when `"auto"` is unsure: the locale's. @default "en" */
  readonly fallbackLanguage?: Language | undefined;
  /**
   * What the walk leaves out besides hidden and vendor folders (./ignore-rules.ts): the
   * folder's `.gitignore` files, and `--exclude`/`--include` patterns.
   * @default { gitignore: true } (the .gitignore files only)
   */
  readonly ignore?: IgnoreOptions | undefined;
  /**
   * The first indexing starts when this settles: the CLI settles it once its transport has
   * answered the first request, so that a walk that holds the thread (a `.gitignore` of 150,000
   * patterns compiles for seconds) never keeps `initialize` or `listen` waiting.
   * @default undefined (at once)
   */
  readonly indexAfter?: Promise<unknown> | undefined;
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
  // Several folders: each path of the served set is its folder's prefix, then the path inside it
  // (./mounts.ts). The snapshot and the text cache belong to the set of folders served together.
  const mounts = await resolveMounts(typeof options.root === "string" ? [options.root] : options.root);
  const root = (mounts[0] as Mount).root;
  const cacheKey = mounts.length === 1 ? root : mounts.map((mount) => `${mount.prefix}=${mount.root}`).join("\n");
  // The one place the base URL gets its single trailing "/"; the lookbehind keeps it linear in a run of slashes.
  const baseUrl = options.baseUrl === undefined ? undefined : options.baseUrl.replace(/(?<!\/)\/*$/, "/");
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const log = options.log ?? (() => undefined);
  const ranking = options.ranking ?? "bm25";
  // BM25's analysis: the languages go into the index, its settings into the snapshot's fingerprint.
  const language = options.language ?? "auto";
  // eld is asked only when BM25 detects each document's language, and loaded by its first question (./detector.ts).
  const detector = ranking === "bm25" && language === "auto" ? { detector: ELD_DETECTOR } : {};
  const analysis: FolderAnalysis = ranking === "bm25" ? { language, fallbackLanguage: options.fallbackLanguage ?? "en", stemmers: SNOWBALL_STEMMERS, ...detector } : {};
  const listeners = new Set<() => void>();
  const signal = () => {
    for (const listener of listeners) listener();
  };
  const watch = createMountedWatch(mounts, { log, enabled: options.watch ?? true, watch: options.watchFolder, onEvent: signal });
  // The readers' versions: a snapshot of entries read otherwise (another text, title or headings) is not trusted.
  const fingerprint = { ranking, baseUrl, maxFileBytes, vocabulary: options.vocabularyKey ?? "", reader: READER_VERSION, formats: FORMATS_VERSION, ...analysis };
  const reader = createDocumentReader({
    mounts, baseUrl, maxFileBytes, ranking, vocabulary: options.vocabulary, log,
    maxBinaryBytes: options.maxBinaryBytes, cache: options.cache, cacheKey,
  });
  const relativeMessage = (message: string) => mounts.reduce((text, mount) => relativeMessageIn(mount.root, text), message);
  // Set below, once the folder exists: the indexer's events reach it.
  let folder: ServedFolder | undefined;
  const indexer = new FolderIndexer({
    mounts, watch, reader, ranking, analysis, log, relativeMessage,
    rules: new Map(mounts.map((mount) => [mount, createIgnoreRules(mount.root, options.ignore, log)])),
    cache: options.cache === undefined ? undefined : openSnapshotCache(options.cache, cacheKey, fingerprint, documentId, log, analysis),
    events: {
      changed: signal,
      indexingStarted: () => folder?.open(),
      broken: () => void folder?.refresh().catch(() => undefined),
    },
  });
  folder = new ServedFolder({ root, mounts, baseUrl, log, relativeMessage, watch, indexer, listeners, load: (doc) => reader.load(doc), indexAfter: options.indexAfter });
  return folder;
}

/** What a {@link ServedFolder} is made of: {@link openFolder}'s parts. */
interface ServedFolderParts {
  readonly root: string;
  readonly mounts: readonly Mount[];
  readonly baseUrl: string | undefined;
  readonly log: (line: string) => void;
  readonly relativeMessage: (message: string) => string;
  readonly watch: TreeWatch;
  readonly indexer: FolderIndexer;
  readonly listeners: Set<() => void>;
  readonly load: (doc: FolderDocument) => Promise<LoadedDocument | undefined>;
  readonly indexAfter: Promise<unknown> | undefined;
}

/** A {@link Folder}: when to refresh, one refresh at a time; the indexer does the refreshing. */
class ServedFolder implements Folder {
  readonly root: string;
  readonly mounts: readonly Mount[];
  readonly baseUrl: string | undefined;
  readonly ready: Promise<FolderSnapshot>;
  /** True until the first refresh ends: until then a refresh answers with what is indexed so far. */
  private first = true;
  /** Settles when the first indexing starts reading in batches (or ends). */
  private readonly gate: Promise<void>;
  private openGate: () => void = () => undefined;
  private running: Promise<FolderSnapshot> | undefined;
  private queued: Promise<FolderSnapshot> | undefined;
  /** The message of the last refresh that failed: the same failure twice falls back to a rebuild. */
  private lastFailure: string | undefined;

  constructor(private readonly parts: ServedFolderParts) {
    ({ root: this.root, mounts: this.mounts, baseUrl: this.baseUrl } = parts);
    this.gate = new Promise<void>((resolve) => (this.openGate = resolve));
    // Never rejects: a first indexing that fails is logged, and the next call retries it.
    this.ready = this.refresh().catch((error: unknown) => {
      parts.log(`indexing failed: ${error instanceof Error ? error.message : String(error)}; the next call tries again`);
      return this.current;
    });
  }

  get current(): FolderSnapshot {
    return this.parts.indexer.snapshot;
  }

  get watching(): boolean {
    return this.parts.watch.active;
  }

  get generation(): number {
    return this.parts.indexer.generation;
  }

  /** From now on, a search during the first indexing answers with what is indexed so far. */
  open(): void {
    this.openGate();
  }

  refresh(): Promise<FolderSnapshot> {
    // The first indexing answers at once with what it has so far.
    if (this.first && this.running !== undefined) return this.gate.then(() => this.current);
    if (this.running === undefined) {
      this.running = this.check().finally(() => {
        this.running = undefined;
        this.first = false;
        this.open();
      });
      return this.running;
    }
    // A refresh is under way and may have listed the tree before this call's change: one more
    // check after it, shared by every call that arrives meanwhile.
    const again = () => ((this.queued = undefined), this.refresh());
    this.queued ??= this.running.then(again, again);
    return this.queued;
  }

  load(doc: FolderDocument): Promise<LoadedDocument | undefined> {
    return this.parts.load(doc);
  }

  onChange(listener: () => void): () => void {
    this.parts.listeners.add(listener);
    return () => void this.parts.listeners.delete(listener);
  }

  close(): void {
    this.parts.watch.close();
    this.parts.listeners.clear();
    this.parts.indexer.flush();
  }

  /** One refresh: the events settled, then a rebuild, an update of what changed, or nothing. */
  private async check(): Promise<FolderSnapshot> {
    const { watch, indexer, log } = this.parts;
    if (this.first) await this.parts.indexAfter;
    await settleEvents();
    if (indexer.mustRebuild) {
      watch.takeChanges();
      await indexer.rebuild();
      return this.current;
    }
    const changes = watch.takeChanges();
    const whole = await indexer.mustCheckAll();
    if (!whole && changes !== "all" && changes.size === 0) return this.current;
    try {
      await indexer.update(whole ? "all" : changes);
      this.lastFailure = undefined;
      return this.current;
    } catch (error) {
      // The changes were taken: put the mark back, so the next call walks again instead of
      // serving a stale snapshot for good; and no absolute path of the server's disk in the message.
      watch.markDirty();
      const message = this.parts.relativeMessage(error instanceof Error ? error.message : String(error));
      if (message !== this.lastFailure) {
        this.lastFailure = message;
        throw new Error(message);
      }
      // The same failure twice: the incremental path may be what fails. Say so once, and rebuild.
      this.lastFailure = undefined;
      log(`indexing failed again (${message}): building the index again from the files, in one pass`);
      await indexer.rebuild();
      return this.current;
    }
  }
}
