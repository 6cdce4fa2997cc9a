/**
 * The document set of a served folder. It is read once, then kept current incrementally. A
 * change watch (./watch.ts) tells whether anything happened since the last refresh; only then
 * does a refresh list the tree and stat every file, re-read the files whose modification time or
 * size changed, drop the deleted ones, and rebuild the search index. Without a working watch,
 * every refresh does that check. Every read goes through the one containment check,
 * {@link resolveInside}.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, type Dirent } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { extname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { createIndex, tokenize, type IndexEntry, type IndexRanking, type SearchIndex, type Vocabulary } from "@sbissoli/mcp-search";
import { decodeUtf8, extractDocument, SUPPORTED_EXTENSIONS } from "./documents.js";
import { documentId, resolveInside } from "./paths.js";
import { createTreeWatch, settleEvents, type TreeWatchOptions } from "./watch.js";

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

/** The largest file indexed, by default: 1 MiB. */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

/**
 * One indexed file.
 *
 * @example
 * const doc: FolderDocument = { id: "doc:a.md", relative: "a.md", title: "A", url: "file:///srv/docs/a.md",
 *   text: "# A", format: "markdown", bytes: 3, modified: 1767225600000 };
 */
export interface FolderDocument {
  readonly id: string;
  readonly relative: string;
  readonly title: string;
  readonly url: string;
  readonly text: string;
  readonly format: string;
  readonly bytes: number;
  readonly modified: number;
}

/**
 * The folder as of the last refresh: its documents by relative path, the index over them, and
 * the ids that existed earlier in this session but are gone now.
 *
 * @example
 * const { documents, index }: FolderSnapshot = await folder.refresh();
 */
export interface FolderSnapshot {
  readonly documents: ReadonlyMap<string, FolderDocument>;
  readonly index: SearchIndex;
  readonly removed: ReadonlySet<string>;
}

/**
 * Options of {@link openFolder}.
 *
 * @example
 * const options: FolderOptions = { root: "./docs", vocabulary, baseUrl: "https://docs.example.com/" };
 */
export interface FolderOptions {
  /** The folder to serve. */
  readonly root: string;
  /** Adds the everyday words of its table to each document's keywords. */
  readonly vocabulary: Vocabulary;
  /** Public base URL, given one trailing "/"; a document's url is this plus its path. @default undefined (file:// URIs) */
  readonly baseUrl?: string | undefined;
  /** Files larger than this are skipped. @default 1048576 (1 MiB) */
  readonly maxFileBytes?: number | undefined;
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
}

/**
 * A served folder. `refresh()` brings the snapshot up to date with every change made before it
 * was called (a call during a refresh waits for one more check); `current` is the last snapshot;
 * `watching` is false when changes are found by a full check on every call; `close()` stops the
 * watch (the folder then checks on every call).
 *
 * @example
 * const folder: Folder = await openFolder({ root: "./docs", vocabulary });
 * folder.current.documents.size; // => 31 (examples/corpus)
 * folder.close();
 */
export interface Folder {
  readonly root: string;
  readonly baseUrl: string | undefined;
  readonly current: FolderSnapshot;
  readonly watching: boolean;
  refresh(): Promise<FolderSnapshot>;
  close(): void;
}

/**
 * What was known of a file at the last refresh; `document` is absent when it was skipped. `entry`
 * is what every rebuild indexes: its keywords and {@link searchableText}, worked out once per read.
 */
