import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { McpSearchError, createIndex, loadIndex, type IndexEntry, type IndexRanking } from "../../src/index.js";
import { ByteWriter } from "../../src/ranking/bytes.js";
import { SegmentedPostings } from "../../src/ranking/postings.js";
import { checksum } from "../../src/ranking/snapshot.js";

const WORDS = ["soja", "milho", "sojas", "producao", "produz", "files", "file", "zip", "zipped", "de", "the", "Açúcar", "acucar"];
const phrase = (min: number, max: number) => fc.array(fc.constantFrom(...WORDS), { minLength: min, maxLength: max }).map((words) => words.join(" "));
const ID_POOL = ["a", "b", "c", "d", "e", "f", "sidra:1", "soja", "ç\ud800"];
const entry = fc.record({
  id: fc.constantFrom(...ID_POOL),
  title: phrase(0, 4),
  url: fc.constantFrom("https://example.org/a", "https://example.org/b"),
  keywords: fc.option(fc.array(phrase(0, 2), { maxLength: 2 }), { nil: undefined }),
  // Past BM25's lead and passage lengths, and words repeated past 15 (a posting's explicit form).
  text: fc.option(fc.oneof(phrase(0, 12), phrase(120, 160), fc.constantFrom("zip ".repeat(40), "soja ".repeat(70000))), { nil: undefined }),
}).map(({ keywords, text, ...rest }): IndexEntry => ({ ...rest, ...(keywords && { keywords }), ...(text !== undefined && { text }) }));
const entries = fc.uniqueArray(entry, { selector: (e) => e.id, maxLength: 7 });
const QUERIES = ["soja milho", "pro", "zip files", "acucar", "fil", "de", "sidra"];

/** A copy of `bytes` with a valid checksum again, after `change` edited it. */
function forged(bytes: Uint8Array, change: (copy: Uint8Array) => void): Uint8Array {
  const copy = bytes.slice();
  change(copy);
  new DataView(copy.buffer).setUint32(copy.length - 4, checksum(copy, copy.length - 4), true);
  return copy;
}

describe.each(["rule", "bm25"] as IndexRanking[])("loadIndex (%s)", (ranking) => {
  it("gives back an index that answers exactly as the one snapshotted, after any updates, and updates the same way after", () => {
    fc.assert(
      fc.property(entries, entries, fc.array(fc.constantFrom(...ID_POOL), { maxLength: 3 }), (initial, added, removed) => {
        const index = createIndex(initial, { ranking });
        for (const e of added) (index.has(e.id) ? index.replace(e) : index.add(e));
        for (const id of removed) if (index.has(id)) index.remove(id);
        const loaded = loadIndex(index.snapshot());
        expect(loaded.size).toBe(index.size);
        for (const query of QUERIES) expect(loaded.search(query, { limit: 100 })).toStrictEqual(index.search(query, { limit: 100 }));
        for (const id of ID_POOL) expect(loaded.resolve(id)).toBe(index.resolve(id));
        const late: IndexEntry = { id: "late", title: "soja zip", url: "https://example.org/late", text: "milho files" };
        loaded.add(late);
        index.add(late);
        for (const query of QUERIES) expect(loaded.search(query, { limit: 100 })).toStrictEqual(index.search(query, { limit: 100 }));
      }),
      { numRuns: Number(process.env["SNAPSHOT_RUNS"] ?? 40) },
    );
  });

  it("is the same bytes for the same entries, and the index stays usable after it", () => {
    const list: IndexEntry[] = [{ id: "a", title: "Zip files", url: "https://x.org/a", text: "zip ".repeat(30) }];
    const index = createIndex(list, { ranking });
    expect(index.snapshot()).toStrictEqual(createIndex(list, { ranking }).snapshot());
    index.add({ id: "b", title: "Zip archive", url: "https://x.org/b" });
    expect(index.search("zip").map((hit) => hit.id)).toStrictEqual(["a", "b"]);
  });

  it("never trusts its bytes: any byte changed, checksum forged or not, is refused with McpSearchError or loads an index that still answers", () => {
    const index = createIndex(
      [
        { id: "a", title: "Zip files", url: "https://x.org/a", keywords: ["archive"], text: "zip files ".repeat(80) },
        { id: "b", title: "Soja", url: "https://x.org/b", text: "soja milho" },
      ],
      { ranking },
    );
    const bytes = index.snapshot();
    fc.assert(
      fc.property(fc.nat(bytes.length - 5), fc.integer({ min: 1, max: 255 }), fc.boolean(), (at, xor, forge) => {
        const changed = forge ? forged(bytes, (copy) => void (copy[at]! ^= xor)) : bytes.slice();
        if (!forge) changed[at]! ^= xor;
        let loaded;
        try {
          loaded = loadIndex(changed);
        } catch (error) {
          expect(error).toBeInstanceOf(McpSearchError);
          return;
        }
        expect(forge).toBe(true);
        for (const query of QUERIES) expect(() => loaded.search(query)).not.toThrow();
      }),
      { numRuns: 400 },
    );
  });

  it("refuses every single byte flipped, each at its own turn, the checksum's own bytes included", () => {
    const bytes = createIndex([{ id: "a", title: "Zip files", url: "https://x.org/a", text: "zip files soja" }], { ranking }).snapshot();
    for (let at = 0; at < bytes.length; at++) {
      for (const xor of [0x01, 0x80]) {
        const changed = bytes.slice();
        changed[at]! ^= xor;
        expect(() => loadIndex(changed), `byte ${at} ^ ${xor}`).toThrow(McpSearchError);
      }
    }
  });
});

