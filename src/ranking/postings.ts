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
 * Each posting is packed in 1 to 3 bytes, in the format of ./posting-codec.ts.
 *
 * {@link SegmentedPostings.compact} merges the delta into the base and drops the dead postings,
 * renumbering slots in their old order. It runs when the delta and the dead postings together
 * reach the size of the base (or 64k postings), so each posting is rewritten a bounded number of
 * times: an update costs its own tokens, amortised.
 *
 * A compaction can also run in slices ({@link SegmentedPostings.stepCompaction}), so that no
 * single call holds the thread for long (STYLE.md §11: background work in slices). A job records
 * the slot count and the live slots when it starts, then merges term after term within a budget
 * of bytes per call, while searches read the old segments and updates go on: a slot opened after
 * the start is left in the delta, and a slot removed after the start is merged, then marked dead.
 * Its commit moves what was written since the start to a fresh delta, byte for byte: slots opened
 * since are renumbered by one shift, and a posting's gap is relative, so only the base of each
 * run moves. The delta's sorted dictionary is kept up to date in chunks as terms arrive, so a
 * search or a job never sorts more than a chunk of new terms at once.
 */
import type { ByteReader, ByteWriter } from "./bytes.js";
import { checkRun, MAX_POSTING_BYTES, PostingReader, writePosting } from "./posting-codec.js";