interface Known {
  readonly modified: number;
  readonly size: number;
  readonly document?: FolderDocument;
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
  let root: string;
  try {
    root = await realpath(options.root);
  } catch {
    throw new Error(`The folder ${JSON.stringify(options.root)} does not exist.`);
  }
  if (!(await stat(root)).isDirectory()) throw new Error(`${JSON.stringify(options.root)} is not a folder.`);
  // The one place the base URL gets its single trailing "/"; the lookbehind keeps it linear in a run of slashes.
  const baseUrl = options.baseUrl === undefined ? undefined : options.baseUrl.replace(/(?<!\/)\/*$/, "/");
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const log = options.log ?? (() => undefined);
  const ranking = options.ranking ?? "bm25";
  const known = new Map<string, Known>();
  const removed = new Set<string>();
  let current: FolderSnapshot = { documents: new Map(), index: createIndex([], { ranking }), removed };
  let running: Promise<FolderSnapshot> | undefined;
  let queued: Promise<FolderSnapshot> | undefined;
  let links: Listed[] = [];
  const watch = createTreeWatch(root, { log, enabled: options.watch ?? true, watch: options.watchFolder });

  const urlOf = (relative: string) =>
    baseUrl === undefined ? pathToFileURL(join(root, relative)).href : baseUrl + relative.split("/").map(encodeURIComponent).join("/");

  async function readOne(file: Listed, modified: number, size: number): Promise<Known> {
    if (size > maxFileBytes) {
      log(`skipped ${file.relative}: ${size} bytes is over the ${maxFileBytes}-byte cap`);
      return { modified, size };
    }
    const real = await resolveInside(root, file.relative);
    if (real === null) {
      log(`skipped ${file.relative}: it resolves outside the folder`);
      return { modified, size };
    }
    const bytes = readCapped(real, maxFileBytes);
    const source = bytes === undefined ? undefined : decodeUtf8(bytes);
    if (source === undefined) {
      log(`skipped ${file.relative}: not readable as UTF-8 text`);
      return { modified, size };
    }
    // Relative links of an HTML page resolve against its public URL, only under --base-url.
    const { title, text, format } = extractDocument(file.relative, source, baseUrl === undefined ? {} : { url: urlOf(file.relative) });
    const id = documentId(file.relative);
    const document: FolderDocument = { id, relative: file.relative, title, url: urlOf(file.relative), text, format, bytes: size, modified };
    const keywords = options.vocabulary.askedWordsFor(`${title}\n${text}`);
    // BM25 counts repeats, so it indexes the whole text; the rule only needs each token once.
    const indexed = ranking === "bm25" ? text : searchableText(text);
    return { modified, size, document, entry: { id, title, url: document.url, keywords, text: indexed } };
  }

  /** True when a symbolic link now resolves to another file, or changed size or time. */
  async function linksChanged(): Promise<boolean> {
    for (const file of links) {
      const info = await statLink(root, file);
      const before = known.get(file.relative);
      if (info === null ? before !== undefined : before?.modified !== info.mtimeMs || before.size !== info.size) return true;
    }
    return false;
  }

  async function check(): Promise<FolderSnapshot> {
    await settleEvents();
    // A link's target may sit in an unwatched folder (hidden, vendor): links are always checked.
    if (!watch.takeDirty() && !(await linksChanged())) return current;
    return run();
  }

  async function run(): Promise<FolderSnapshot> {
    const started = performance.now();
    const folders = new Set<string>();
    const listed = walk(root, log, (relative) => {
      folders.add(relative);
      watch.add(relative);
    });
    watch.retain(folders);
    links = listed.filter((file) => file.link);
    let changed = false;
    const seen = new Set<string>();
    const stale: { file: Listed; modified: number; size: number }[] = [];
    for (const file of listed) {
      const info = file.link ? await statLink(root, file) : statFile(root, file);
      if (info === null) continue;
      seen.add(file.relative);
      const before = known.get(file.relative);
      if (before === undefined || before.modified !== info.mtimeMs || before.size !== info.size) {
        stale.push({ file, modified: info.mtimeMs, size: info.size });
      }
    }
    await mapLimit(stale, 16, async ({ file, modified, size }) => {
      known.set(file.relative, await readOne(file, modified, size));
      changed = true;
    });
    for (const relative of [...known.keys()]) {
      if (seen.has(relative) && known.has(relative)) continue;
      const gone = known.get(relative);
      if (gone?.document !== undefined) removed.add(gone.document.id);
      known.delete(relative);
      changed = true;
    }
    if (!changed) return current;
    const relatives = [...known.keys()].sort(compareCodeUnits);
    const documents = new Map<string, FolderDocument>();
    const entries: IndexEntry[] = [];
    for (const relative of relatives) {
      const entry = known.get(relative);
      if (entry?.document === undefined || entry.entry === undefined) continue;
      documents.set(relative, entry.document);
      entries.push(entry.entry);
      removed.delete(entry.document.id);
    }
    current = { documents, index: createIndex(entries, { ranking }), removed };
    log(`indexed ${documents.size} documents in ${Math.round(performance.now() - started)} ms`);
    return current;
  }

  const folder: Folder = {
    root,
    baseUrl,
    get current() {
      return current;
    },
    get watching() {
      return watch.active;
    },
    refresh() {
      if (running === undefined) {
        running = check().finally(() => {
          running = undefined;
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
    close() {
      watch.close();
    },
  };
  await folder.refresh();
  return folder;
}

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

/**
 * The bytes of a regular file of at most `max` bytes, or `undefined`. The read is synchronous on
 * purpose, after the asynchronous containment check: a file is capped, and one blocking read
 * from the page cache is about twice as fast as `readFile`'s four thread-pool round trips (cold
 * index of 10k files: ~0.7 s → ~0.3 s of reading). `O_NONBLOCK` keeps a FIFO swapped in after
 * the stat from blocking the server; the size is checked again on the open file.
 */
function readCapped(path: string, max: number): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile() || info.size > max) return undefined;
    const buffer = Buffer.allocUnsafe(info.size);
    let read = 0;
    while (read < info.size) {
      const n = readSync(fd, buffer, read, info.size - read, read);
      if (n === 0) break; // the file shrank since fstat
      read += n;
    }
    return buffer.subarray(0, read);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Code-unit order: deterministic, independent of the machine's locale. */
function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The size and modification time of a plain listed file, or `null` when it vanished. */
function statFile(root: string, file: Listed): { mtimeMs: number; size: number } | null {
  const info = lstatSync(join(root, file.relative), { throwIfNoEntry: false });
  return info?.isFile() === true ? info : null;
}

/** The same for a symbolic link, followed only when it resolves inside the root. */
async function statLink(root: string, file: Listed): Promise<{ mtimeMs: number; size: number } | null> {
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
function walk(root: string, log: (line: string) => void, visit: (folder: string) => void): Listed[] {
  const found: Listed[] = [];
  const pending: string[] = [""];
  for (let folder = pending.pop(); folder !== undefined; folder = pending.pop()) {
    visit(folder);
    let entries: Dirent[];
    try {
      entries = readdirSync(join(root, folder), { withFileTypes: true });
    } catch {
      log(`skipped folder ${folder || "."}: it cannot be read`);
      continue;
    }
    for (const entry of entries) {
      const relative = folder === "" ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!entry.name.startsWith(".") && !VENDOR_FOLDERS.has(entry.name)) pending.push(relative);
      } else if ((entry.isFile() || entry.isSymbolicLink()) && SUPPORTED_EXTENSIONS.has(extname(entry.name).toLowerCase())) {
        found.push({ relative, link: entry.isSymbolicLink() });
      }
    }
  }
  return found;
}

/** Runs `task` over `items` with at most `limit` in flight. */
async function mapLimit<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