describe("loadIndex", () => {
  const bytes = createIndex([{ id: "a", title: "Zip", url: "https://x.org/a" }], { ranking: "bm25" }).snapshot();
  it.each([
    ["a string", "MCPSIDX", /needs the Uint8Array that index\.snapshot\(\) returned, not string/],
    ["foreign bytes", new TextEncoder().encode("PK\u0003\u0004 not an index at all"), /not an index snapshot of @sbissoli\/mcp-search/],
    ["a cut-short snapshot", bytes.slice(0, bytes.length - 9), /corrupt: its checksum does not match/],
    ["a flipped byte", forged(bytes, () => undefined).map((byte, i) => (i === 30 ? byte ^ 4 : byte)), /corrupt: its checksum does not match/],
    ["another format version", forged(bytes, (copy) => void new DataView(copy.buffer).setUint32(8, 999, true)), /format version 999; this version of @sbissoli\/mcp-search reads version 2/],
    ["a duplicate id", forged(createIndex([{ id: "ab", title: "x", url: "u" }, { id: "ac", title: "x", url: "u" }]).snapshot(), (copy) => {
      const at = Buffer.from(copy).indexOf("abac"); // the ids' blob
      copy[at + 3] = 0x62;
    }), /corrupt: the id "ab" appears twice/],
  ])("refuses %s with a message naming what is wrong", (_label, input, message) => {
    expect(() => loadIndex(input as Uint8Array)).toThrow(McpSearchError);
    expect(() => loadIndex(input as Uint8Array)).toThrow(message);
  });

  it("refuses a snapshot ranked with other settings", () => {
    const text = new TextDecoder().decode(bytes);
    const at = text.indexOf('"k1":1.2');
    const other = forged(bytes, (copy) => void (copy[at + 7] = "3".charCodeAt(0)));
    expect(() => loadIndex(other)).toThrow(/ranked with other "bm25" settings/);
  });
});

/** FNV-1a over little-endian 32-bit words, the last one padded with zeros, written plainly. */
function plainChecksum(bytes: readonly number[]): number {
  let hash = 0x811c9dc5;
  for (let at = 0; at < bytes.length; at += 4) {
    const word = (bytes[at] ?? 0) + (bytes[at + 1] ?? 0) * 0x100 + (bytes[at + 2] ?? 0) * 0x10000 + (bytes[at + 3] ?? 0) * 0x1000000;
    hash = Math.imul(hash ^ word, 0x01000193);
  }
  return hash >>> 0;
}

/** A snapshot written by hand: the magic, `version`, `strings` and `rest`, then a valid checksum. */
function handmade(strings: readonly string[], rest: readonly number[] = [], version = 2): Uint8Array {
  const writer = new ByteWriter();
  for (const byte of [0x4d, 0x43, 0x50, 0x53, 0x49, 0x44, 0x58, 0x00]) writer.u8(byte);
  writer.u32(version);
  writer.strings(strings);
  for (const byte of rest) writer.u8(byte);
  writer.u32(checksum(writer.result(), writer.length));
  return writer.result().slice();
}

