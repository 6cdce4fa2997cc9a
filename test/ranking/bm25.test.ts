import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BM25_DEFAULTS, LONG_STOPWORDS, bm25Tokens, createBm25Ranking, foldPlural, passageStarts, type Bm25Parameters } from "../../src/ranking/bm25.js";
import { McpSearchError, createIndex, type IndexEntry } from "../../src/index.js";
import { createIntentIndex } from "../../src/site/index.js";

/**
 * The BM25F formula of src/bm25.ts read literally: every entry, every field, every token, by a
 * plain scan with no postings.
 */
function oracleScores(entries: readonly IndexEntry[], query: string, parameters: Bm25Parameters): number[] {
  const { lead, leadWeight, passage, passageWeight } = parameters;
  const tokensOf = (entry: IndexEntry) => bm25Tokens(entry.text ?? "", parameters);
  const whole = collectionScores(entries.map((entry) => fieldsOf(entry, tokensOf(entry), parameters)), query, parameters);
  const leads = collectionScores(entries.map((entry) => fieldsOf(entry, tokensOf(entry).slice(0, lead), parameters)), query, parameters);
  const owner: number[] = [];
  const windows: string[][][] = [];
  entries.forEach((entry, e) => {
    const text = tokensOf(entry);
    // Literally: a window every W/2 tokens while the previous one has not reached the end.
    const step = Math.max(1, Math.floor(passage / 2));
    for (let from = 0; from === 0 || from - step + passage < text.length; from += step) {
      windows.push(fieldsOf(entry, text.slice(from, from + passage), parameters));
      owner.push(e);
    }
  });
  const passages = collectionScores(windows, query, parameters);
  return whole.map((score, e) => {
    const best = Math.max(0, ...passages.filter((_, p) => owner[p] === e));
    return score + leadWeight * leads[e]! + passageWeight * best;
  });
}

function fieldsOf(entry: IndexEntry, text: string[], parameters: Bm25Parameters): string[][] {
  return [
    bm25Tokens(entry.id, parameters),
    bm25Tokens(entry.title, parameters),
    (entry.keywords ?? []).flatMap((keyword) => bm25Tokens(keyword, parameters)),
    text,
  ];
}

/** BM25F over one collection of units (field token lists). */
function collectionScores(fieldTokens: readonly string[][][], query: string, parameters: Bm25Parameters): number[] {
  const entries = fieldTokens;
  const n = entries.length;
  const average = [0, 1, 2, 3].map((f) => fieldTokens.reduce((sum, fields) => sum + fields[f]!.length, 0) / n);
  const scores = entries.map(() => 0);
  /** Adds one query term's share: `count(tokens)` is its tf in a field, λ its weight. */
  const addTerm = (count: (tokens: readonly string[]) => number, weight: number) => {
    const tfs = fieldTokens.map((fields) =>
      fields.reduce((sum, tokens, f) => {
        if (tokens.length === 0) return sum;
        const norm = 1 - parameters.b[f]! + (parameters.b[f]! * tokens.length) / average[f]!;
        return sum + (parameters.weights[f]! * count(tokens)) / norm;
      }, 0),
    );
    const df = tfs.filter((tf) => tf > 0).length;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    tfs.forEach((tf, d) => (scores[d]! += (weight * idf * tf) / (parameters.k1 + tf)));
  };
  const words = bm25Tokens(query, parameters);
  for (const q of new Set(words)) {
    addTerm((tokens) => {
      const exact = tokens.filter((t) => t === q).length;
      const prefix = q.length >= 3 ? tokens.filter((t) => t !== q && t.startsWith(q)).length : 0;
      return exact + parameters.prefix * prefix;
    }, 1);
  }
  if (parameters.pairs === 0) return scores;
  // Each distinct pair of neighbouring query words, counted where the same two words stand side by side.
  const pairs = new Set(words.slice(1).map((second, i) => `${words[i]} ${second}`));
  for (const pair of pairs) {
    const [first, second] = pair.split(" ");
    addTerm((tokens) => tokens.filter((t, i) => i > 0 && tokens[i - 1] === first && t === second).length, parameters.pairs);
  }
  return scores;
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

const WORDS = ["zip", "zipfile", "file", "files", "filesystem", "read", "reader", "json", "schema", "populacao", "populacoes", "box", "boxes", "the"];
const text = fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }).map((words) => words.join(" "));
const entries = fc.uniqueArray(
  fc.record({ id: fc.string({ minLength: 1, maxLength: 8 }), title: text, keywords: fc.array(text, { maxLength: 2 }), text }),
  { minLength: 1, maxLength: 12, selector: (entry) => entry.id },
).map((list) => list.map((entry) => ({ ...entry, url: `https://example.org/${encodeURIComponent(entry.id)}` })));
const parameters = fc.record({
  k1: fc.constantFrom(0.5, 1.2, 2),
  weights: fc.tuple(fc.constantFrom(0, 0.5), fc.constantFrom(1, 3), fc.constantFrom(0, 1.5), fc.constantFrom(1, 2)),
  b: fc.tuple(fc.constantFrom(0, 0.5), fc.constantFrom(0, 0.5, 1), fc.constantFrom(0.5), fc.constantFrom(0.3, 0.75, 1)),
  prefix: fc.constantFrom(0, 0.3, 1),
  pairs: fc.constantFrom(0, 0.5, 1),
  fold: fc.boolean(),
  stopwords: fc.constantFrom(BM25_DEFAULTS.stopwords, LONG_STOPWORDS),
  lead: fc.constantFrom(0, 2, 5, 50),
  leadWeight: fc.constantFrom(0, 1),
  passage: fc.constantFrom(1, 3, 4, 200),
  passageWeight: fc.constantFrom(0, 0.5),
});

