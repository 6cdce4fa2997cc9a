import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { McpSearchError, createIndex, loadIndex, type IndexEntry, type IndexRanking } from "../../src/index.js";
import { setMinCompaction, setMinStepBytes } from "../../src/ranking/postings.js";

// German words too ("der", "und" name the language), so that the collection's main language,
// which decides whether a word reaches the compounds it starts, changes with the updates.
const WORDS = ["soja", "milho", "sojas", "producao", "produz", "agricola", "files", "file", "zip", "zipped", "de", "the", "Açúcar", "acucar", "der", "und", "platte", "plattenspeicher"];
const phrase = (max: number) => fc.array(fc.constantFrom(...WORDS), { maxLength: max }).map((words) => words.join(" "));
const longPhrase = (min: number, max: number) =>
  fc.array(fc.constantFrom(...WORDS), { minLength: min, maxLength: max }).map((words) => words.join(" "));
const ID_POOL = ["a", "b", "c", "d", "e", "f", "g", "h", "sidra:1", "soja"];
const entry = fc.record({
  id: fc.constantFrom(...ID_POOL),
  title: phrase(4),
  url: fc.constantFrom("https://example.org/a", "https://example.org/b"),
  keywords: fc.option(fc.array(phrase(2), { maxLength: 2 }), { nil: undefined }),
  // Long texts too: past BM25's lead (30 tokens) and passage (100 tokens), so updates switch its
  // lead and passage views on and off.
  text: fc.option(fc.oneof(phrase(12), longPhrase(25, 40), longPhrase(120, 160)), { nil: undefined }),
}).map(({ keywords, text, ...rest }): IndexEntry => ({ ...rest, ...(keywords && { keywords }), ...(text !== undefined && { text }) }));

type Step =
  | { readonly kind: "add" | "replace"; readonly entry: IndexEntry }
  | { readonly kind: "remove"; readonly id: string }
  | { readonly kind: "search"; readonly query: string }
  | { readonly kind: "slice" }
  | { readonly kind: "snapshot" };
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant("add" as const), entry }),
  fc.record({ kind: fc.constant("slice" as const) }),
  fc.record({ kind: fc.constant("snapshot" as const) }),
  fc.record({ kind: fc.constant("replace" as const), entry }),
  fc.record({ kind: fc.constant("remove" as const), id: fc.constantFrom(...ID_POOL) }),
  fc.record({ kind: fc.constant("search" as const), query: fc.oneof(phrase(3), fc.constantFrom("pro", "zip", "fil", "soj", "platte")) }),
);
const start = fc.uniqueArray(entry, { selector: (e) => e.id, maxLength: 6 });

/** The current entries in tie order: insertion order, a replaced entry keeping its place. */
function applyToList(list: IndexEntry[], s: Step): "ok" | "throws" {
  if (s.kind === "search" || s.kind === "slice" || s.kind === "snapshot") return "ok";
  const at = list.findIndex((e) => e.id === (s.kind === "remove" ? s.id : s.entry.id));
  if (s.kind === "add") {
    if (at !== -1) return "throws";
    list.push(s.entry);
  } else if (s.kind === "replace") {
    if (at === -1) return "throws";
    list[at] = s.entry;
  } else {
    if (at === -1) return "throws";
    list.splice(at, 1);
  }
  return "ok";
}

