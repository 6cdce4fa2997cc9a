/**
 * Private helper of the ranking index: postings in compressed sparse row form over a term
 * dictionary sorted by code unit, so one term is a binary search and a prefix is a range.
 */

/** Terms sorted by code unit, and for each its postings (entry, field mask) in CSR form. */
export interface Postings {
  readonly terms: readonly string[];
  readonly start: Int32Array;
  readonly entry: Int32Array;
  readonly mask: Uint8Array;
}

/** Collects (term, entry, field) triples in entry order, one posting per (term, entry). */
export class PostingsBuilder {
  private readonly ids = new Map<string, number>();
  private readonly lastEntry: number[] = [];
  private readonly lastSlot: number[] = [];
  private readonly termOf: number[] = [];
  private readonly entryOf: number[] = [];
  private readonly maskOf: number[] = [];

  add(term: string, entry: number, bit: number): void {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(term, id);
    }
    if (this.lastEntry[id] === entry) {
      const slot = this.lastSlot[id] as number;
      this.maskOf[slot] = (this.maskOf[slot] as number) | bit;
      return;
    }
    this.lastEntry[id] = entry;
    this.lastSlot[id] = this.termOf.length;
    this.termOf.push(id);
    this.entryOf.push(entry);
    this.maskOf.push(bit);
  }

  finish(): Postings {
    const byId = [...this.ids.keys()];
    const order = byId.map((_, id) => id).sort((a, b) => ((byId[a] as string) < (byId[b] as string) ? -1 : 1));
    const rank = new Int32Array(order.length);
    order.forEach((id, position) => (rank[id] = position));
    const start = new Int32Array(order.length + 1);
    for (const id of this.termOf) start[(rank[id] as number) + 1]! += 1;
    for (let t = 0; t < order.length; t++) start[t + 1]! += start[t] as number;
    const fill = start.slice(0, order.length);
    const entry = new Int32Array(this.termOf.length);
    const mask = new Uint8Array(this.termOf.length);
    this.termOf.forEach((id, p) => {
      const slot = fill[rank[id] as number]!++;
      entry[slot] = this.entryOf[p] as number;
      mask[slot] = this.maskOf[p] as number;
    });
    return { terms: order.map((id) => byId[id] as string), start, entry, mask };
  }
}

/** The first index whose string is `>= key`. */
export function lowerBound(sorted: readonly string[], key: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as string) < key) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** `[from, to)`: the strings of `sorted` that start with `prefix`. */
export function prefixRange(sorted: readonly string[], prefix: string): [number, number] {
  return [lowerBound(sorted, prefix), lowerBound(sorted, prefix + "\uffff")];
}

/**
 * Postings that keep, for every (term, entry), how often the term occurs in each field: BM25
 * needs term frequencies where the rule needs only a field mask. CSR form over a dictionary
 * sorted by code unit, shared by several postings; `counts` holds `fields` numbers per posting.
 */
export interface CountedPostings {
  readonly start: Int32Array;
  readonly entry: Int32Array;
  readonly counts: Uint16Array;
}

/**
 * Sorts a dictionary built in first-seen order: returns the sorted terms and, for each
 * first-seen id, its position in them.
 */
export function sortDictionary(firstSeen: readonly string[]): { terms: string[]; rank: Int32Array } {
  const order = firstSeen.map((_, id) => id).sort((a, b) => ((firstSeen[a] as string) < (firstSeen[b] as string) ? -1 : 1));
  const rank = new Int32Array(order.length);
  order.forEach((id, position) => (rank[id] = position));
  return { terms: order.map((id) => firstSeen[id] as string), rank };
}

/**
 * Counted postings of `units` (entries in order; per field, the sorted-dictionary ids of its
 * tokens, repeats included) over a dictionary of `termCount` terms: one posting per (term, unit),
 * counts per field saturating at 65535. Linear: a counting sort by term.
 */
export function countPostings(termCount: number, units: readonly (readonly Int32Array[])[], fields: number): CountedPostings {
  const lastUnit = new Int32Array(termCount).fill(-1);
  const lastSlot = new Int32Array(termCount);
  const termOf: number[] = [];
  const unitOf: number[] = [];
  const countOf: number[] = [];
  units.forEach((unit, u) => {
    unit.forEach((tokens, f) => {
      for (const term of tokens) {
        if (lastUnit[term] !== u) {
          lastUnit[term] = u;
          lastSlot[term] = termOf.length;
          termOf.push(term);
          unitOf.push(u);
          for (let k = 0; k < fields; k++) countOf.push(0);
        }
        const at = lastSlot[term]! * fields + f;
        if (countOf[at]! < 65535) countOf[at]! += 1;
      }
    });
  });
  const start = new Int32Array(termCount + 1);
  for (const term of termOf) start[term + 1]! += 1;
  for (let t = 0; t < termCount; t++) start[t + 1]! += start[t]!;
  const fill = start.slice(0, termCount);
  const entry = new Int32Array(termOf.length);
  const counts = new Uint16Array(termOf.length * fields);
  termOf.forEach((term, p) => {
    const slot = fill[term]!++;
    entry[slot] = unitOf[p]!;
    for (let k = 0; k < fields; k++) counts[slot * fields + k] = countOf[p * fields + k]!;
  });
  return { start, entry, counts };
}
