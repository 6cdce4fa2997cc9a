import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ByteWriter } from "../../src/ranking/bytes.js";
import { PostingReader } from "../../src/ranking/posting-codec.js";
import { SegmentedPostings } from "../../src/ranking/postings.js";

/** One posting as a plain value: the slot and its `width` values. */
type Plain = { readonly slot: number; readonly values: readonly number[] };

/** Every posting of `term` in the base segment, decoded. */
function baseRun(postings: SegmentedPostings, term: string): Plain[] {
  const t = postings.baseTerms.indexOf(term);
  if (t < 0) return [];
  const reader = new PostingReader(postings.width).reset(postings.baseBytes, postings.baseStart[t]!, postings.baseStart[t + 1]!);
  const out: Plain[] = [];
  while (reader.next()) out.push({ slot: reader.slot, values: [...reader.values] });
  return out;
}

/** Fills one slot per row of `rows` (term → values), compacts, and returns what the base holds per term. */
function roundTrip(width: number, rows: readonly (readonly [string, readonly number[]][])[]): Map<string, Plain[]> {
  const postings = new SegmentedPostings(width);
  for (const row of rows) {
    const slot = postings.open();
    for (const [term, values] of row) values.forEach((value, field) => value > 0 && postings.add(term, slot, field, value));
  }
  postings.compact();
  return new Map(postings.baseTerms.map((term) => [term, baseRun(postings, term)]));
}

/** What the rows hold per term, as `roundTrip` must return it. */
function expected(rows: readonly (readonly [string, readonly number[]][])[]): Map<string, Plain[]> {
  const out = new Map<string, Plain[]>();
  rows.forEach((row, slot) => {
    const merged = new Map<string, number[]>();
    for (const [term, values] of row) {
      const sum = merged.get(term) ?? values.map(() => 0);
      values.forEach((value, field) => (sum[field] = Math.min(65535, sum[field]! + value)));
      merged.set(term, sum);
    }
    for (const [term, values] of merged) {
      if (values.every((value) => value === 0)) continue;
      out.set(term, [...(out.get(term) ?? []), { slot, values }]);
    }
  });
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

describe("SegmentedPostings", () => {
  // The folder server lost whole indexes to this: a term's first posting came thousands of slots
  // after the previous one, with several counts, and took more bytes than the 8-byte first block
  // it was written into, so the next block cut from the pool overwrote its end ("a posting is cut
  // short" at the next compaction).
  it("keeps a posting longer than its term's first block whole", () => {
    const rows: [string, number[]][][] = [];
    for (let slot = 0; slot < 6000; slot++) {
      if (slot === 5000) rows.push([["x", [300, 300, 0, 3000]], ["z", [0, 0, 0, 1]]]);
      else rows.push(slot > 5000 ? [[`y${slot}`, [0, 0, 0, 1]]] : []);
    }
    const got = roundTrip(4, rows);
    expect(got.get("x")).toStrictEqual([{ slot: 5000, values: [300, 300, 0, 3000] }]);
    expect(got).toStrictEqual(expected(rows));
  });

  it("keeps every posting through the delta's blocks and a compaction, whatever its gap and values", () => {
    const values = fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 15 }), fc.integer({ min: 16, max: 70_000 })), { minLength: 4, maxLength: 4 });
    // Few terms over many slots, some slots empty: gaps of thousands and runs long enough to chain
    // blocks up to their largest size.
    const row = fc.array(fc.tuple(fc.constantFrom("a", "b", "c", "d"), values), { maxLength: 3 });
    const rows = fc.array(fc.oneof({ weight: 1, arbitrary: row }, { weight: 6, arbitrary: fc.constant([]) }), { maxLength: 3000 });
    fc.assert(
      fc.property(rows, (generated) => {
        expect(roundTrip(4, generated)).toStrictEqual(expected(generated));
      }),
      { numRuns: 60 },
    );
  });
});

describe("SegmentedPostings.save", () => {
  it("refuses postings that do not decode, or that hold another count than was written", () => {
    const filled = () => {
      const postings = new SegmentedPostings(4);
      for (let slot = 0; slot < 50; slot++) {
        postings.open();
        postings.add(`t${slot % 5}`, slot, 3, 1 + (slot % 3));
      }
      postings.compact();
      return postings;
    };
    expect(() => filled().save(new ByteWriter())).not.toThrow();
    const cut = filled();
    cut.baseBytes[cut.baseBytes.length - 1] = 0x80; // a varint that never ends
    expect(() => cut.save(new ByteWriter())).toThrow(/cut short/);
    const moved = filled();
    moved.baseBytes[0] = 0x10 * 40; // the first posting jumps to slot 39
    expect(() => moved.save(new ByteWriter())).toThrow(/holds another number of postings|repeats or goes back|past the end/);
  });
});