describe("foldPlural", () => {
  it.each([
    ["files", "file"], ["processes", "process"], ["libraries", "library"], ["boxes", "box"], ["matches", "match"],
    ["populacoes", "populacao"], ["versoes", "versao"], ["luzes", "luz"], ["tabelas", "tabela"],
    ["status", "status"], ["class", "class"], ["analysis", "analysis"], ["gas", "gas"], ["ies", "ies"], ["utf8s", "utf8s"],
  ])("folds %j to %j", (word, expected) => {
    expect(foldPlural(word)).toBe(expected);
  });

  it("is idempotent on the singulars it produces", () => {
    for (const word of ["files", "processes", "libraries", "boxes", "populacoes", "luzes"]) {
      expect(foldPlural(foldPlural(word))).toBe(foldPlural(word));
    }
  });
});

describe("passageStarts", () => {
  it.each([
    [0, 4, [0]], [4, 4, [0]], [5, 4, [0, 2]], [6, 4, [0, 2]], [7, 4, [0, 2, 4]], [3, 1, [0, 1, 2]],
  ])("cuts %i tokens into windows of %i starting at %j", (length, size, expected) => {
    expect(passageStarts(length, size)).toStrictEqual(expected);
  });
});

describe("createBm25Ranking", () => {
  it("scores every entry as the formula read literally does", () => {
    fc.assert(
      fc.property(entries, text, parameters, (list, query, params) => {
        const got = createBm25Ranking(list, params).scores(query);
        const want = oracleScores(list, query, params);
        want.forEach((score, e) => expect(close(got[e]!, score), `entry ${e}: ${got[e]} vs ${score}`).toBe(true));
      }),
      { numRuns: 300 },
    );
  });

  it("returns the scored entries best first, ties in collection order, within the limit", () => {
    fc.assert(
      fc.property(entries, text, fc.integer({ min: 0, max: 15 }), (list, query, limit) => {
        const want = oracleScores(list, query, BM25_DEFAULTS);
        const order = list.map((_, e) => e).filter((e) => want[e]! > 0);
        order.sort((a, b) => (close(want[a]!, want[b]!) ? a - b : want[b]! - want[a]!));
        const got = createIndex(list, { ranking: "bm25" }).search(query, { limit });
        expect(got.map((hit) => hit.id)).toStrictEqual(order.slice(0, limit).map((e) => list[e]!.id));
      }),
      { numRuns: 300 },
    );
  });
});

describe("createIndex with ranking bm25", () => {
  const readme = (id: string, title: string, body: string): IndexEntry => ({ id, title, url: `https://example.org/${id}`, text: body });

  it("ranks the document that repeats the query words above one that names them once in its id", () => {
    const index = createIndex([
      readme("doc:json-schema-tools.md", "Tools", "A list of tools."),
      readme("doc:ajv.md", "Ajv", "Ajv validates data against a JSON schema. Validate JSON with a schema compiled once; schema validation is fast."),
    ], { ranking: "bm25" });
    expect(index.search("validate json schema").map((hit) => hit.id)).toStrictEqual(["doc:ajv.md", "doc:json-schema-tools.md"]);
  });

  it("meets a plural query and a singular text, and a word-start prefix", () => {
    const index = createIndex([
      readme("a", "Archive", "Read a zip file from disk."),
      readme("b", "Other", "Nothing relevant here."),
    ], { ranking: "bm25" });
    expect(index.search("zip files")[0]?.id).toBe("a");
    expect(index.search("zi")).toStrictEqual([]);
    expect(index.search("arch")[0]?.id).toBe("a");
  });

  it("with word pairs on (off by default), ranks a text where the query words stand together above one where they stand apart", () => {
    const list = [
      readme("apart", "Notes", "Records of every kind, kept for each login."),
      readme("together", "Notes", "Every login records the user, kept for a while."),
    ];
    const ranked = (pairs: number) => createBm25Ranking(list, { ...BM25_DEFAULTS, pairs }).search("login records", 10).map((hit) => hit.id);
    expect(ranked(0.5)).toStrictEqual(["together", "apart"]);
    expect(ranked(0)).toStrictEqual(["apart", "together"]); // the same words: a tie, kept in collection order
  });

  it("keeps the rule as the default, and refuses an unknown ranking", () => {
    const list = [readme("doc:json.md", "Other", "json"), readme("x", "JSON JSON", "json json json")];
    expect(createIndex(list).search("json")[0]?.id).toBe("doc:json.md");
    expect(() => createIndex(list, { ranking: "tfidf" as never })).toThrow(McpSearchError);
    expect(() => createIndex([list[0]!, list[0]!], { ranking: "bm25" })).toThrow(/Duplicate id/);
  });

  it("resolves urls and applies the intent boost like the rule's index", () => {
    const list = [readme("page:/live", "Live", "live data"), readme("page:/old", "Archive", "live data archive")];
    const index = createIntentIndex(list, { now: ["page:/live"] }, { ranking: "bm25" });
    expect(index.resolve("example.org/page:/live")).toBe("page:/live");
    expect(index.search("live data right now")[0]?.id).toBe("page:/live");
    expect(index.size).toBe(2);
  });
});