/** The first index of `sorted` whose term is not below `term` (code-unit order). */
function lowerBound(sorted: readonly string[], term: string): number {
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

/** A term's first delta block, and the most any later one grows to (bytes). */
const FIRST_BLOCK = 8;
const LARGEST_BLOCK = 4096;
/**
 * New delta terms are sorted into the delta's dictionary once this many wait, or a 64th of the
 * dictionary when that is more. A merge sorts the new terms, finds each one's place by binary
 * search and copies the old ids between places in bulk: on a dictionary of 700,000 terms it holds
 * the thread about 30 to 60 ms, where one comparison per term took up to 800 ms.
 */
const PENDING_CHUNK = 4096;
/** The least a step of compaction merges by default (bytes of postings): about half a millisecond. */
let minStepBytes = 1 << 16;

/**
 * Sets the least bytes a step of compaction merges and returns the previous value: tests lower it
 * so that a small index takes many steps, one term each. @internal
 */
export function setMinStepBytes(bytes: number): number {
  const previous = minStepBytes;
  minStepBytes = bytes;
  return previous;
}

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

/** Where one query token's matches sit in both segments (see {@link SegmentedPostings.range}). */
export interface TermRange {
  baseFrom: number;
  baseTo: number;
  deltaFrom: number;
  deltaTo: number;
}

/** A compaction under way (see the module comment): what it started from, and how far it got. */
interface CompactionJob {
  /** The slot count at the start; slots from here on stay in the delta. */
  readonly slots: number;
  /** Per slot below `slots`: its number after the commit, or -1 when it was dead at the start. */
  readonly remap: Int32Array;
  /** How many slots were live at the start: the first number a later slot shifts to. */
  readonly live: number;
  /** The segments being merged, as they were at the start (the commit replaces them). */
  readonly baseTerms: readonly string[];
  readonly baseStart: Int32Array;
  readonly baseBytes: Uint8Array;
  readonly deltaSorted: Int32Array;
  /** Per delta term that existed at the start: its last block, that block's end, its last slot. */
  readonly startTail: Int32Array;
  readonly startEnd: Int32Array;
  readonly startLast: Int32Array;
  /** The next base term and the next delta term to merge. */
  nextBase: number;
  nextDelta: number;
  /** The merged base so far. */
  readonly terms: string[];
  readonly start: number[];
  bytes: Uint8Array;
  length: number;
  postings: number;
  /** The new number of the last slot merged into the current term's run, -1 before any. */
  previous: number;
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
  deltaSorted: Int32Array = new Int32Array(0);
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
  /** The compaction under way, if any. */
  private job: CompactionJob | undefined;
  private readonly reader: PostingReader;

  constructor(readonly width: number) {
    this.reader = new PostingReader(width);
  }

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
      id = this.newDeltaTerm(term);
      if (this.pending.length >= Math.max(PENDING_CHUNK, this.deltaSorted.length >> 6)) this.mergePending();
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

  /** Gives `term` a delta id with an empty run, waiting in `pending` for the sorted dictionary. */
  private newDeltaTerm(term: string): number {
    const id = this.deltaTerms.length;
    this.deltaIds.set(term, id);
    this.deltaTerms.push(term);
    this.deltaHead = grownDelta(this.deltaHead, id + 1, 1024);
    this.deltaTail = grownDelta(this.deltaTail, id + 1, 1024);
    this.deltaLast = grownDelta(this.deltaLast, id + 1, 1024);
    this.deltaHead[id] = this.deltaTail[id] = this.deltaLast[id] = -1;
    this.pending.push(id);
    this.fillRow = grown(this.fillRow, id + 1);
    return id;
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
    return this.allocateBlock(id, tail, Math.max(doubled, length), this.deltaLast[id]!);
  }

  /** Cuts a block of `size` bytes from the pool and chains it to term `id` after `tail`; its first posting counts from `slot`. */
  private allocateBlock(id: number, tail: number, size: number, slot: number): number {
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
    this.blockSlot[block] = slot;
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
    if (this.job !== undefined) return false;
    const changed = this.deltaLength + this.dead;
    return changed >= minCompaction && changed >= this.basePostings;
  }

  /** Writes the slot being filled and merges the pending delta terms into the delta's sorted dictionary; call before {@link range}. */
  prepare(): void {
    this.flush();
    this.mergePending();
  }

  /** Sorts the pending delta terms and merges them into the delta's sorted dictionary. */
  private mergePending(): void {
    if (this.pending.length === 0) return;
    const { deltaTerms, deltaIds } = this;
    // The default sort compares strings by code unit, as `<` does, without a call per comparison.
    const fresh = this.pending.map((id) => deltaTerms[id] as string).sort();
    this.pending = [];
    // Each new term's place by binary search, and the old ids between places copied in bulk: the
    // merge costs the new terms' searches and one copy of the old ids, not a comparison per term.
    const old = this.deltaSorted;
    const merged = new Int32Array(old.length + fresh.length);
    let from = 0;
    let at = 0;
    for (const term of fresh) {
      const place = this.deltaLowerBound(term, from, old);
      merged.set(old.subarray(from, place), at);
      at += place - from;
      merged[at++] = deltaIds.get(term) as number;
      from = place;
    }
    merged.set(old.subarray(from), at);
    this.deltaSorted = merged;
  }

  /** The first place in `sorted` (delta ids in term order), from `from` on, whose term is not below `term`. */
  private deltaLowerBound(term: string, from = 0, sorted = this.deltaSorted): number {
    const { deltaTerms } = this;
    let lo = from;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((deltaTerms[sorted[mid]!] as string) < term) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * The terms a query token matches, in both segments: the token itself, and when `prefixes` is
   * true every longer term that starts with it. Fills and returns `into`.
   */
  range(token: string, prefixes: boolean, into: TermRange): TermRange {
    into.baseFrom = lowerBound(this.baseTerms, token);
    into.deltaFrom = this.deltaLowerBound(token);
    if (prefixes) {
      const end = `${token}\uffff`;
      into.baseTo = lowerBound(this.baseTerms, end);
      into.deltaTo = this.deltaLowerBound(end, into.deltaFrom);
    } else {
      into.baseTo = this.baseTerms[into.baseFrom] === token ? into.baseFrom + 1 : into.baseFrom;
      into.deltaTo = into.deltaFrom < this.deltaSorted.length && this.deltaTerms[this.deltaSorted[into.deltaFrom]!] === token ? into.deltaFrom + 1 : into.deltaFrom;
    }
    return into;
  }

  /** True while a compaction started by {@link stepCompaction} waits for its next step or its commit. */
  get compacting(): boolean {
    return this.job !== undefined;
  }

  /**
   * Merges the delta into the base and drops dead postings, at once: finishes the compaction
   * under way, or runs a whole one. Returns, for each old slot, its new number or -1 when it was
   * dead; live slots keep their relative order. A slot removed while a sliced compaction was
   * under way keeps a number, dead, until the next compaction.
   */
  compact(): Int32Array {
    if (this.job === undefined && this.isCompact()) return Int32Array.from({ length: this.slots }, (_, slot) => slot);
    const job = this.job ?? this.startJob();
    this.advance(job, Infinity);
    return this.commit(job);
  }

  /**
   * One slice of a compaction: starts one when the postings are not compact, then merges about
   * `budget` bytes of postings (a whole term at least; by default a 128th of the postings, at
   * least 64 KiB, so a job ends within 128 steps). Returns true when nothing is left to
   * merge, so that {@link compact} only commits (a few array copies and what was written since
   * the start); false when more steps are needed. Searches and updates may run between steps.
   */
  stepCompaction(budget = Math.max(minStepBytes, (this.baseBytes.length + this.deltaUsed) >> 7)): boolean {
    this.startCompaction();
    return this.job === undefined || this.advance(this.job, budget);
  }

  /**
   * Starts a sliced compaction when none is under way and the postings are not compact, without
   * merging anything yet: postings whose slots must stay numbered alike (BM25's whole and lead
   * views, one unit per entry) start theirs at the same moment, so their remaps are the same.
   */
  startCompaction(): void {
    if (this.job === undefined && !this.isCompact()) this.job = this.startJob();
  }

  private startJob(): CompactionJob {
    this.prepare();
    const slots = this.slots;
    const remap = new Int32Array(slots);
    let live = 0;
    for (let slot = 0; slot < slots; slot++) remap[slot] = this.alive[slot] === 1 ? live++ : -1;
    const terms = this.deltaTerms.length;
    const startTail = this.deltaTail.slice(0, terms);
    const startEnd = new Int32Array(terms);
    for (let id = 0; id < terms; id++) startEnd[id] = startTail[id]! < 0 ? 0 : this.blockEnd[startTail[id]!]!;
    this.job = {
      slots, remap, live,
      baseTerms: this.baseTerms, baseStart: this.baseStart, baseBytes: this.baseBytes,
      deltaSorted: this.deltaSorted,
      startTail, startEnd, startLast: this.deltaLast.slice(0, terms),
      nextBase: 0, nextDelta: 0,
      terms: [], start: [0], bytes: new Uint8Array(this.baseBytes.length + this.deltaUsed + MAX_POSTING_BYTES), length: 0, postings: 0, previous: -1,
    };
    return this.job;
  }

  /**
   * Merges terms into the job's base until `budget` bytes were read; true when every term is
   * merged. Slots only grow from base to delta and within a run, and the remap keeps their order,
   * so a term's merged run is its base run then its delta run up to the job's first slot, each
   * re-gapped.
   */
  private advance(job: CompactionJob, budget: number): boolean {
    const base = job.baseTerms;
    const sorted = job.deltaSorted;
    const deltaTerms = this.deltaTerms;
    let read = 0;
    while (job.nextBase < base.length || job.nextDelta < sorted.length) {
      if (read >= budget) return false;
      const i = job.nextBase;
      const j = job.nextDelta;
      const baseTerm = base[i];
      const deltaTerm = j < sorted.length ? deltaTerms[sorted[j]!] : undefined;
      const fromBase = deltaTerm === undefined || (baseTerm !== undefined && baseTerm <= deltaTerm);
      const fromDelta = baseTerm === undefined || (deltaTerm !== undefined && deltaTerm <= baseTerm);
      const term = (fromBase ? baseTerm : deltaTerm) as string;
      const before = job.length;
      job.previous = -1;
      if (fromBase) {
        this.copyRun(job, job.baseBytes, job.baseStart[i]!, job.baseStart[i + 1]!, -1);
        read += job.baseStart[i + 1]! - job.baseStart[i]!;
        job.nextBase++;
      }
      if (fromDelta) {
        const id = sorted[j]!;
        // A run's postings from the job's first slot on were written after the start: they stay.
        let block = this.deltaHead[id]!;
        while (block >= 0 && this.copyRun(job, this.deltaPool, this.blockFrom[block]!, this.blockEnd[block]!, this.blockSlot[block]!)) {
          read += this.blockEnd[block]! - this.blockFrom[block]!;
          block = this.blockNext[block]!;
        }
        job.nextDelta++;
      }
      if (job.length === before) continue;
      job.terms.push(term);
      job.start.push(job.length);
    }
    return true;
  }

  /**
   * Re-gaps the postings of `from[begin…end)` (the first counting from `slot`) into the job's
   * base, skipping the slots dead at its start. Returns false when it reached a slot opened
   * after the job started: the rest of the run is not the job's.
   */
  private copyRun(job: CompactionJob, from: Uint8Array, begin: number, end: number, slot: number): boolean {
    const { width, reader } = this;
    reader.reset(from, begin, end, slot);
    while (reader.next()) {
      if (reader.slot >= job.slots) return false;
      const to = job.remap[reader.slot]!;
      if (to < 0) continue;
      if (job.length + MAX_POSTING_BYTES > job.bytes.length) job.bytes = grown(job.bytes, job.length + MAX_POSTING_BYTES);
      job.length = writePosting(job.bytes, job.length, to - job.previous, reader.values, 0, width);
      job.previous = to;
      job.postings++;
    }
    return true;
  }

  /**
   * Ends a job whose merge is done: the merged base replaces the base, and what was written since
   * the start (slots opened since, shifted to follow the live ones) becomes the delta, its bytes
   * copied as they are. Returns the remap of every slot.
   */
  private commit(job: CompactionJob): Int32Array {
    this.flush();
    const shift = job.live - job.slots;
    const slotsNow = this.slots;
    const slots = job.live + slotsNow - job.slots;
    const remap = new Int32Array(slotsNow);
    remap.set(job.remap);
    for (let slot = job.slots; slot < slotsNow; slot++) remap[slot] = slot + shift;
    const alive = new Uint8Array(slots);
    const postingsOf = new Int32Array(slots);
    let dead = 0;
    let removed = 0;
    let carried = 0;
    for (let slot = 0; slot < slotsNow; slot++) {
      const to = remap[slot]!;
      if (to < 0) continue;
      alive[to] = this.alive[slot]!;
      postingsOf[to] = this.postingsOf[slot]!;
      if (alive[to] === 0) {
        dead += postingsOf[to]!;
        removed += 1;
      }
      if (slot >= job.slots) carried += postingsOf[to]!;
    }
    // What was written since the start, per term: the tail of its last block then the blocks after.
    const old = { terms: this.deltaTerms, head: this.deltaHead, tail: this.deltaTail, last: this.deltaLast, pool: this.deltaPool, from: this.blockFrom, end: this.blockEnd, next: this.blockNext };
    this.clearDelta();
    let used = 0;
    for (let id = 0; id < old.terms.length; id++) {
      const existed = id < job.startTail.length && job.startTail[id]! >= 0;
      const first = existed ? job.startTail[id]! : old.head[id]!;
      const skip = existed ? job.startEnd[id]! : -1;
      if (existed && old.tail[id] === first && old.end[first] === skip) continue;
      let bytes = 0;
      for (let block = first; block >= 0; block = old.next[block]!) bytes += old.end[block]! - (block === first && existed ? skip : old.from[block]!);
      if (bytes === 0) continue;
      const at = this.newDeltaTerm(old.terms[id] as string);
      const block = this.allocateBlock(at, -1, bytes, (existed ? job.startLast[id]! : -1) + shift);
      let write = this.blockFrom[block]!;
      for (let b = first; b >= 0; b = old.next[b]!) {
        const begin = b === first && existed ? skip : old.from[b]!;
        this.deltaPool.set(old.pool.subarray(begin, old.end[b]!), write);
        write += old.end[b]! - begin;
      }
      this.blockEnd[block] = write;
      this.deltaLast[at] = old.last[id]! + shift;
      used += bytes;
    }
    this.deltaUsed = used;
    this.deltaLength = carried;
    this.baseTerms = job.terms;
    this.baseStart = Int32Array.from(job.start);
    // Without dead postings the run fills all but the last few bytes: keep it rather than copy it.
    this.baseBytes = job.length + (job.length >> 3) >= job.bytes.length ? job.bytes.subarray(0, job.length) : job.bytes.slice(0, job.length);
    this.basePostings = job.postings;
    this.postingsOf = postingsOf;
    this.alive = alive;
    this.slots = slots;
    this.dead = dead;
    this.removed = removed;
    this.job = undefined;
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
    this.deltaSorted = new Int32Array(0);
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
    if (!this.isCompact() || this.job !== undefined) throw new Error("postings: only compact postings are saved");
    this.check();
    writer.varint(this.slots);
    writer.strings(this.baseTerms);
    writer.int32Array(this.baseStart);
    writer.byteArray(this.baseBytes);
  }

  /**
   * Checks the base segment as {@link load} checks a saved one, and that it holds as many
   * postings per slot as were written: a snapshot of postings that do not decode is never made.
   * Throws an `Error` saying what is wrong.
   */
  private check(): void {
    const { baseTerms: terms, baseStart: start, baseBytes: bytes } = this;
    if (start.length !== terms.length + 1 || start[0] !== 0 || start[terms.length] !== bytes.length) throw new Error("its term table does not tile its postings");
    const counted = new Int32Array(this.slots);
    let postings = 0;
    for (let t = 0; t < terms.length; t++) {
      if (t > 0 && !((terms[t - 1] as string) < (terms[t] as string))) throw new Error("its terms are not in order");
      postings += checkRun(bytes, start[t]!, start[t + 1]!, this.width, counted, undefined);
    }
    if (postings !== this.basePostings) throw new Error("it holds another number of postings than were written");
    for (let slot = 0; slot < this.slots; slot++) if (counted[slot] !== this.postingsOf[slot]) throw new Error(`entry slot ${slot} holds another number of postings than were written`);
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
    this.job = undefined;
    this.clearDelta();
    return totals;
  }
}

