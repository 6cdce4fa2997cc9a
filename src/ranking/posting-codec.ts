/**
 * The byte format of a posting, shared by both segments of ./postings.ts and by snapshots.
 *
 * A posting holds `width` 16-bit values (the rule's field mask, width 1; BM25's per-field counts,
 * width 4) and is stored as a varint header `gap × 16 + code`, where `gap` is its slot minus the
 * previous posting's slot in the run (the first counts from -1), then:
 * - `code` 0–14: every value is 0 but the last, which is `code + 1` (BM25: a word seen 1 to 15
 *   times in the text only, nine postings in ten; the rule: any field mask);
 * - `code` 15: a byte whose bit f says value f is not 0, then those values as varints.
 * Varints are little-endian base 128. A posting takes 1 to 3 bytes where it took 6 to 12.
 *
 * This module writes and checks postings, and reads them one at a time for compaction
 * ({@link PostingReader}). The scoring loops decode the same format inline, for speed: `addRun`
 * and `holdsRun` in ./bm25/view.ts and the rule's run reader in ./rule/core.ts. A change to the
 * format here must change them too; the differential and oracle tests compare them with a fresh
 * build.
 */

/** The most bytes one posting takes: a header of up to 8 bytes, a mask, 4 values of 3 bytes. */
export const MAX_POSTING_BYTES = 21;
/** The header code that says the values follow (see the module comment). */
const EXPLICIT = 15;

/** Writes `value` (a non-negative integer below 2^53) as a varint at `at`; returns the next byte. */
function writeVarint(bytes: Uint8Array, at: number, value: number): number {
  while (value >= 128) {
    bytes[at++] = (value % 128) | 128;
    value = Math.floor(value / 128);
  }
  bytes[at++] = value;
  return at;
}

/**
 * Encodes one posting (`gap` from the previous slot of its run, `values[from…from + width)`) at
 * `at`, which must have {@link MAX_POSTING_BYTES} free; returns the next byte.
 */
export function writePosting(bytes: Uint8Array, at: number, gap: number, values: Uint16Array, from: number, width: number): number {
  const last = values[from + width - 1] as number;
  let simple = last >= 1 && last <= EXPLICIT;
  for (let f = 0; simple && f < width - 1; f++) simple = values[from + f] === 0;
  if (simple) return writeVarint(bytes, at, gap * 16 + last - 1);
  at = writeVarint(bytes, at, gap * 16 + EXPLICIT);
  let mask = 0;
  for (let f = 0; f < width; f++) if (values[from + f] !== 0) mask |= 1 << f;
  bytes[at++] = mask;
  for (let f = 0; f < width; f++) if (values[from + f] !== 0) at = writeVarint(bytes, at, values[from + f] as number);
  return at;
}

/**
 * Checks that `bytes[from…to)` is a run of well-formed postings of `width` values, with slots
 * increasing and below `postingsOf.length`, and counts each slot's postings into `postingsOf`;
 * returns how many postings. Throws an `Error` saying what is wrong. Decodes inline, as the
 * scoring loops do: a snapshot's load is mostly this loop.
 */
export function checkRun(bytes: Uint8Array, from: number, to: number, width: number, postingsOf: Int32Array, sums: Float64Array | undefined): number {
  const slots = postingsOf.length;
  let slot = -1;
  let count = 0;
  let at = from;
  while (at < to) {
    let byte = bytes[at++]!;
    let header = byte & 127;
    for (let scale = 128; byte >= 128; scale *= 128) {
      if (at >= to || scale > 2 ** 42) throw new Error("a posting is cut short");
      byte = bytes[at++]!;
      header += (byte & 127) * scale;
    }
    const code = header % 16;
    const gap = (header - code) / 16;
    if (gap < 1) throw new Error("a posting repeats or goes back in its run");
    slot += gap;
    if (slot >= slots) throw new Error("a posting names a slot past the end");
    if (code !== EXPLICIT) {
      if (sums !== undefined) sums[slot * width + width - 1]! += code + 1;
    } else {
      if (at >= to) throw new Error("a posting is cut short");
      const mask = bytes[at++]!;
      if (mask === 0 || mask >= 1 << width) throw new Error("a posting has a malformed field mask");
      for (let f = 0; f < width; f++) {
        if (((mask >> f) & 1) === 0) continue;
        let value = 0;
        let scale = 1;
        do {
          if (at >= to || scale > 2 ** 21) throw new Error("a posting is cut short");
          byte = bytes[at++]!;
          value += (byte & 127) * scale;
          scale *= 128;
        } while (byte >= 128);
        if (value < 1 || value > 65535) throw new Error("a posting holds a value out of range");
        // A saturated value no longer tells how many tokens it counted.
        if (sums !== undefined) sums[slot * width + f]! += value === 65535 ? Infinity : value;
      }
    }
    postingsOf[slot]! += 1;
    count++;
  }
  return count;
}

/**
 * Reads the postings in `bytes[from…to)` one at a time: after {@link PostingReader.next} returns
 * true, `slot` and `values` hold the posting. Used by compaction; the scoring loops and the
 * snapshot check decode inline, the same way.
 */
export class PostingReader {
  slot = -1;
  readonly values: Uint16Array;
  private at = 0;
  private to = 0;
  private bytes: Uint8Array = new Uint8Array(0);

  constructor(readonly width: number) {
    this.values = new Uint16Array(width);
  }

  /** Starts reading a run, or a block of one whose previous posting was in `slot`. */
  reset(bytes: Uint8Array, from: number, to: number, slot = -1): this {
    this.bytes = bytes;
    this.at = from;
    this.to = to;
    this.slot = slot;
    return this;
  }

  /** Reads the next posting; false at the end of the run. Throws on bytes that are not postings. */
  next(): boolean {
    const { bytes, width, values } = this;
    if (this.at >= this.to) return false;
    const header = this.varint();
    const code = header % 16;
    const gap = (header - code) / 16;
    if (gap < 1) throw new Error("a posting repeats or goes back in its run");
    this.slot += gap;
    values.fill(0);
    if (code !== EXPLICIT) values[width - 1] = code + 1;
    else {
      if (this.at >= this.to) throw new Error("a posting is cut short");
      const mask = bytes[this.at++] as number;
      if (mask === 0 || mask >= 1 << width) throw new Error("a posting has a malformed field mask");
      for (let f = 0; f < width; f++) {
        if ((mask >> f) & 1) {
          const value = this.varint();
          if (value < 1 || value > 65535) throw new Error("a posting holds a value out of range");
          values[f] = value;
        }
      }
    }
    return true;
  }

  private varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (this.at >= this.to || scale > 2 ** 49) throw new Error("a posting is cut short");
      const byte = this.bytes[this.at++] as number;
      value += (byte & 127) * scale;
      if (byte < 128) return value;
      scale *= 128;
    }
  }
}
