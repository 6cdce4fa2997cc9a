import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyzeQuery } from "../../src/ranking/analysis/analyze.js";
import { LANGUAGES, languageRules, type Language } from "../../src/languages/index.js";
import { createBm25Ranking } from "../../src/ranking/bm25/core.js";
import { entryTokens, leadOf, passageStarts } from "../../src/ranking/bm25/entry.js";
import { BM25_DEFAULTS, type Bm25Parameters } from "../../src/ranking/bm25/parameters.js";
import { McpSearchError, createIndex, loadIndex, type IndexEntry } from "../../src/index.js";
import { createIntentIndex } from "../../src/site/index.js";

/**
 * The BM25F formula of src/ranking/bm25/core.ts read literally: every entry, every field, every token,
 * by a plain scan with no postings, over the tokens the analysis gives (src/ranking/analysis/).
 */
function oracleScores(entries: readonly IndexEntry[], query: string, parameters: Bm25Parameters, expand?: (word: string) => readonly string[]): number[] {
  const { lead, leadWeight, passage, passageWeight, exactWeight } = parameters;
  const analysed = entries.map((entry) => entryTokens(entry, parameters));
  const held = LANGUAGES.filter((language) => analysed.some((entry) => entry.language === language));
  const groups = analyzeQuery(query, held.length > 0 ? held : [parameters.analysis.fallback], parameters.analysis, expand);
  const fieldsWith = (e: number, text: string[]) => [...analysed[e]!.fields.slice(0, 3), text];
  const wholeFields = entries.map((_, e) => analysed[e]!.fields);
  // A group reaches longer words when none of its forms scores anywhere as itself, or when it
  // holds a query word's form in the main language (most entries'), if that one reaches them.
  const exactly = collectionScores(wholeFields, groups.map((forms) => ({ forms, prefixes: false })), parameters, true);
  const counts = LANGUAGES.map((language) => analysed.filter((entry) => entry.languages.includes(language)).length);
  const main = counts.some((count) => count > 0) ? LANGUAGES[counts.indexOf(Math.max(...counts))]! : parameters.analysis.fallback;
  const reaching = new Set(languageRules(main).reachesLongerWords ? analyzeQuery(query, [main], parameters.analysis).flat() : []);
  const scored = groups.map((forms, g) => ({ forms, prefixes: !exactly.held[g] || forms.some((form) => reaching.has(form)) }));
  const whole = collectionScores(wholeFields, scored, parameters).scores;
  const leads = collectionScores(entries.map((_, e) => fieldsWith(e, leadOf(analysed[e]!.fields[3]!, lead))), scored, parameters).scores;
  const owner: number[] = [];
  const windows: string[][][] = [];
  entries.forEach((_, e) => {
    const text = analysed[e]!.fields[3]!;
    // Literally: a window every W tokens while the text goes on.
    for (let from = 0; from === 0 || from < text.length; from += Math.max(1, passage)) {
      // A text of one window is the entry itself; a longer one's windows hold its text alone.
      windows.push(text.length <= Math.max(1, passage) ? fieldsWith(e, text) : [[], [], [], text.slice(from, from + passage)]);
      owner.push(e);
    }
  });
  const passages = collectionScores(windows, scored, parameters).scores;
  const matched = collectionScores(wholeFields, scored, parameters).matched;
  // The exact-word view: the words as written (no plural folding, no stemmer), whole words only.
  const asWritten = analyzeQuery(query, held.length > 0 ? held : [parameters.analysis.fallback], { ...parameters.analysis, fold: false }, expand);
  const exact = collectionScores(analysed.map((entry) => entry.exact), asWritten.map((forms) => ({ forms, prefixes: false })), parameters).scores;
  return whole.map((score, e) => {
    const best = Math.max(0, ...passages.filter((_, p) => owner[p] === e));
    const coordination = parameters.coordination > 0 && groups.length > 1 ? (matched[e]! / groups.length) ** (parameters.coordination / (groups.length - 1) ** parameters.coordinationDecay) : 1;
    return (score + leadWeight * leads[e]! + passageWeight * best + exactWeight * exact[e]!) * coordination;
  });
}

