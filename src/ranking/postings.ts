/**
 * Private helper of both rankings: postings that can change one entry at a time, in two segments,
 * as a log-structured index keeps them.
 *
 * - The base segment is compressed sparse rows over a term dictionary sorted by code unit: one
 *   term is a binary search, a prefix is a range, a term's postings are one contiguous run.
 * - The delta segment takes every entry added since the last compaction: postings appended to
 *   flat typed arrays and chained per term, with its own small sorted dictionary, kept up to date
 *   lazily (new terms are sorted and merged in on the next search).
 * - Removing an entry only clears its slot's `alive` flag; searches skip dead postings.
 *
 * {@link SegmentedPostings.compact} merges the delta into the base and drops the dead postings,
 * renumbering slots in their old order. It runs when the delta and the dead postings together
 * reach the size of the base (or 64k postings), so each posting is rewritten a bounded number of
 * times: an update costs its own tokens, amortised. A posting holds `width` 16-bit values: the
 * rule's field mask (width 1), or BM25's per-field counts (width 4).
 */

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

function grownInt32(array: Int32Array, needed: number): Int32Array {
  if (needed <= array.length) return array;
  const next = new Int32Array(Math.max(needed, array.length * 2, 16));
  next.set(array);
  return next;
}

function grownUint16(array: Uint16Array, needed: number): Uint16Array {
  if (needed <= array.length) return array;
  const next = new Uint16Array(Math.max(needed, array.length * 2, 16));
  next.set(array);
  return next;
}

