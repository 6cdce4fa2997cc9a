/**
 * Private helper of `index.snapshot()` and `loadIndex` (./create-index.ts): the index as bytes,
 * so that a process can save it and a later one load it without tokenising anything again.
 *
 * Layout (./bytes.ts writes every value little-endian, whatever the machine):
 *
 * ```text
 * "MCPSIDX\0"        8 bytes, the magic
 * version            u32, SNAPSHOT_VERSION
 * ranking, settings  a string list: the ranking's name and what its scores depend on
 * entries            ids, titles, urls, places in the tie order, the next place
 * ranking's part     per view: slot count, terms, run offsets, posting bytes (./postings.ts),
 *                    and for BM25 the field lengths and each entry's passages
 * checksum           u32, FNV-1a over the 32-bit words of everything before it
 * ```
 *
 * Loading trusts nothing: the magic, the version, the settings (a snapshot made by a library
 * whose ranking counts differently is refused rather than ranked wrongly), the checksum, then
 * every structure as it is read (see `Collection.load`, `SegmentedPostings.load`). Whatever is
 * wrong comes out as one `McpSearchError` naming it.
 */
import { describeReceived } from "../contract/received.js";
import { McpSearchError } from "../errors.js";
import { ByteReader, ByteWriter } from "./bytes.js";
import type { Collection } from "./entries.js";

/** Bumped whenever the layout, the tokenisers or what a view keeps changes. */
const SNAPSHOT_VERSION = 2;
const MAGIC = [0x4d, 0x43, 0x50, 0x53, 0x49, 0x44, 0x58, 0x00];
const HEADER_BYTES = MAGIC.length + 4;

/** FNV-1a over the little-endian 32-bit words of `bytes[0…length)`, the last one padded with zeros; tests use it to forge snapshots. @internal */
export function checksum(bytes: Uint8Array, length: number): number {
  let hash = 0x811c9dc5;
  const whole = length - (length % 4);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 0; at < whole; at += 4) hash = Math.imul(hash ^ view.getUint32(at, true), 0x01000193);
  if (whole < length) {
    let last = 0;
    for (let at = length - 1; at >= whole; at--) last = last * 256 + bytes[at]!;
    hash = Math.imul(hash ^ last, 0x01000193);
  }
  return hash >>> 0;
}

/** The snapshot of a collection whose ranking is `ranking`, scored with `settings`. */
export function writeSnapshot(collection: Collection, ranking: string, settings: string): Uint8Array {
  const writer = new ByteWriter();
  for (const byte of MAGIC) writer.u8(byte);
  writer.u32(SNAPSHOT_VERSION);
  writer.strings([ranking, settings]);
  try {
    collection.save(writer);
  } catch (error) {
    if (error instanceof McpSearchError) throw error;
    // The postings are checked before they are written (SegmentedPostings.save): a corrupt index is never saved.
    throw new McpSearchError(`The index cannot be saved: ${error instanceof Error ? error.message : String(error)}; build it again from its entries.`);
  }
  writer.u32(checksum(writer.result(), writer.length));
  return writer.result().slice();
}

/**
 * Reads a snapshot into the empty collection `open(ranking, settings)` gives for its ranking (`undefined`
 * for a ranking this library does not know), after checking it (see the module comment), its
 * settings against that collection's. Throws `McpSearchError` saying what is wrong.
 */
export function readSnapshot(bytes: unknown, open: (ranking: string, settings: string) => Collection | undefined): { collection: Collection; ranking: string } {
  if (!(bytes instanceof Uint8Array)) {
    throw new McpSearchError(`loadIndex needs the Uint8Array that index.snapshot() returned, not ${describeReceived(bytes)}.`);
  }
  if (bytes.length < HEADER_BYTES + 4 || MAGIC.some((byte, i) => bytes[i] !== byte)) {
    throw new McpSearchError("These bytes are not an index snapshot of @sbissoli/mcp-search (no MCPSIDX header).");
  }
  const reader = new ByteReader(bytes, MAGIC.length, bytes.length - 4);
  const version = reader.u32();
  if (version !== SNAPSHOT_VERSION) {
    throw new McpSearchError(`The index snapshot has format version ${version}; this version of @sbissoli/mcp-search reads version ${SNAPSHOT_VERSION}: build the index again.`);
  }
  if (checksum(bytes, bytes.length - 4) !== new DataView(bytes.buffer, bytes.byteOffset + bytes.length - 4, 4).getUint32(0, true)) {
    throw new McpSearchError("The index snapshot is corrupt: its checksum does not match its content.");
  }
  try {
    const [ranking = "", settings] = reader.strings();
    const collection = open(ranking, settings ?? "");
    if (collection === undefined) throw new McpSearchError(`The index snapshot has an unknown ranking ${JSON.stringify(ranking)}.`);
    if (settings !== collection.settings()) {
      throw new McpSearchError(`The index snapshot was ranked with other "${ranking}" settings (made by another version of @sbissoli/mcp-search?): build the index again.`);
    }
    collection.load(reader);
    if (!reader.done) throw new Error("it has bytes after its last part");
    return { collection, ranking };
  } catch (error) {
    if (error instanceof McpSearchError) throw error;
    throw new McpSearchError(`The index snapshot is corrupt: ${error instanceof Error ? error.message : String(error)}.`);
  }
}
