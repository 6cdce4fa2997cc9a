/**
 * Private helper of both rankings: postings that can change one entry at a time, in two segments,
 * as a log-structured index keeps them, each posting packed in a few bytes.
 *
 * - The base segment is compressed sparse rows over a term dictionary sorted by code unit: one
 *   term is a binary search, a prefix is a range, a term's postings are one contiguous run of
 *   bytes.
 * - The delta segment takes every entry added since the last compaction: per term, a chain of
 *   blocks of bytes, all cut from one shared pool (so a term costs a few integers, not an array
 *   object of its own; blocks double from 8 to 4096 bytes), with its own small sorted dictionary,
 *   kept up to date lazily (new terms are sorted and merged in on the next search). The postings
 *   of the slot being filled wait in a scratch table until the slot is done (the next `open`,
 *   search or compaction).
 * - Removing an entry only clears its slot's `alive` flag; searches skip dead postings.
 *
 * A posting holds `width` 16-bit values (the rule's field mask, width 1; BM25's per-field counts,
 * width 4) and is stored as a varint header `gap × 16 + code`, where `gap` is its slot minus the
 * previous posting's slot in the run (the first counts from -1), then:
 * - `code` 0–14: every value is 0 but the last, which is `code + 1` (BM25: a word seen 1 to 15
 *   times in the text only, nine postings in ten; the rule: any field mask);
 * - `code` 15: a byte whose bit f says value f is not 0, then those values as varints.
 * Varints are little-endian base 128. A posting takes 1 to 3 bytes where it took 6 to 12.
 *
 * {@link SegmentedPostings.compact} merges the delta into the base and drops the dead postings,
 * renumbering slots in their old order. It runs when the delta and the dead postings together
 * reach the size of the base (or 64k postings), so each posting is rewritten a bounded number of
 * times: an update costs its own tokens, amortised.
 */
import type { ByteReader, ByteWriter } from "./bytes.js";

/** The first index of `sorted` whose term is not below `term` (code-unit order). */
export function lowerBound(sorted: readonly string[], term: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as string) < term) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Compaction starts once the delta and the dead postings reach this many, whatever the base. */
let minCompaction = 1 << 16;

/**
 * Sets the compaction floor and returns the previous one: tests lower it so that a few updates
 * exercise compaction. @internal
 */
export function setMinCompaction(postings: number): number {
  const previous = minCompaction;
  minCompaction = postings;
  return previous;
}

/** The most bytes one posting takes: a header of up to 8 bytes, a mask, 4 values of 3 bytes. */
const MAX_POSTING_BYTES = 21;
/** A term's first delta block, and the most any later one grows to (bytes). */
const FIRST_BLOCK = 8;
const LARGEST_BLOCK = 4096;
/** The header code that says the values follow (see the module comment). */
const EXPLICIT = 15;

/** Grows a typed array to hold `needed` values, doubling, at least `least`; the rankings' per-slot arrays use it too. */
export function grown<T extends Float64Array | Int32Array | Uint32Array | Uint16Array | Uint8Array>(array: T, needed: number, least = 16): T {
  if (needed <= array.length) return array;
  const next = new (array.constructor as new (length: number) => T)(Math.max(needed, array.length * 2, least));
  next.set(array);
  return next;
}

/**
 * Grows one of the delta segment's arrays (its pool of bytes, its tables) to hold `needed`
 * values, doubling, at least `least`. From 64 KiB on, in a resizable ArrayBuffer: V8 maps the
 * pages of such a buffer itself rather than asking malloc for them, so what a compaction frees
 * goes back to the system at once, where from malloc it would stay in glibc's heap (the folder
 * server holds 145–162 MB after indexing its 20k-file bench folder, against 174–176 MB). Smaller
 * arrays come from malloc: each resizable buffer is a system call (about 9 µs against 1 µs), and
 * glibc's keeping a small block is harmless. Only the delta, which lives until the next
 * compaction, is allocated this way: a typed array over a resizable buffer reads about a third
 * slower.
 */
function grownDelta<T extends Int32Array | Uint8Array>(array: T, needed: number, least: number): T {
  if (needed <= array.length) return array;
  const Kind = array.constructor as (new (buffer: ArrayBuffer) => T) & { readonly BYTES_PER_ELEMENT: number };
  const bytes = Math.max(needed, array.length * 2, least) * Kind.BYTES_PER_ELEMENT;
  const next = new Kind(bytes < MAPPED_DELTA_BYTES ? new ArrayBuffer(bytes) : new ResizableArrayBuffer(bytes, { maxByteLength: bytes }));
  next.set(array);
  return next;
}