/** BM25F over one collection of units (field token lists), for query groups; `held[g]`: some unit has tf~ > 0 for a form of group g. */
function collectionScores(fieldTokens: readonly string[][][], groups: readonly { forms: readonly string[]; prefixes: boolean }[], parameters: Bm25Parameters, exactOnly = false): { scores: number[]; held: boolean[]; matched: number[] } {
  const n = fieldTokens.length;
  const average = [0, 1, 2, 3].map((f) => fieldTokens.reduce((sum, fields) => sum + fields[f]!.length, 0) / n);
  const scores = fieldTokens.map(() => 0);
  const matched = fieldTokens.map(() => 0);
  const held = groups.map(({ forms, prefixes }) => {
    const tfsOf = (q: string) => fieldTokens.map((fields) =>
      fields.reduce((sum, tokens, f) => {
        if (tokens.length === 0) return sum;
        const norm = 1 - parameters.b[f]! + (parameters.b[f]! * tokens.length) / average[f]!;
        // A longer word that is itself a form of the group counts whole.
        const reaches = prefixes && !exactOnly && q.length >= 4;
        const exact = tokens.filter((t) => t === q || (reaches && forms.includes(t) && t.startsWith(q))).length;
        const prefix = reaches ? tokens.filter((t) => !forms.includes(t) && t.startsWith(q)).length : 0;
        return sum + (parameters.weights[f]! * (exact + parameters.prefix * prefix)) / norm;
      }, 0));
    const perForm = forms.map(tfsOf);
    const df = Math.max(...perForm.map((tfs) => tfs.filter((tf) => tf > 0).length));
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    // The group is one term: every token that is one of its forms counts 1, every other token
    // that starts with a form reaching longer words counts P, each token once.
    const reaching = prefixes && !exactOnly ? forms.filter((q) => q.length >= 4) : [];
    const groupTfs = fieldTokens.map((fields) =>
      fields.reduce((sum, tokens, f) => {
        if (tokens.length === 0) return sum;
        const norm = 1 - parameters.b[f]! + (parameters.b[f]! * tokens.length) / average[f]!;
        const exact = tokens.filter((t) => forms.includes(t)).length;
        const prefix = tokens.filter((t) => !forms.includes(t) && reaching.some((q) => t.startsWith(q))).length;
        return sum + (parameters.weights[f]! * (exact + parameters.prefix * prefix)) / norm;
      }, 0));
    scores.forEach((_, d) => (scores[d]! += (idf * groupTfs[d]!) / (parameters.k1 + groupTfs[d]!)));
    matched.forEach((_, d) => (matched[d]! += groupTfs[d]! > 0 ? 1 : 0));
    return df > 0;
  });
  return { scores, held, matched };
}

/** Expansions of some query words: words of the table, one of another script, and a phrase (which adds nothing). */
const EXPANSIONS: Readonly<Record<string, readonly string[]>> = { sour: ["source", "luz"], zip: ["files", "zip file"], ciudad: ["mensagens"], "東京": ["москва"] };
const expandWord = (word: string): readonly string[] => EXPANSIONS[word] ?? [];

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

const WORDS = [
  "zip", "zipfile", "file", "files", "filesystem", "read", "reader", "json", "schema", "populacao", "populacoes", "box", "boxes", "the",
  "sour", "source", "el", "la", "los", "ciudad", "ciudades", "luz", "luces", "do", "da", "nao", "mensagem", "mensagens", "ser", "serial",
  "東京", "地下鉄", "москва", "αθηνα",
];
const text = fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }).map((words) => words.join(" "));
const entries = fc.uniqueArray(
  fc.record({ id: fc.string({ minLength: 1, maxLength: 8 }), title: text, keywords: fc.array(text, { maxLength: 2 }), text }),
  { minLength: 1, maxLength: 12, selector: (entry) => entry.id },
).map((list) => list.map((entry) => ({ ...entry, url: `https://example.org/${encodeURIComponent(entry.id)}` })));
const language = fc.constantFrom<Language>(...LANGUAGES);
const parameters = fc.record({
  k1: fc.constantFrom(0.5, 1.2, 2),
  weights: fc.tuple(fc.constantFrom(0, 0.5), fc.constantFrom(1, 3), fc.constantFrom(0, 1.5), fc.constantFrom(1, 2)),
  b: fc.tuple(fc.constantFrom(0, 0.5), fc.constantFrom(0, 0.5, 1), fc.constantFrom(0.5), fc.constantFrom(0.3, 0.75, 1)),
  prefix: fc.constantFrom(0, 0.3, 1),
  coordination: fc.constantFrom(0, 1, 2),
  coordinationDecay: fc.constantFrom(1, 2),
  analysis: fc.record({ language: fc.oneof(fc.constant<"auto">("auto"), language), fallback: language, fold: fc.boolean(), segmentation: fc.constantFrom<"bigrams" | "words" | "both">("bigrams", "words", "both") }),
  lead: fc.constantFrom(0, 2, 5, 50),
  leadWeight: fc.constantFrom(0, 1),
  passage: fc.constantFrom(1, 3, 4, 200),
  passageWeight: fc.constantFrom(0, 0.5),
  exactWeight: fc.constantFrom(0, 0.6),
});