describe("the snapshot's checks at their boundaries", () => {
  it.each([[[]], [[1]], [[1, 2, 3]], [[1, 2, 3, 4]], [[0xff, 0xfe, 0xfd, 0xfc, 0x80]], [[9, 8, 7, 6, 5, 4, 3, 2]], [[200, 100, 50, 25, 12, 6, 3]]])(
    "checksum(%j) is FNV-1a over its little-endian words, the last one padded",
    (bytes) => {
      expect(checksum(new Uint8Array(bytes), bytes.length)).toBe(plainChecksum(bytes));
    },
  );

  it("checksums only the first `length` bytes", () => {
    expect(checksum(new Uint8Array([1, 2, 3, 4, 5, 6]), 5)).toBe(plainChecksum([1, 2, 3, 4, 5]));
  });

  it("refuses bytes too short to hold a header and a checksum, and reads the shortest that can", () => {
    const header = [0x4d, 0x43, 0x50, 0x53, 0x49, 0x44, 0x58, 0x00, 2, 0, 0, 0];
    const shortest = new Uint8Array([...header, 0, 0, 0, 0]);
    new DataView(shortest.buffer).setUint32(12, checksum(shortest, 12), true);
    expect(() => loadIndex(shortest)).toThrow(/^The index snapshot is corrupt: /);
    expect(() => loadIndex(shortest.subarray(0, 15))).toThrow("These bytes are not an index snapshot of @sbissoli/mcp-search (no MCPSIDX header).");
  });

  it("refuses a ranking it does not know, naming it", () => {
    expect(() => loadIndex(handmade(["cosine", ""]))).toThrow(new McpSearchError('The index snapshot has an unknown ranking "cosine".'));
    expect(() => loadIndex(handmade([]))).toThrow(new McpSearchError('The index snapshot has an unknown ranking "".'));
  });

  it("refuses bytes after the last part", () => {
    const bytes = createIndex([{ id: "a", title: "Zip", url: "https://x.org/a" }]).snapshot();
    const longer = new Uint8Array(bytes.length + 1);
    longer.set(bytes.subarray(0, bytes.length - 4));
    new DataView(longer.buffer).setUint32(longer.length - 4, checksum(longer, longer.length - 4), true);
    expect(() => loadIndex(longer)).toThrow(new McpSearchError("The index snapshot is corrupt: it has bytes after its last part."));
  });

  it("opens a BM25 snapshot with the languages it was made with", () => {
    const entries = [{ id: "a", title: "Produções de soja", url: "https://x.org/a", text: "as produções cresceram" }];
    for (const options of [{ language: "pt" }, { language: "es", fallbackLanguage: "pt" }, { fallbackLanguage: "es" }] as const) {
      const index = createIndex(entries, { ranking: "bm25", ...options });
      expect(loadIndex(index.snapshot()).search("producao"), JSON.stringify(options)).toStrictEqual(index.search("producao"));
    }
  });

  it.each([
    ['"language":"auto"', '"language":"aut0"'],
    ['"fallback":"en"', '"fallback":"eX"'],
  ])("refuses a BM25 snapshot whose settings name a language it does not know (%s as %s)", (written, forgedAs) => {
    const bytes = createIndex([{ id: "a", title: "Zip", url: "https://x.org/a" }], { ranking: "bm25" }).snapshot();
    const at = new TextDecoder().decode(bytes).indexOf(written);
    const other = forged(bytes, (copy) => copy.set(new TextEncoder().encode(forgedAs), at));
    expect(() => loadIndex(other)).toThrow(/^The index snapshot was ranked with other "bm25" settings/);
  });

  it("gives bytes that own their buffer, nothing past their end", () => {
    const bytes = createIndex([{ id: "a", title: "Zip", url: "https://x.org/a" }]).snapshot();
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(bytes.length);
  });

  it("refuses to save an index whose parts cannot be written, naming why", () => {
    const index = createIndex([{ id: "a", title: "Zip", url: "https://x.org/a" }]);
    const save = vi.spyOn(SegmentedPostings.prototype, "save").mockImplementation(() => {
      throw new Error("a posting out of order");
    });
    try {
      expect(() => index.snapshot()).toThrow(new McpSearchError("The index cannot be saved: a posting out of order; build it again from its entries."));
      save.mockImplementation(() => {
        throw new McpSearchError("already a library error");
      });
      expect(() => index.snapshot()).toThrow(new McpSearchError("already a library error"));
      save.mockImplementation(() => {
        throw "a string";
      });
      expect(() => index.snapshot()).toThrow(new McpSearchError("The index cannot be saved: a string; build it again from its entries."));
    } finally {
      save.mockRestore();
    }
  });
});
