/**
 * The document set of a served folder. It is read once, then kept current incrementally. A
 * change watch (./watch.ts) tells whether anything happened since the last refresh; only then
 * does a refresh list the tree and stat every file, re-read the files whose modification time or
 * size changed, drop the deleted ones, and rebuild the search index. Without a working watch,
 * every refresh does that check. Every read goes through the one containment check,
 * {@link readInside}, which checks and reads on one file descriptor. A path that cannot be
 * listed or stat'ed is skipped and logged, never fatal; a refresh that fails is retried by the
 * next call.
 */
import { lstatSync, readdirSync, type Dirent } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { extname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { createIndex, tokenize, type IndexEntry, type IndexRanking, type SearchIndex, type Vocabulary } from "@sbissoli/mcp-search";
import { decodeUtf8, extractDocument, SUPPORTED_EXTENSIONS } from "./documents.js";
import { documentId, readInside, type InsideRead, relativeMessage, resolveInside } from "./paths.js";
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
 * `changed` is the status-change time (ctime): a `chmod` that makes a file readable moves it, not
 * the modification time. `retry` marks a file that changed while it was read: the next refresh
 * reads it again whatever its times.
 */
interface Known {
  readonly modified: number;
  readonly changed: number;
  readonly size: number;
  readonly retry?: boolean;
  readonly document?: FolderDocument;
  readonly entry?: IndexEntry;
}

/** The times and size a refresh compares. */
interface FileStat {
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly size: number;
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
  /** True while `known` holds changes the current snapshot does not: set by a refresh, cleared by a rebuild. */
  let unbuilt = false;
  /** How many known files changed while they were read, and are read again by the next refresh. */
  let retrying = 0;
  const watch = createTreeWatch(root, { log, enabled: options.watch ?? true, watch: options.watchFolder });

  const urlOf = (relative: string) =>
    baseUrl === undefined ? pathToFileURL(join(root, relative)).href : baseUrl + relative.split("/").map(encodeURIComponent).join("/");

  function readOne(file: Listed, info: FileStat): Known {
    const { mtimeMs: modified, ctimeMs: changed, size } = info;
    if (size > maxFileBytes) {
      log(`skipped ${file.relative}: ${size} bytes is over the ${maxFileBytes}-byte cap`);
      return { modified, changed, size };
    }
    const read = readInside(root, file.relative, maxFileBytes);
    if (!read.ok) {
      log(`skipped ${file.relative}: ${SKIP_REASONS[read.why]}${read.code === undefined ? "" : ` (${read.code})`}`);
      return { modified, changed, size, retry: read.why === "changed" };
    }
    const source = decodeUtf8(read.bytes);
    if (source === undefined) {
      log(`skipped ${file.relative}: not readable as UTF-8 text`);
      return { modified, changed, size };
    }
    // Relative links of an HTML page resolve against its public URL, only under --base-url.
    const { title, text, format } = extractDocument(file.relative, source, baseUrl === undefined ? {} : { url: urlOf(file.relative) });
    const id = documentId(file.relative);
    const document: FolderDocument = { id, relative: file.relative, title, url: urlOf(file.relative), text, format, bytes: read.size, modified: read.modified };
    const keywords = options.vocabulary.askedWordsFor(`${title}\n${text}`);
    // BM25 counts repeats, so it indexes the whole text; the rule only needs each token once.
    const indexed = ranking === "bm25" ? text : searchableText(text);
    return { modified, changed, size, document, entry: { id, title, url: document.url, keywords, text: indexed } };
  }

  /** True when a symbolic link now resolves to another file, or changed size or time. */
  async function linksChanged(): Promise<boolean> {
    for (const file of links) {
      const info = await statLink(root, file);
      const before = known.get(file.relative);
      if (info === null ? before !== undefined : isStale(before, info)) return true;
    }
    return false;
  }

  async function check(): Promise<FolderSnapshot> {
    await settleEvents();
    // A link's target may sit in an unwatched folder (hidden, vendor): links are always checked.
    // A file that changed while it was read is read again.
    if (!watch.takeDirty() && retrying === 0 && !(await linksChanged())) return current;
    try {
      return await run();
    } catch (error) {
      // The dirty mark was taken: put it back, so the next call walks again instead of serving
      // this stale snapshot for good; and no absolute path of the server's disk in the message.
      watch.markDirty();
      throw new Error(relativeMessage(root, error instanceof Error ? error.message : String(error)));
    }
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
    const seen = new Set<string>();
    const stale: { file: Listed; info: FileStat }[] = [];
    for (const file of listed) {
      const info = file.link ? await statLink(root, file) : statFile(root, file, log);
      if (info === null) continue;
      seen.add(file.relative);
      if (isStale(known.get(file.relative), info)) stale.push({ file, info });
    }
    for (const { file, info } of stale) {
      known.set(file.relative, readOne(file, info));
      unbuilt = true;
    }
    for (const relative of [...known.keys()]) {
      if (seen.has(relative) && known.has(relative)) continue;
      const gone = known.get(relative);
      if (gone?.document !== undefined) removed.add(gone.document.id);
      known.delete(relative);
      unbuilt = true;
    }
    retrying = 0;
    for (const entry of known.values()) if (entry.retry === true) retrying += 1;
    if (!unbuilt) return current;
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
    unbuilt = false; // only once the new snapshot stands: a rebuild that throws is tried again
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
 * Lists the supported files under `root`, as relative paths with "/" separators. Vendor
 * folders, and hidden folders and files (a name starting with "."), are skipped; symbolic links to folders are not followed (no cycles); symbolic
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
    } catch (error) {
      log(`skipped folder ${folder || "."}: it cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`);
      continue;
    }
    for (const entry of entries) {
      const relative = folder === "" ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!entry.name.startsWith(".") && !VENDOR_FOLDERS.has(entry.name)) pending.push(relative);
      } else if (entry.name.startsWith(".")) {
        continue; // hidden files are skipped like hidden folders
      } else if ((entry.isFile() || entry.isSymbolicLink()) && SUPPORTED_EXTENSIONS.has(extname(entry.name).toLowerCase())) {
        found.push({ relative, link: entry.isSymbolicLink() });
      }
    }
  }
  return found;
}