describe("passageStarts", () => {
  it.each([
    [0, 4, [0]], [4, 4, [0]], [5, 4, [0, 4]], [8, 4, [0, 4]], [9, 4, [0, 4, 8]], [3, 1, [0, 1, 2]], [250, 100, [0, 100, 200]],
  ])("cuts %i tokens into windows of %i starting at %j", (length, size, expected) => {
    expect(passageStarts(length, size)).toStrictEqual(expected);
  });
});

describe("leadOf", () => {
  it.each([
    // Fewer spaceless words than the length came first: the next ones join the lead.
    [["install", "the", "東京", "の", "地下鉄", "です"], 2, ["install", "the", "東京", "の"]],
    [["printer", "東京", "setup", "の", "地下鉄"], 2, ["printer", "東京", "の"]],
    // Enough came first, or there are none: the first tokens alone.
    [["東京", "の", "地下鉄", "です"], 2, ["東京", "の"]],
    [["one", "two", "three", "four"], 2, ["one", "two"]],
    [["สวัสดี", "hello", "ครับ"], 1, ["สวัสดี"]],
    [["hello", "world", "ครับ"], 1, ["hello", "ครับ"]],
  ])("%j, %i: %j", (text, length, expected) => {
    expect(leadOf(text, length)).toStrictEqual(expected);
  });

  it("lifts a Japanese word that opens the Japanese text of a page whose start was left in English", () => {
    const english = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
    const entries = [
      { id: "half", title: "a", url: "https://x.org/a", text: `${english}\n\n地下鉄の路線図を見る` },
      { id: "deep", title: "b", url: "https://x.org/b", text: `${english}\n\n${"駅の案内 ".repeat(40)}地下鉄` },
    ];
    const withLead = createBm25Ranking(entries, { ...BM25_DEFAULTS, passageWeight: 0, coordination: 0 });
    const without = createBm25Ranking(entries, { ...BM25_DEFAULTS, passageWeight: 0, coordination: 0, leadWeight: 0 });
    const [half, deep] = withLead.scores("地下鉄");
    const [halfWithout, deepWithout] = without.scores("地下鉄");
    // The first Japanese words are in the lead 40 tokens in; the 81st Japanese word is not.
    expect(half).toBeGreaterThan(halfWithout!);
    expect(deep).toBe(deepWithout);
  });
});