function grownUint8(array: Uint8Array, needed: number): Uint8Array {
  if (needed <= array.length) return array;
  const next = new Uint8Array(Math.max(needed, array.length * 2, 16));
  next.set(array);
  return next;
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
  // Base segment: CSR. Postings of baseTerms[t] are [baseStart[t], baseStart[t + 1]).
  baseTerms: string[] = [];
  baseStart: Int32Array = new Int32Array(1);
  baseEntry: Int32Array = new Int32Array(0);
  baseData: Uint16Array = new Uint16Array(0);
  // Delta segment: per term (by delta id) the last posting, chained backwards through deltaNext.
  deltaTerms: string[] = [];
  deltaHead: number[] = [];
  /** Delta term ids in term order; `pending` holds those not merged in yet. */
  deltaSorted: number[] = [];
  deltaSortedTerms: string[] = [];
  deltaEntry: Int32Array = new Int32Array(0);
  deltaNext: Int32Array = new Int32Array(0);
  deltaData: Uint16Array = new Uint16Array(0);
  deltaLength = 0;
  /** 1 for a slot that holds an entry, 0 for a free or removed one. */
  alive: Uint8Array = new Uint8Array(0);
  /** How many slots were handed out since the last compaction renumbered them. */
  slots = 0;

  private readonly deltaIds = new Map<string, number>();
  private readonly deltaLast: number[] = [];
  private pending: number[] = [];
  private postingsOf: Int32Array = new Int32Array(0);
  private dead = 0;

  constructor(readonly width: number) {}

  /** A new slot, alive, after every slot handed out so far. */
  open(): number {
    const slot = this.slots++;
    this.alive = grownUint8(this.alive, this.slots);
    this.postingsOf = grownInt32(this.postingsOf, this.slots);
    this.alive[slot] = 1;
    this.postingsOf[slot] = 0;
    return slot;
  }

  /** Adds `amount` to value `field` of the posting (term, slot); values saturate at 65535. */
  add(term: string, slot: number, field: number, amount: number): void {
    const at = this.posting(term, slot) * this.width + field;
    const value = (this.deltaData[at] as number) + amount;
    this.deltaData[at] = value > 65535 ? 65535 : value;
  }

  /** Ors `bits` into the first value of the posting (term, slot): the rule's field mask. */
  mark(term: string, slot: number, bits: number): void {
    const at = this.posting(term, slot) * this.width;
    this.deltaData[at] = (this.deltaData[at] as number) | bits;
  }

  /**
   * The posting (term, slot), created when new. All the postings of one slot are made before the
   * next slot's (the slot just opened), so a repeat finds its posting at the head of the chain.
   */
  private posting(term: string, slot: number): number {
    let id = this.deltaIds.get(term);
    if (id === undefined) {
      id = this.deltaTerms.length;
      this.deltaIds.set(term, id);
      this.deltaTerms.push(term);
      this.deltaHead.push(-1);
      this.deltaLast.push(-1);
      this.pending.push(id);
    }
    if (this.deltaLast[id] === slot) return this.deltaHead[id] as number;
    const posting = this.deltaLength++;
    this.deltaEntry = grownInt32(this.deltaEntry, this.deltaLength);
    this.deltaNext = grownInt32(this.deltaNext, this.deltaLength);
    this.deltaData = grownUint16(this.deltaData, this.deltaLength * this.width);
    this.deltaEntry[posting] = slot;
    this.deltaNext[posting] = this.deltaHead[id] as number;
    // deltaData past deltaLength is still zero: the delta only grows until a compaction resets it.
    this.deltaHead[id] = posting;
    this.deltaLast[id] = slot;
    this.postingsOf[slot]! += 1;
    return posting;
  }

  /** Marks a slot dead: its postings stay until the next compaction, skipped by every search. */
  remove(slot: number): void {
    this.alive[slot] = 0;
    this.dead += this.postingsOf[slot] as number;
  }

  /** True when the delta and the dead postings are worth a compaction. */
  wantsCompaction(): boolean {
    const changed = this.deltaLength + this.dead;
    return changed >= minCompaction && changed >= this.baseEntry.length;
  }

  /** Merges the pending delta terms into the delta's sorted dictionary; call before {@link range}. */
  prepare(): void {
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
    const capacity = this.baseEntry.length - this.dead + this.deltaLength;
    const terms: string[] = [];
    const start: number[] = [0];
    const entry = new Int32Array(Math.max(capacity, 0));
    const data = new Uint16Array(Math.max(capacity, 0) * width);
    let length = 0;
    const copyBase = (t: number) => {
      for (let p = this.baseStart[t]!, end = this.baseStart[t + 1]!; p < end; p++) {
        const slot = this.baseEntry[p]!;
        if (alive[slot] === 0) continue;
        entry[length] = remap[slot]!;
        for (let f = 0; f < width; f++) data[length * width + f] = this.baseData[p * width + f]!;
        length++;
      }
    };
    const copyDelta = (id: number) => {
      for (let p = this.deltaHead[id]!; p !== -1; p = this.deltaNext[p]!) {
        const slot = this.deltaEntry[p]!;
        if (alive[slot] === 0) continue;
        entry[length] = remap[slot]!;
        for (let f = 0; f < width; f++) data[length * width + f] = this.deltaData[p * width + f]!;
        length++;
      }
    };
    const base = this.baseTerms;
    const delta = this.deltaSortedTerms;
    let i = 0;
    let j = 0;
    while (i < base.length || j < delta.length) {
      const before = length;
      let term: string;
      if (j >= delta.length || (i < base.length && (base[i] as string) < (delta[j] as string))) {
        term = base[i] as string;
        copyBase(i++);
      } else if (i >= base.length || (delta[j] as string) < (base[i] as string)) {
        term = delta[j] as string;
        copyDelta(this.deltaSorted[j++]!);
      } else {
        term = base[i] as string;
        copyBase(i++);
        copyDelta(this.deltaSorted[j++]!);
      }
      if (length === before) continue;
      terms.push(term);
      start.push(length);
    }
    this.baseTerms = terms;
    this.baseStart = Int32Array.from(start);
    this.baseEntry = length === entry.length ? entry : entry.slice(0, length);
    this.baseData = length * width === data.length ? data : data.slice(0, length * width);
    const postingsOf = new Int32Array(live);
    const nextAlive = new Uint8Array(live).fill(1);
    for (let slot = 0; slot < this.slots; slot++) if (remap[slot]! >= 0) postingsOf[remap[slot]!] = this.postingsOf[slot]!;
    this.postingsOf = postingsOf;
    this.alive = nextAlive;
    this.slots = live;
    this.dead = 0;
    this.deltaTerms = [];
    this.deltaHead = [];
    this.deltaLast.length = 0;
    this.deltaIds.clear();
    this.deltaSorted = [];
    this.deltaSortedTerms = [];
    this.pending = [];
    this.deltaEntry = new Int32Array(0);
    this.deltaNext = new Int32Array(0);
    this.deltaData = new Uint16Array(0);
    this.deltaLength = 0;
    return remap;
  }
}

/** Code-unit order: deterministic, independent of the machine's locale. */
function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
