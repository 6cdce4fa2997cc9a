/**
 * The optional on-disk snapshot of a folder's index (`--cache <dir>`): for each document, what
 * the index needs (title, format, keywords and indexed text) keyed by its path, size and
 * modification time, so a restart reads only the files that changed.
 *
 * One file per served folder, `<dir>/mcp-search-<hash of the root>.snapshot`, in lines:
 * a header `{"magic","version","fingerprint"}`, one line per document
 * `<JSON path>\t<size>\t<mtime>\t<JSON record>`, and a trailer with the record count and the
 * SHA-256 of every line before it. A snapshot whose magic, version or fingerprint (root, ranking,
 * base URL, size cap, vocabulary) differ, or whose trailer does not match, is ignored with one
 * line on stderr, never trusted and never a crash. Only the document lines' offsets stay in
 * memory; a record is read from disk when its file is found unchanged.
 *
 * Writing never holds the texts in memory either: records read during a refresh are appended to
 * a temporary file, then {@link SnapshotCache.save} writes a new snapshot (the old file's records
 * still current, then the new ones) to a second temporary file and renames it over the old one.
 */
import { createHash } from "node:crypto";
import { closeSync, mkdirSync, openSync, readSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";

/** What the snapshot keeps of one document. */
export interface SnapshotRecord {
  readonly size: number;
  readonly modified: number;
  readonly title: string;
  readonly format: string;
  readonly keywords: readonly string[];
  readonly text: string;
}

/** The snapshot of one folder; see the module comment. */
export interface SnapshotCache {
  /** The stored record of `relative` when its size and modification time still match. */
  lookup(relative: string, size: number, modified: number): SnapshotRecord | undefined;
  /** Keeps a freshly read document for the next save. */
  record(relative: string, record: SnapshotRecord): void;
  /** Drops a document that is gone or no longer indexed. */
  forget(relative: string): void;
  /** Writes the snapshot atomically when anything changed since the last save. */
  save(): void;
}

const MAGIC = "mcp-search-snapshot";
/** Bumped whenever the record format or what the index reads from it changes. */
const VERSION = 2;
const CHUNK = 1 << 22;

/** Where a record sits in a file. */
interface Place {
  readonly file: "old" | "fresh";
  readonly offset: number;
  readonly length: number;
  readonly size: number;
  readonly modified: number;
}

function readBytes(path: string, offset: number, length: number): Buffer {
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.allocUnsafe(length);
    let read = 0;
    while (read < length) {
      const n = readSync(fd, buffer, read, length - read, offset + read);
      if (n === 0) throw new Error("the snapshot file is shorter than its index");
      read += n;
    }
    return buffer;
  } finally {
    closeSync(fd);
  }
}

/** Calls `line(text, offset, length)` for every line of a file, reading it in chunks. */
function forEachLine(path: string, line: (text: Buffer, offset: number) => void): void {
  const fd = openSync(path, "r");
  try {
    let carry = Buffer.alloc(0);
    let base = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK);
      const n = readSync(fd, chunk, 0, CHUNK, null);
      if (n === 0) break;
      let data = carry.length === 0 ? chunk.subarray(0, n) : Buffer.concat([carry, chunk.subarray(0, n)]);
      let start = 0;
      for (let end = data.indexOf(10); end !== -1; end = data.indexOf(10, start)) {
        line(data.subarray(start, end), base + start);
        start = end + 1;
      }
      base += start;
      carry = Buffer.from(data.subarray(start));
      data = Buffer.alloc(0);
    }
    if (carry.length > 0) line(carry, base);
  } finally {
    closeSync(fd);
  }
}

/** Reads the places of a snapshot's records, or throws saying why it cannot be trusted. */
function readPlaces(path: string, fingerprint: string): Map<string, Place> {
  const places = new Map<string, Place>();
  const hash = createHash("sha256");
  let header = false;
  let trailer: { records?: unknown; sha256?: unknown } | undefined;
  forEachLine(path, (bytes, offset) => {
    if (trailer !== undefined) throw new Error("it has data after its trailer");
    if (!header) {
      const head = JSON.parse(bytes.toString("utf8")) as { magic?: unknown; version?: unknown; fingerprint?: unknown };
      if (head.magic !== MAGIC) throw new Error("it is not an mcp-search snapshot");
      if (head.version !== VERSION) throw new Error(`it has version ${JSON.stringify(head.version)}, not ${VERSION}`);
      if (head.fingerprint !== fingerprint) throw new Error("it was made for another folder or other options");
      header = true;
      hash.update(bytes).update("\n");
      return;
    }
    const text = bytes.toString("utf8");
    if (text.startsWith("{")) {
      trailer = JSON.parse(text) as typeof trailer;
      return;
    }
    hash.update(bytes).update("\n");
    const [path, size, modified] = text.split("\t", 3);
    const relative = JSON.parse(path ?? "") as unknown;
    if (typeof relative !== "string" || !Number.isFinite(Number(size)) || !Number.isFinite(Number(modified))) {
      throw new Error("a record line is malformed");
    }
    places.set(relative, { file: "old", offset, length: bytes.length, size: Number(size), modified: Number(modified) });
  });
  if (!header) throw new Error("it is empty");
  if (trailer === undefined || trailer.records !== places.size || trailer.sha256 !== hash.digest("hex")) {
    throw new Error("its trailer does not match its content");
  }
  return places;
}

