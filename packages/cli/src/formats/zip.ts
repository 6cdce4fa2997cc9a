/**
 * Reads the entries of a zip (DOCX, ODT, EPUB) from its central directory, inflating only the
 * entries asked for, within a cap on the bytes they expand to. The cap counts the bytes really
 * inflated, chunk by chunk, not the sizes the archive declares: a zip bomb that lies about them
 * stops as soon as it passes the cap, having used no more memory than the cap. The central
 * directory is walked once and the entries left out are never touched, so an archive of 200,000
 * empty entries costs one pass over its directory, not one pass per entry.
 */
import { Inflate } from "fflate";
import { FormatError } from "./types.js";

/** One entry of the central directory: where its data is, and how it is stored. */
interface ZipEntry {
  readonly name: string;
  readonly method: number;
  readonly compressedSize: number;
  readonly originalSize: number;
  readonly headerOffset: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END = 0x06064b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** The largest comment after the end-of-directory record, hence how far from the end it may start. */
const MAX_TAIL = 22 + 0xffff;
/** Compressed bytes handed to the inflater at a time: a bomb stops after one slice's worth of output. */
const SLICE = 65_536;

const names = new TextDecoder("utf-8");

/** Where the central directory starts, from the end-of-directory record (its zip64 form too). */
function directoryOffset(bytes: Uint8Array, view: DataView): number {
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - MAX_TAIL); at -= 1) {
    if (view.getUint32(at, true) !== END_OF_DIRECTORY) continue;
    const offset = view.getUint32(at + 16, true);
    if (offset !== 0xffffffff || at < 20 || view.getUint32(at - 20, true) !== ZIP64_LOCATOR) return offset;
    const record = Number(view.getBigUint64(at - 12, true));
    if (record + 56 > bytes.length || view.getUint32(record, true) !== ZIP64_END) return offset;
    return Number(view.getBigUint64(record + 48, true));
  }
  throw new FormatError("corrupt", "not a zip archive (no central directory)");
}

/** Every entry of the central directory, in order; the zip64 sizes and offset read where given. */
function* directoryEntries(bytes: Uint8Array): Generator<ZipEntry> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = directoryOffset(bytes, view);
  while (at + 46 <= bytes.length && view.getUint32(at, true) === DIRECTORY_ENTRY) {
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const next = at + 46 + nameLength + extraLength + view.getUint16(at + 32, true);
    if (next > bytes.length) throw new FormatError("corrupt", "its central directory is cut short");
    let originalSize = view.getUint32(at + 24, true);
    let compressedSize = view.getUint32(at + 20, true);
    let headerOffset = view.getUint32(at + 42, true);
    // The zip64 extra field holds, in this order, each of the three that is 0xffffffff above.
    for (let extra = at + 46 + nameLength; extra + 4 <= at + 46 + nameLength + extraLength; ) {
      const id = view.getUint16(extra, true);
      const size = view.getUint16(extra + 2, true);
      if (id === 1) {
        let field = extra + 4;
        const wide = () => {
          const value = field + 8 <= extra + 4 + size ? Number(view.getBigUint64(field, true)) : Number.NaN;
          field += 8;
          return value;
        };
        if (originalSize === 0xffffffff) originalSize = wide();
        if (compressedSize === 0xffffffff) compressedSize = wide();
        if (headerOffset === 0xffffffff) headerOffset = wide();
      }
      extra += 4 + size;
    }
    const name = names.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    yield { name, method: view.getUint16(at + 10, true), compressedSize, originalSize, headerOffset };
    at = next;
  }
}

/** The compressed bytes of an entry, found through its local header. */
function entryData(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.headerOffset;
  if (!Number.isSafeInteger(at) || at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL_HEADER) {
    throw new FormatError("corrupt", `${entry.name}: no local header where the directory says`);
  }
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const end = start + entry.compressedSize;
  if (!Number.isSafeInteger(end) || end > bytes.length) throw new FormatError("corrupt", `${entry.name}: its data runs past the end of the file`);
  return bytes.subarray(start, end);
}

/**
 * Inflates the entries of a zip whose names pass `keep`, all of them together within
 * `maxBytes`: `FormatError("zip-bomb")` past it, `FormatError("corrupt")` when the archive is
 * damaged or holds none of them. A name listed twice is read once (the first).
 *
 * @example
 * const files = unzipWithin(bytes, 64 * 1024 * 1024, (name) => name.endsWith(".xml"));
 * new TextDecoder().decode(files.get("content.xml")); // => "<?xml …"
 */
export function unzipWithin(bytes: Uint8Array, maxBytes: number, keep: (name: string) => boolean): Map<string, Uint8Array> {
  const wanted = new Map<string, ZipEntry>();
  let declared = 0;
  for (const entry of directoryEntries(bytes)) {
    if (wanted.has(entry.name) || !keep(entry.name)) continue;
    // A size the archive declares past the cap is refused before any inflating; a size it hides
    // or understates is caught by the count below.
    declared += Number.isFinite(entry.originalSize) ? entry.originalSize : 0;
    if (declared > maxBytes) throw new FormatError("zip-bomb", `it declares more than ${maxBytes} bytes`);
    wanted.set(entry.name, entry);
  }
  if (wanted.size === 0) throw new FormatError("corrupt", "not a zip archive of this format");
  const out = new Map<string, Uint8Array>();
  let total = 0;
  for (const [name, entry] of wanted) {
    const data = entryData(bytes, entry);
    if (entry.method === 0) {
      total += data.length;
      if (total > maxBytes) throw new FormatError("zip-bomb", `more than ${maxBytes} bytes`);
      out.set(name, data);
      continue;
    }
    if (entry.method !== 8) throw new FormatError("corrupt", `${name}: compression method ${entry.method} is not supported`);
    const parts: Uint8Array[] = [];
    const inflater = new Inflate((chunk) => {
      total += chunk.length;
      if (total > maxBytes) throw new FormatError("zip-bomb", `more than ${maxBytes} bytes`);
      parts.push(chunk);
    });
    try {
      // Fed in slices, so a bomb is stopped after one slice's worth of output, not the whole entry's.
      for (let at = 0; at < data.length || at === 0; at += SLICE) inflater.push(data.subarray(at, Math.min(data.length, at + SLICE)), at + SLICE >= data.length);
    } catch (error) {
      if (error instanceof FormatError) throw error;
      throw new FormatError("corrupt", `${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
    out.set(name, concat(parts));
  }
  return out;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const size = parts.reduce((sum, part) => sum + part.length, 0);
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const utf8 = new TextDecoder("utf-8");

/**
 * An entry of {@link unzipWithin}'s result as text, or `FormatError("corrupt")` when it is absent.
 *
 * @example
 * entryText(files, "content.xml"); // => "<?xml …"
 */
export function entryText(files: ReadonlyMap<string, Uint8Array>, name: string): string {
  const entry = files.get(name);
  if (entry === undefined) throw new FormatError("corrupt", `no ${name} inside`);
  return utf8.decode(entry);
}