describe("createBm25Ranking", () => {
  it("scores every entry as the formula read literally does, with and without expansions", () => {
    fc.assert(
      fc.property(entries, text, parameters, fc.boolean(), (list, query, params, expanded) => {
        const expand = expanded ? expandWord : undefined;
        const got = createBm25Ranking(list, params).scores(query, expand);
        const want = oracleScores(list, query, params, expand);
        want.forEach((score, e) => expect(close(got[e]!, score), `entry ${e}: ${got[e]} vs ${score}`).toBe(true));
      }),
      { numRuns: 300 },
    );
  });

  it("returns the scored entries best first, within the limit", () => {
    fc.assert(
      fc.property(entries, text, fc.integer({ min: 0, max: 15 }), (list, query, limit) => {
        const want = oracleScores(list, query, BM25_DEFAULTS);
        const scored = list.map((_, e) => e).filter((e) => want[e]! > 0);
        const got = createIndex(list, { ranking: "bm25" }).search(query, { limit }).map((hit) => list.findIndex((e) => e.id === hit.id));
        expect(got.length).toBe(Math.min(limit, scored.length));
        // Best first: an entry after another scores no more, or the same up to rounding (the
        // oracle sums in another order, so two equal scores may differ in their last bits). Exact
        // ties keep collection order: "keeps insertion order for ties" (updates.test.ts) holds it.
        got.forEach((e, i) => {
          const next = got[i + 1];
          if (next !== undefined) expect(want[e]! > want[next]! || close(want[e]!, want[next]!)).toBe(true);
        });
        const last = got.at(-1);
        for (const e of scored) if (last !== undefined && !got.includes(e)) expect(want[e]! < want[last]! || close(want[e]!, want[last]!)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe("createIndex with ranking bm25", () => {
  const readme = (id: string, title: string, body: string): IndexEntry => ({ id, title, url: `https://example.org/${id}`, text: body });

  it("ranks the document that writes the query's word as the query does above one that holds another form of it more often", () => {
    const entries = [
      readme("doc:printers.md", "Printers", "Printer drivers come with the system; the drivers for new printers are updated with it."),
      readme("doc:devices.md", "Devices", "A device needs a driver: the program that lets the system talk to it."),
    ];
    const ids = (parameters: Bm25Parameters) => createBm25Ranking(entries, parameters).search("driver", 2).map((hit) => hit.id);
    expect(ids(BM25_DEFAULTS)).toStrictEqual(["doc:devices.md", "doc:printers.md"]);
    // Without the exact-word view, the stem alone ranks the page that repeats "drivers" first.
    expect(ids({ ...BM25_DEFAULTS, exactWeight: 0 })).toStrictEqual(["doc:printers.md", "doc:devices.md"]);
  });

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

describe("BM25's paragraphs in their own language", () => {
  // Italian stemming for the test: the library has none of its own, the folder server passes Snowball's.
  const stemmers = { name: "paragraphs-test", it: (word: string) => word.replace(/[aeio]$/, "") };
  const page = {
    id: "stampa",
    title: "Printing",
    url: "https://x.org/stampa",
    text: "The printer is shared by the team, and it prints the pages that are sent to it.\n\nIl documento della stampante: la stampante che non stampa nella rete, e anche come per gli uffici.",
  };

  it("reads a paragraph whose function words name another language in that language, and the rest in the page's", () => {
    const { language, languages, fields } = entryTokens(page, { analysis: { ...BM25_DEFAULTS.analysis, stemmers } });
    expect(language).toBe("en");
    expect(languages).toStrictEqual(["en", "it"]);
    expect(fields[3]).toContain("stampant");
    expect(fields[3]).toContain("printer");
    // One paragraph, or a fixed language: the page's language throughout.
    expect(entryTokens({ ...page, text: page.text.replace("\n\n", " ") }, { analysis: { ...BM25_DEFAULTS.analysis, stemmers } }).languages).toStrictEqual(["en"]);
    expect(entryTokens(page, { analysis: { ...BM25_DEFAULTS.analysis, stemmers, language: "en" } }).languages).toStrictEqual(["en"]);
  });

  it("reads a query in the paragraphs' languages too, through a snapshot, until the page is removed", () => {
    const other = { id: "net", title: "Network", url: "https://x.org/net", text: "The network of the office is shared by the team and it is fast." };
    const index = createIndex([page, other], { ranking: "bm25", stemmers });
    expect(index.search("stampanti").map((hit) => hit.id)).toStrictEqual(["stampa"]);
    const loaded = loadIndex(index.snapshot(), { stemmers });
    expect(loaded.search("stampanti").map((hit) => hit.id)).toStrictEqual(["stampa"]);
    const { matcher } = loaded.searchWithMatcher("stampanti");
    expect(matcher.findMatches(page.text, "stampa").map(({ start, end }) => page.text.slice(start, end))).toStrictEqual(["stampante", "stampante"]);
    loaded.remove("stampa");
    loaded.add({ ...page, id: "printing", text: "The printer stampante of the team" });
    // Italian is no longer held: "stampanti" is read in English only, and meets nothing.
    expect(loaded.search("stampanti")).toStrictEqual([]);
  });
});
