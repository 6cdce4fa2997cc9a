/**
 * The optional on-disk snapshot of a folder's index (`--cache <dir>`): the library's own index
 * bytes (`index.snapshot()`, read back by `loadIndex`), and what was known of each file when they
 * were taken (path, size, modification and status-change times, title, format, and whether its
 * text was read only in part), so that a
 * restart loads the index as it was and reads again only the files whose size or times changed.
 *
 * One file per served folder, `<dir>/mcp-search-<hash of the root>.snapshot`: a header line
 * `{"magic","version","fingerprint","files","index","sha256"}`, then the file table (JSON, `files`
 * bytes), then the index bytes (`index` bytes); `sha256` covers both. A snapshot whose magic,
 * version or fingerprint (root, ranking, base URL, size cap, vocabulary) differ, whose lengths or
 * checksum do not match, whose index `loadIndex` refuses, or whose file table does not name
 * exactly the index's documents, is ignored with one line on stderr, never trusted and never a
 * crash. Writing is atomic: a temporary file, then a rename over the old one.
 *
 * The cache folder is trusted only when nobody else can write it: anyone who can write there can
 * forge a snapshot, checksum included, and poison titles and indexed text. So a folder owned by
 * another user, or writable by group or others (a shared one, or a path under /tmp made in
 * advance by someone else), is refused with one sentence. Inside it, nothing at a name is
 * followed or waited on: the temporary file is created new (`O_EXCL | O_NOFOLLOW`, mode 600) under
 * a random name, and the snapshot is opened with `O_NOFOLLOW | O_NONBLOCK`, must be a regular file
 * (not a FIFO, which would block the read forever, nor a link to `/dev/zero`), and is read only
 * up to {@link MAX_SNAPSHOT_BYTES}.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { loadIndex, type LoadIndexOptions, type SearchIndex } from "@sbissoli/mcp-search";
import { checkPrivateFolder, readCacheFile, writeCacheFile } from "./cache-file.js";

/** What the snapshot keeps of one file; `title` and `format` are absent for a skipped file. */
export interface SnapshotFile {
  readonly size: number;
  readonly modified: number;
  readonly changed: number;
  readonly title?: string;
  readonly format?: string;
  /** True for a document read only in part (its text cut at the cap): still counted as unreadable after a restart. */
  readonly partial?: boolean;
}

/** A loaded snapshot: the index, the files by relative path, and how many bytes it was read from. */
interface LoadedSnapshot {
  readonly index: SearchIndex;
  readonly files: ReadonlyMap<string, SnapshotFile>;
  readonly bytes: number;
}

/** The snapshot of one folder; see the module comment. */
export interface SnapshotCache {
  /** The saved index and files, or `undefined` (after one line on stderr when a file was there). */
  load(): LoadedSnapshot | undefined;
  /** Writes `index` and `files` atomically. */
  save(index: SearchIndex, files: ReadonlyMap<string, SnapshotFile>): void;
}

const MAGIC = "mcp-search-snapshot";
/** Bumped whenever the layout changes; the index bytes carry their own version. */
const VERSION = 3;

/**
 * One file's row in the table: [path, size, modified, changed, title, format], title and format
 * null when skipped, then a 1 for a document read only in part (absent otherwise, so a snapshot
 * written before that mark reads as it meant).
 */
type Row = [string, number, number, number, string | null, string | null, 1?];

/**
 * The largest snapshot read: 1 GiB. The 20,000-file bench folder's is about 40 MB; a larger file
 * is ignored and the folder indexed in full.
 */
export const MAX_SNAPSHOT_BYTES = 1024 * 1024 * 1024;