function parseRecord(line: string): SnapshotRecord {
  const fields = line.split("\t");
  const record = JSON.parse(fields.slice(3).join("\t")) as [string, string, string[], string];
  const [title, format, keywords, text] = record;
  if (typeof title !== "string" || typeof format !== "string" || !Array.isArray(keywords) || typeof text !== "string") {
    throw new Error("a record is malformed");
  }
  return { size: Number(fields[1]), modified: Number(fields[2]), title, format, keywords, text };
}

/**
 * Opens the snapshot of `root` in `dir` (created when missing). `options` are what the index
 * depends on besides the files; a snapshot made with others is ignored.
 *
 * @example
 * const cache = openSnapshotCache("/tmp/cache", "/srv/docs", { ranking: "bm25" }, console.error);
 */
export function openSnapshotCache(dir: string, root: string, options: Readonly<Record<string, unknown>>, log: (line: string) => void): SnapshotCache {
  mkdirSync(dir, { recursive: true });
  const name = `mcp-search-${createHash("sha256").update(root).digest("hex").slice(0, 16)}.snapshot`;
  const path = join(dir, name);
  const freshPath = `${path}.${process.pid}.fresh`;
  const fingerprint = JSON.stringify({ root, ...options });
  let places = new Map<string, Place>();
  try {
    statSync(path);
    try {
      places = readPlaces(path, fingerprint);
      log(`snapshot: ${places.size} documents in ${path}`);
    } catch (error) {
      log(`snapshot ignored: ${path}: ${error instanceof Error ? error.message : String(error)}; indexing every file`);
      places = new Map();
    }
  } catch {
    // No snapshot yet.
  }
  let freshFd: number | undefined;
  let freshLength = 0;
  let dirty = false;

  const lineOf = (place: Place) => readBytes(place.file === "old" ? path : freshPath, place.offset, place.length).toString("utf8");

  return {
    lookup(relative, size, modified) {
      const place = places.get(relative);
      if (place === undefined || place.size !== size || place.modified !== modified) return undefined;
      try {
        return parseRecord(lineOf(place));
      } catch (error) {
        log(`snapshot ignored for ${relative}: ${error instanceof Error ? error.message : String(error)}`);
        places.delete(relative);
        return undefined;
      }
    },
    record(relative, record) {
      const line = Buffer.from(`${JSON.stringify(relative)}\t${record.size}\t${record.modified}\t${JSON.stringify([record.title, record.format, record.keywords, record.text])}`);
      freshFd ??= openSync(freshPath, "w");
      writeSync(freshFd, line);
      writeSync(freshFd, "\n");
      places.set(relative, { file: "fresh", offset: freshLength, length: line.length, size: record.size, modified: record.modified });
      freshLength += line.length + 1;
      dirty = true;
    },
    forget(relative) {
      dirty = places.delete(relative) || dirty;
    },
    save() {
      if (!dirty) return;
      const temporary = `${path}.${process.pid}.tmp`;
      const hash = createHash("sha256");
      const next = new Map<string, Place>();
      const fd = openSync(temporary, "w");
      try {
        let offset = 0;
        const write = (bytes: Buffer) => {
          writeSync(fd, bytes);
          writeSync(fd, "\n");
          hash.update(bytes).update("\n");
          offset += bytes.length + 1;
        };
        write(Buffer.from(JSON.stringify({ magic: MAGIC, version: VERSION, fingerprint })));
        for (const [relative, place] of places) {
          const bytes = readBytes(place.file === "old" ? path : freshPath, place.offset, place.length);
          next.set(relative, { file: "old", offset, length: place.length, size: place.size, modified: place.modified });
          write(bytes);
        }
        const trailer = JSON.stringify({ records: next.size, sha256: hash.digest("hex") });
        writeSync(fd, `${trailer}\n`);
      } catch (error) {
        closeSync(fd);
        rmSync(temporary, { force: true });
        log(`snapshot not written: ${error instanceof Error ? error.message : String(error)}`);
        return;
      }
      closeSync(fd);
      renameSync(temporary, path);
      places = next;
      if (freshFd !== undefined) closeSync(freshFd);
      freshFd = undefined;
      freshLength = 0;
      rmSync(freshPath, { force: true });
      dirty = false;
      log(`snapshot written: ${next.size} documents`);
    },
  };
}