describe.each(["rule", "bm25"] as IndexRanking[])("index updates (%s)", (ranking) => {
  const previous = setMinCompaction(0);
  const previousStep = setMinStepBytes(1 << 16);
  afterAll(() => {
    setMinCompaction(previous);
    setMinStepBytes(previousStep);
  });

  it.each([
    ["with compaction after every update", 0, 1 << 16],
    ["with the delta segment kept", 1 << 30, 1 << 16],
    // Each step merges one term: searches, updates and snapshots meet every state of a job.
    ["with compactions in slices of one term", 0, 1],
  ])("search after any updates returns what a fresh createIndex over the current entries returns, %s", (_label, floor, stepBytes) => {
    setMinCompaction(floor);
    setMinStepBytes(stepBytes);
    fc.assert(
      fc.property(start, fc.array(step, { maxLength: 25 }), (initial, steps) => {
        const index = createIndex(initial, { ranking });
        const list = [...initial];
        for (const s of steps) {
          const expected = applyToList(list, s);
          const run = () => {
            if (s.kind === "add") index.add(s.entry);
            else if (s.kind === "replace") index.replace(s.entry);
            else if (s.kind === "remove") index.remove(s.id);
            else if (s.kind === "slice") index.compactStep();
            else if (s.kind === "snapshot") expect(loadIndex(index.snapshot()).search("soja pro", { limit: 100 })).toStrictEqual(createIndex(list, { ranking }).search("soja pro", { limit: 100 }));
          };
          if (expected === "throws") expect(run).toThrow(McpSearchError);
          else run();
          expect(index.size).toBe(list.length);
          if (s.kind !== "search") continue;
          const fresh = createIndex(list, { ranking });
          for (const limit of [3, 1000]) expect(index.search(s.query, { limit })).toStrictEqual(fresh.search(s.query, { limit }));
        }
        const fresh = createIndex(list, { ranking });
        for (const query of ["soja milho", "pro", "zip files", "acucar"]) {
          expect(index.search(query, { limit: 100 })).toStrictEqual(fresh.search(query, { limit: 100 }));
        }
        for (const e of list) expect(index.resolve(e.id)).toBe(fresh.resolve(e.id));
        // Slices to the end, then an explicit compaction, change nothing a search sees.
        for (let slices = 0; !index.compactStep(); slices++) expect(slices).toBeLessThan(10_000);
        for (let round = 0; round < 2; round++) {
          index.compact();
          for (const query of ["soja milho", "pro", "zip files", "acucar"]) {
            expect(index.search(query, { limit: 100 })).toStrictEqual(fresh.search(query, { limit: 100 }));
          }
        }
        expect(index.size).toBe(list.length);
      }),
      { numRuns: 150 },
    );
  });

  it("answers as a fresh build when entries are removed between the slices of a compaction and after its commit", () => {
    setMinCompaction(1 << 30);
    setMinStepBytes(1);
    const words = ["soja", "milho", "trigo", "cafe", "zip", "file", "producao", "arroz", "feijao", "cevada"];
    // Each entry's text starts with a word of its own, so BM25's lead view (one unit per entry,
    // numbered as the entry) tells the entries apart.
    const list = Array.from({ length: 30 }, (_, i): IndexEntry => ({
      id: `e${i}`,
      title: words[i % 10] as string,
      url: `https://example.org/${i}`,
      text: [`own${i}`, ...Array.from({ length: 140 }, (_, k) => words[(i + k * k) % 10])].join(" "),
    }));
    const index = createIndex([], { ranking });
    for (const e of list) index.add(e);
    const expectFresh = () => {
      const fresh = createIndex(list, { ranking });
      for (const query of ["own10", "own11", "own3", "own12 soja", "milho arroz", "zip", ...words]) expect(index.search(query, { limit: 50 })).toStrictEqual(fresh.search(query, { limit: 50 }));
    };
    // Removals and replacements land between the slices of a job, right after its commit (the
    // slots removed meanwhile still numbered, dead), and in the job after.
    for (let step = 0, round = 1; step < 600; step++) {
      index.compactStep();
      if (step % 20 !== 7) continue;
      const at = (step * 7) % list.length;
      if (round % 2 === 0) list.splice(at, 1).forEach((e) => index.remove(e.id));
      else {
        const replaced = { ...list[at]!, text: `own${round}b ${list[at]!.text}` };
        list[at] = replaced;
        index.replace(replaced);
      }
      round += 1;
      expectFresh();
    }
    index.compact();
    expectFresh();
  });

  it("answers from long delta runs (blocks chained past 4 KiB) as a fresh build does", () => {
    setMinCompaction(1 << 30);
    const entries = Array.from({ length: 3000 }, (_, i): IndexEntry => ({
      id: `e${i}`,
      title: i % 3 === 0 ? "soja milho" : "soja",
      url: `https://example.org/${i}`,
      text: `${"zip ".repeat(1 + (i % 40))} file${i % 7} producao`,
    }));
    const index = createIndex([], { ranking });
    for (const e of entries) index.add(e);
    for (let i = 0; i < 3000; i += 11) index.remove(`e${i}`);
    const current = entries.filter((_, i) => i % 11 !== 0);
    const fresh = createIndex(current, { ranking });
    for (const query of ["soja", "zip", "milho file3", "produ", "fil"]) {
      expect(index.search(query, { limit: 5000 })).toStrictEqual(fresh.search(query, { limit: 5000 }));
    }
    index.compact();
    for (const query of ["soja", "zip", "milho file3", "produ", "fil"]) {
      expect(index.search(query, { limit: 5000 })).toStrictEqual(fresh.search(query, { limit: 5000 }));
    }
  });

  it("keeps insertion order for ties, and the old place on replace", () => {
    const same = (id: string) => ({ id, title: "soja", url: `https://example.org/${id}` });
    const index = createIndex([same("a"), same("b")], { ranking });
    index.add(same("c"));
    index.replace(same("a"));
    index.remove("b");
    index.add(same("b"));
    expect(index.search("soja").map((hit) => hit.id)).toStrictEqual(["a", "c", "b"]);
  });

  it("throws McpSearchError naming the id for a duplicate add, an unknown remove or replace", () => {
    const index = createIndex([{ id: "a", title: "Soja", url: "https://example.org/a" }], { ranking });
    expect(() => index.add({ id: "a", title: "Milho", url: "https://example.org/a" })).toThrow(/Duplicate id "a"/);
    expect(() => index.remove("zz")).toThrow(McpSearchError);
    expect(() => index.remove("zz")).toThrow(/Cannot remove "zz"/);
    expect(() => index.replace({ id: "zz", title: "Milho", url: "https://example.org/z" })).toThrow(/Cannot replace "zz"/);
    expect(() => index.add({ id: "", title: "Milho", url: "https://example.org/z" })).toThrow(McpSearchError);
    expect(index.search("soja").map((hit) => hit.id)).toStrictEqual(["a"]);
    expect(index.size).toBe(1);
  });
});