/** The size from which a delta array is a resizable buffer, whose pages V8 maps (see grownDelta). */
const MAPPED_DELTA_BYTES = 1 << 16;

/** The ArrayBuffer constructor with its ES2024 options, which the ES2022 typings do not declare. */
const ResizableArrayBuffer = ArrayBuffer as unknown as new (length: number, options: { maxByteLength: number }) => ArrayBuffer;

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
function writePosting(bytes: Uint8Array, at: number, gap: number, values: Uint16Array, from: number, width: number): number {
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
function checkRun(bytes: Uint8Array, from: number, to: number, width: number, postingsOf: Int32Array, sums: Float64Array | undefined): number {
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

/** Where one query token's matches sit in both segments (see {@link SegmentedPostings.range}). */
export interface TermRange {
  baseFrom: number;
  baseTo: number;
  deltaFrom: number;
  deltaTo: number;
}

/** Postings of entries kept in numbered slots; see the module comment. */
export class SegmentedPostings {
  // Base segment: CSR. Postings of baseTerms[t] are the bytes [baseStart[t], baseStart[t + 1]).
  baseTerms: string[] = [];
  baseStart: Int32Array = new Int32Array(1);
  baseBytes: Uint8Array = new Uint8Array(0);
  /** How many postings the base holds, dead ones included. */
  basePostings = 0;
  // Delta segment: per term (by delta id) a chain of blocks, from deltaHead[id] along blockNext
  // (-1 ends it). Block b holds the postings in deltaPool[blockFrom[b], blockEnd[b]), the first one's
  // gap counted from blockSlot[b], the slot of the term's posting before the block (-1 for none).
  deltaTerms: string[] = [];
  deltaHead: Int32Array = new Int32Array(0);
  deltaPool: Uint8Array = new Uint8Array(0);
  blockFrom: Int32Array = new Int32Array(0);
  blockEnd: Int32Array = new Int32Array(0);
  blockNext: Int32Array = new Int32Array(0);
  blockSlot: Int32Array = new Int32Array(0);
  /** Delta term ids in term order; `pending` holds those not merged in yet. */
  deltaSorted: number[] = [];
  deltaSortedTerms: string[] = [];
  /** How many postings the delta holds, the slot being filled included. */
  deltaLength = 0;
  /** 1 for a slot that holds an entry, 0 for a free or removed one. */
  alive: Uint8Array = new Uint8Array(0);
  /** How many slots were handed out since the last compaction renumbered them. */
  slots = 0;

  private readonly deltaIds = new Map<string, number>();
  /** Per delta term: its last block, and the last slot written to its run (-1 before any). */
  private deltaTail: Int32Array = new Int32Array(0);
  private deltaLast: Int32Array = new Int32Array(0);
  /** Per block: where its room ends in the pool. */
  private blockLimit: Int32Array = new Int32Array(0);
  private blocks = 0;
  /** Bytes of the pool handed out to blocks, and of postings written in them. */
  private poolUsed = 0;
  private deltaUsed = 0;
  /** One posting, encoded before it is copied to its block. */
  private readonly encoded = new Uint8Array(MAX_POSTING_BYTES);
  private pending: number[] = [];
  private postingsOf: Int32Array = new Int32Array(0);
  private dead = 0;
  /** Slots removed since the last compaction (an entry with no token has no postings to count). */
  private removed = 0;
  // The slot being filled: its terms (delta ids) in first-seen order, their values, and per
  // delta id its row in them plus one (0 for none).
  private filling = -1;
  private fillTerms: number[] = [];
  private fillValues: Uint16Array = new Uint16Array(0);
  private fillRow: Int32Array = new Int32Array(0);

  constructor(readonly width: number) {}

  /** A new slot, alive, after every slot handed out so far. */
  open(): number {
    this.flush();
    const slot = this.slots++;
    this.alive = grown(this.alive, this.slots);
    this.postingsOf = grown(this.postingsOf, this.slots);
    this.alive[slot] = 1;
    this.postingsOf[slot] = 0;
    this.filling = slot;
    return slot;
  }

  /** Adds `amount` to value `field` of the posting (term, slot); values saturate at 65535. */
  add(term: string, slot: number, field: number, amount: number): void {
    const at = this.posting(term, slot) * this.width + field;
    const value = (this.fillValues[at] as number) + amount;
    this.fillValues[at] = value > 65535 ? 65535 : value;
  }

  /** Ors `bits` into the first value of the posting (term, slot): the rule's field mask. */
  mark(term: string, slot: number, bits: number): void {
    const at = this.posting(term, slot) * this.width;
    this.fillValues[at] = (this.fillValues[at] as number) | bits;
  }

  /** The row of the posting (term, slot) in the scratch table, created when new. */
  private posting(term: string, slot: number): number {
    if (slot !== this.filling) throw new Error(`postings: slot ${slot} is not the one being filled`);
    let id = this.deltaIds.get(term);
    if (id === undefined) {
      id = this.deltaTerms.length;
      this.deltaIds.set(term, id);
      this.deltaTerms.push(term);
      this.deltaHead = grownDelta(this.deltaHead, id + 1, 1024);
      this.deltaTail = grownDelta(this.deltaTail, id + 1, 1024);
      this.deltaLast = grownDelta(this.deltaLast, id + 1, 1024);
      this.deltaHead[id] = this.deltaTail[id] = this.deltaLast[id] = -1;
      this.pending.push(id);
      this.fillRow = grown(this.fillRow, id + 1);
    }
    const row = this.fillRow[id] as number;
    if (row > 0) return row - 1;
    const fresh = this.fillTerms.length;
    this.fillTerms.push(id);
    this.fillRow[id] = fresh + 1;
    this.fillValues = grown(this.fillValues, (fresh + 1) * this.width);
    this.deltaLength += 1;
    this.postingsOf[slot]! += 1;
    return fresh;
  }

  /** Writes the postings of the slot being filled to their terms' runs. */
  private flush(): void {
    const { fillTerms, fillValues, width, encoded } = this;
    const slot = this.filling;
    for (let row = 0; row < fillTerms.length; row++) {
      const id = fillTerms[row] as number;
      const length = writePosting(encoded, 0, slot - this.deltaLast[id]!, fillValues, row * width, width);
      let block = this.deltaTail[id]!;
      if (block < 0 || this.blockEnd[block]! + length > this.blockLimit[block]!) block = this.openBlock(id, block, length);
      const at = this.blockEnd[block]!;
      for (let i = 0; i < length; i++) this.deltaPool[at + i] = encoded[i]!;
      this.blockEnd[block] = at + length;
      this.deltaUsed += length;
      this.deltaLast[id] = slot;
      this.fillRow[id] = 0;
    }
    fillValues.fill(0, 0, fillTerms.length * width);
    fillTerms.length = 0;
    this.filling = -1;
  }

  /**
   * Chains a new block to term `id`'s run after `tail` (-1: its first), twice the tail's size up
   * to 4 KiB, and never smaller than the `length` bytes of the posting it is opened for: a
   * posting can take up to {@link MAX_POSTING_BYTES}, more than a first block of 8 (a large gap,
   * or several counts, as in a folder whose files repeat each other's words), and a block too
   * small for it would let it run on into the next block of the pool.
   */
  private openBlock(id: number, tail: number, length: number): number {
    const doubled = tail < 0 ? FIRST_BLOCK : Math.min(LARGEST_BLOCK, 2 * (this.blockLimit[tail]! - this.blockFrom[tail]!));
    const size = Math.max(doubled, length);
    const block = this.blocks++;
    this.blockFrom = grownDelta(this.blockFrom, this.blocks, 1024);
    this.blockEnd = grownDelta(this.blockEnd, this.blocks, 1024);
    this.blockLimit = grownDelta(this.blockLimit, this.blocks, 1024);
    this.blockNext = grownDelta(this.blockNext, this.blocks, 1024);
    this.blockSlot = grownDelta(this.blockSlot, this.blocks, 1024);
    this.deltaPool = grownDelta(this.deltaPool, this.poolUsed + size, 1 << 16);
    this.blockFrom[block] = this.blockEnd[block] = this.poolUsed;
    this.blockLimit[block] = this.poolUsed += size;
    this.blockNext[block] = -1;
    this.blockSlot[block] = this.deltaLast[id]!;
    if (tail < 0) this.deltaHead[id] = block;
    else this.blockNext[tail] = block;
    this.deltaTail[id] = block;
    return block;
  }

  /** Marks a slot dead: its postings stay until the next compaction, skipped by every search. */
  remove(slot: number): void {
    if (slot === this.filling) this.flush();
    this.alive[slot] = 0;
    this.dead += this.postingsOf[slot] as number;
    this.removed += 1;
  }

  /** True when the delta and the dead postings are worth a compaction. */
  wantsCompaction(): boolean {
    const changed = this.deltaLength + this.dead;
    return changed >= minCompaction && changed >= this.basePostings;
  }

  /** Writes the slot being filled and merges the pending delta terms into the delta's sorted dictionary; call before {@link range}. */
  prepare(): void {
    this.flush();
    if (this.pending.length === 0) return;
    const fresh = this.pending.sort((a, b) => compareCodeUnits(this.deltaTerms[a] as string, this.deltaTerms[b] as string));
    this.pending = [];
    const merged: number[] = [];
    const old = this.deltaSorted;
    let i = 0;
    let j = 0;
    while (i < old.length || j < fresh.length) {
      const takeOld = j >= fresh.length || (i < old.length && (this.deltaTerms[old[i]!] as string) < (this.deltaTerms[fresh[j]!] as string));
      merged.push(takeOld ? old[i++]! : fresh[j++]!);
    }
    this.deltaSorted = merged;
    this.deltaSortedTerms = merged.map((id) => this.deltaTerms[id] as string);
  }

  /**
   * The terms a query token matches, in both segments: the token itself, and when `prefixes` is
   * true every longer term that starts with it. Fills and returns `into`.
   */
  range(token: string, prefixes: boolean, into: TermRange): TermRange {
    into.baseFrom = lowerBound(this.baseTerms, token);
    into.deltaFrom = lowerBound(this.deltaSortedTerms, token);
    if (prefixes) {
      const end = `${token}\uffff`;
      into.baseTo = lowerBound(this.baseTerms, end);
      into.deltaTo = lowerBound(this.deltaSortedTerms, end);
    } else {
      into.baseTo = this.baseTerms[into.baseFrom] === token ? into.baseFrom + 1 : into.baseFrom;
      into.deltaTo = this.deltaSortedTerms[into.deltaFrom] === token ? into.deltaFrom + 1 : into.deltaFrom;
    }
    return into;
  }

  /**
   * Merges the delta into the base and drops dead postings. Returns, for each old slot, its new
   * number or -1 when it was dead; live slots keep their relative order.
   */
  compact(): Int32Array {
    const { width, alive } = this;
    const remap = new Int32Array(this.slots);
    let live = 0;
    for (let slot = 0; slot < this.slots; slot++) remap[slot] = alive[slot] === 1 ? live++ : -1;
    this.prepare();
    const capacity = this.baseBytes.length + this.deltaUsed;
    const terms: string[] = [];
    const start: number[] = [0];
    let bytes: Uint8Array = new Uint8Array(capacity + MAX_POSTING_BYTES);
    let length = 0;
    let postings = 0;
    const reader = new PostingReader(width);
    // Slots only grow from base to delta and within a run, and the remap keeps their order, so a
    // term's merged run is its base run then its delta run, each re-gapped.
    let previous = -1;
    const copy = (from: Uint8Array, begin: number, end: number, slot: number) => {
      reader.reset(from, begin, end, slot);
      while (reader.next()) {
        if (alive[reader.slot] === 0) continue;
        const slot = remap[reader.slot] as number;
        if (length + MAX_POSTING_BYTES > bytes.length) bytes = grown(bytes, length + MAX_POSTING_BYTES);
        length = writePosting(bytes, length, slot - previous, reader.values, 0, width);
        previous = slot;
        postings++;
      }
    };
    const base = this.baseTerms;
    const delta = this.deltaSortedTerms;
    let i = 0;
    let j = 0;
    while (i < base.length || j < delta.length) {
      const before = length;
      previous = -1;
      let term: string;
      const fromBase = j >= delta.length || (i < base.length && (base[i] as string) <= (delta[j] as string));
      const fromDelta = i >= base.length || (j < delta.length && (delta[j] as string) <= (base[i] as string));
      if (fromBase) {
        term = base[i] as string;
        copy(this.baseBytes, this.baseStart[i]!, this.baseStart[i + 1]!, -1);
        i++;
      } else term = delta[j] as string;
      if (fromDelta) {
        const id = this.deltaSorted[j++]!;
        for (let block = this.deltaHead[id]!; block >= 0; block = this.blockNext[block]!) {
          copy(this.deltaPool, this.blockFrom[block]!, this.blockEnd[block]!, this.blockSlot[block]!);
        }
      }
      if (length === before) continue;
      terms.push(term);
      start.push(length);
    }
    this.baseTerms = terms;
    this.baseStart = Int32Array.from(start);
    // Without dead postings the run fills all but the last few bytes: keep it rather than copy it.
    this.baseBytes = length + (length >> 3) >= bytes.length ? bytes.subarray(0, length) : bytes.slice(0, length);
    this.basePostings = postings;
    const postingsOf = new Int32Array(live);
    for (let slot = 0; slot < this.slots; slot++) if (remap[slot]! >= 0) postingsOf[remap[slot]!] = this.postingsOf[slot]!;
    this.postingsOf = postingsOf;
    this.alive = new Uint8Array(live).fill(1);
    this.slots = live;
    this.dead = 0;
    this.removed = 0;
    this.clearDelta();
    return remap;
  }

  private clearDelta(): void {
    this.deltaTerms = [];
    this.deltaHead = new Int32Array(0);
    this.deltaTail = new Int32Array(0);
    this.deltaLast = new Int32Array(0);
    this.deltaPool = new Uint8Array(0);
    this.blockFrom = new Int32Array(0);
    this.blockEnd = new Int32Array(0);
    this.blockLimit = new Int32Array(0);
    this.blockNext = new Int32Array(0);
    this.blockSlot = new Int32Array(0);
    this.blocks = this.poolUsed = this.deltaUsed = 0;
    this.deltaIds.clear();
    this.deltaSorted = [];
    this.deltaSortedTerms = [];
    this.pending = [];
    this.deltaLength = 0;
    this.fillRow = new Int32Array(0);
  }

  /** True when the delta is empty and no slot was removed: the base holds everything. */
  isCompact(): boolean {
    return this.deltaLength === 0 && this.removed === 0;
  }

  /**
   * Writes the base segment: its slot count, terms, run offsets and bytes. Only a compact
   * segment is written (the collection compacts first, since compaction renumbers slots).
   */
  save(writer: ByteWriter): void {
    if (!this.isCompact()) throw new Error("postings: only compact postings are saved");
    writer.varint(this.slots);
    writer.strings(this.baseTerms);
    writer.int32Array(this.baseStart);
    writer.byteArray(this.baseBytes);
  }

  /**
   * Replaces everything by a saved base segment, after checking it: terms in strictly increasing
   * code-unit order, runs that tile the bytes, postings that decode, with slots increasing within
   * a run and below the slot count. Throws an `Error` saying what is wrong. With `sums`, returns
   * each slot's values added up per position (slot × width + position), Infinity where a value
   * saturated, for the caller to check its own counts against.
   */
  load(reader: ByteReader, sums = false): Float64Array | undefined {
    const slots = reader.varint();
    const terms = reader.strings();
    const start = reader.int32Array();
    const bytes = reader.byteArray();
    if (start.length !== terms.length + 1 || start[0] !== 0 || start[terms.length] !== bytes.length) throw new Error("its term table does not tile its postings");
    const postingsOf = new Int32Array(slots);
    const totals = sums ? new Float64Array(slots * this.width) : undefined;
    let postings = 0;
    for (let t = 0; t < terms.length; t++) {
      if (t > 0 && !((terms[t - 1] as string) < (terms[t] as string))) throw new Error("its terms are not in order");
      if (start[t + 1]! <= start[t]!) throw new Error("a term has no postings");
      postings += checkRun(bytes, start[t]!, start[t + 1]!, this.width, postingsOf, totals);
    }
    this.baseTerms = terms;
    this.baseStart = start;
    this.baseBytes = bytes;
    this.basePostings = postings;
    this.postingsOf = postingsOf;
    this.alive = new Uint8Array(slots).fill(1);
    this.slots = slots;
    this.dead = 0;
    this.removed = 0;
    this.filling = -1;
    this.fillTerms.length = 0;
    this.clearDelta();
    return totals;
  }
}

/** Code-unit order: deterministic, independent of the machine's locale. */
function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