/** Reads a snapshot file, or throws saying why it cannot be trusted. */
function readSnapshotFile(path: string, fingerprint: string, idOf: (relative: string) => string, loadOptions: LoadIndexOptions): LoadedSnapshot {
  const bytes = readCacheFile(path, MAX_SNAPSHOT_BYTES);
  const end = bytes.indexOf(10);
  if (end === -1) throw new Error("it is not an mcp-search snapshot");
  let head: { magic?: unknown; version?: unknown; fingerprint?: unknown; files?: unknown; index?: unknown; sha256?: unknown };
  try {
    head = JSON.parse(bytes.subarray(0, end).toString("utf8")) as typeof head;
  } catch {
    throw new Error("it is not an mcp-search snapshot");
  }
  if (head?.magic !== MAGIC) throw new Error("it is not an mcp-search snapshot");
  if (head.version !== VERSION) throw new Error(`it has version ${JSON.stringify(head.version)}, not ${VERSION}`);
  if (head.fingerprint !== fingerprint) throw new Error("it was made for another folder or other options");
  const { files: filesLength, index: indexLength } = head;
  if (!Number.isSafeInteger(filesLength) || !Number.isSafeInteger(indexLength) || end + 1 + (filesLength as number) + (indexLength as number) !== bytes.length) {
    throw new Error("its length does not match its header");
  }
  const body = bytes.subarray(end + 1);
  if (createHash("sha256").update(body).digest("hex") !== head.sha256) throw new Error("its content does not match its checksum");
  const rows = JSON.parse(body.subarray(0, filesLength as number).toString("utf8")) as unknown;
  const index = loadIndex(new Uint8Array(body.buffer, body.byteOffset + (filesLength as number), indexLength as number), loadOptions);
  if (!Array.isArray(rows)) throw new Error("its file table is malformed");
  const files = new Map<string, SnapshotFile>();
  let documents = 0;
  for (const row of rows as unknown[]) {
    const [relative, size, modified, changed, title, format, partial] = (Array.isArray(row) ? row : []) as Partial<Row>;
    const named = typeof title === "string" && typeof format === "string";
    if (typeof relative !== "string" || ![size, modified, changed].every(Number.isFinite) || !(named || (title === null && format === null)) || (partial !== undefined && (partial !== 1 || !named))) {
      throw new Error("its file table is malformed");
    }
    if (named && !index.has(idOf(relative))) throw new Error("its file table names a document its index lacks");
    if (named) documents += 1;
    files.set(relative, { size: size as number, modified: modified as number, changed: changed as number, ...(named && { title, format }), ...(partial === 1 && { partial: true }) });
  }
  if (documents !== index.size || files.size !== rows.length) throw new Error("its file table and its index disagree");
  return { index, files, bytes: bytes.length };
}

/**
 * Opens the snapshot of `root` in `dir` (created when missing, mode 700). `options` are what the
 * index depends on besides the files; a snapshot made with others is ignored. `idOf` gives a
 * file's document id; `loadOptions` are what `loadIndex` needs to rank as the index did (its
 * stemmers). Throws one sentence when `dir` is not a folder only this user can write.
 *
 * @example
 * const cache = openSnapshotCache("/tmp/cache", "/srv/docs", { ranking: "bm25" }, documentId, console.error);
 */
export function openSnapshotCache(dir: string, root: string, options: Readonly<Record<string, unknown>>, idOf: (relative: string) => string, log: (line: string) => void, loadOptions: LoadIndexOptions = {}): SnapshotCache {
  checkPrivateFolder(dir, "--cache", "its snapshot");
  const name = `mcp-search-${createHash("sha256").update(root).digest("hex").slice(0, 16)}.snapshot`;
  const path = join(dir, name);
  const fingerprint = JSON.stringify({ root, ...options });
  return {
    load() {
      try {
        const loaded = readSnapshotFile(path, fingerprint, idOf, loadOptions);
        log(`snapshot: ${loaded.index.size} documents in ${path}`);
        return loaded;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        log(`snapshot ignored: ${path}: ${error instanceof Error ? error.message : String(error)}; indexing every file`);
        return undefined;
      }
    },
    save(index, files) {
      try {
        const rows: Row[] = [];
        for (const [relative, file] of files) {
          const row: Row = [relative, file.size, file.modified, file.changed, file.title ?? null, file.format ?? null];
          if (file.partial === true) row[6] = 1;
          rows.push(row);
        }
        const table = Buffer.from(JSON.stringify(rows));
        const bytes = index.snapshot();
        const sha256 = createHash("sha256").update(table).update(bytes).digest("hex");
        const head = Buffer.from(`${JSON.stringify({ magic: MAGIC, version: VERSION, fingerprint, files: table.length, index: bytes.length, sha256 })}\n`);
        // A random temporary name, created new, then renamed (./cache-file.ts).
        writeCacheFile(path, [head, table, bytes]);
        log(`snapshot written: ${index.size} documents`);
      } catch (error) {
        log(`snapshot not written: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  };
}
