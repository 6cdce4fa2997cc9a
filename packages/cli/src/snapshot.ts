/**
 * The optional on-disk snapshot of a folder's index (`--cache <dir>`): the library's own index
 * bytes (`index.snapshot()`, read back by `loadIndex`), and what was known of each file when they
 * were taken (path, size, modification and status-change times, title and format), so that a
 * restart loads the index as it was and reads again only the files whose size or times changed.
 *
 * One file per served folder, `<dir>/mcp-search-<hash of the root>.snapshot`: a header line
 * `{"magic","version","fingerprint","files","index","sha256"}`, then the file table (JSON, `files`
 * bytes), then the index bytes (`index` bytes); `sha256` covers both. A snapshot whose magic,
 * version or fingerprint (root, ranking, base URL, size cap, vocabulary) differ, whose lengths or
 * checksum do not match, whose index `loadIndex` refuses, or whose file table does not name
 * exactly the index's documents, is ignored with one line on stderr, never trusted and never a
 * crash. Writing is atomic: a temporary file, then a rename over the old one.
 */
import { createHash } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { loadIndex, type SearchIndex } from "@sbissoli/mcp-search";

/** What the snapshot keeps of one file; `title` and `format` are absent for a skipped file. */
export interface SnapshotFile {
  readonly size: number;
  readonly modified: number;
  readonly changed: number;
  readonly title?: string;
  readonly format?: string;
}

/** A loaded snapshot: the index, the files by relative path, and how many bytes it was read from. */
export interface LoadedSnapshot {
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

/** One file's row in the table: [path, size, modified, changed, title, format] (title and format null when skipped). */
type Row = [string, number, number, number, string | null, string | null];

/** Reads a snapshot file, or throws saying why it cannot be trusted. */
function readSnapshotFile(path: string, fingerprint: string, idOf: (relative: string) => string): LoadedSnapshot {
  const bytes = readFileSync(path);
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
  const index = loadIndex(new Uint8Array(body.buffer, body.byteOffset + (filesLength as number), indexLength as number));
  if (!Array.isArray(rows)) throw new Error("its file table is malformed");
  const files = new Map<string, SnapshotFile>();
  let documents = 0;
  for (const row of rows as unknown[]) {
    const [relative, size, modified, changed, title, format] = (Array.isArray(row) ? row : []) as Partial<Row>;
    if (typeof relative !== "string" || ![size, modified, changed].every(Number.isFinite) || (title === null) !== (format === null) || (title !== null && (typeof title !== "string" || typeof format !== "string"))) {
      throw new Error("its file table is malformed");
    }
    if (title !== null && !index.has(idOf(relative))) throw new Error("its file table names a document its index lacks");
    if (title !== null) documents += 1;
    files.set(relative, { size: size as number, modified: modified as number, changed: changed as number, ...(title !== null && { title: title as string, format: format as string }) });
  }
  if (documents !== index.size || files.size !== rows.length) throw new Error("its file table and its index disagree");
  return { index, files, bytes: bytes.length };
}

/**
 * Opens the snapshot of `root` in `dir` (created when missing). `options` are what the index
 * depends on besides the files; a snapshot made with others is ignored. `idOf` gives a file's
 * document id.
 *
 * @example
 * const cache = openSnapshotCache("/tmp/cache", "/srv/docs", { ranking: "bm25" }, documentId, console.error);
 */
export function openSnapshotCache(dir: string, root: string, options: Readonly<Record<string, unknown>>, idOf: (relative: string) => string, log: (line: string) => void): SnapshotCache {
  mkdirSync(dir, { recursive: true });
  const name = `mcp-search-${createHash("sha256").update(root).digest("hex").slice(0, 16)}.snapshot`;
  const path = join(dir, name);
  const fingerprint = JSON.stringify({ root, ...options });
  return {
    load() {
      try {
        const loaded = readSnapshotFile(path, fingerprint, idOf);
        log(`snapshot: ${loaded.index.size} documents in ${path}`);
        return loaded;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        log(`snapshot ignored: ${path}: ${error instanceof Error ? error.message : String(error)}; indexing every file`);
        return undefined;
      }
    },
    save(index, files) {
      const temporary = `${path}.${process.pid}.tmp`;
      try {
        const rows: Row[] = [];
        for (const [relative, file] of files) rows.push([relative, file.size, file.modified, file.changed, file.title ?? null, file.format ?? null]);
        const table = Buffer.from(JSON.stringify(rows));
        const bytes = index.snapshot();
        const sha256 = createHash("sha256").update(table).update(bytes).digest("hex");
        const head = Buffer.from(`${JSON.stringify({ magic: MAGIC, version: VERSION, fingerprint, files: table.length, index: bytes.length, sha256 })}\n`);
        const fd = openSync(temporary, "w");
        try {
          for (const part of [head, table, bytes]) writeSync(fd, part);
        } finally {
          closeSync(fd);
        }
        renameSync(temporary, path);
        log(`snapshot written: ${index.size} documents`);
      } catch (error) {
        rmSync(temporary, { force: true });
        log(`snapshot not written: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  };
}
