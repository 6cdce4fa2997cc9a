import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  McpSearchError,
  createIndex,
  type IndexEntry,
} from "../../src/index.js";
import {
  INTENT_WORDS,
  createIntentIndex,
  detectIntent,
  type IndexIntentOptions,
} from "../../src/site/index.js";

// The seed's server: one live page, and dated records that outscore it on the topic's words,
// so the default ranking buries the live page under them (the bug the seed shipped).
const DAYS = ["2026-08-18", "2026-08-19", "2026-08-20", "2026-08-21", "2026-08-24"];
const RECORDS: IndexEntry[] = DAYS.map((day) => ({
  id: `session:${day}`,
  title: `SPX gamma flip — ${day}`,
  url: `https://example.com/record/${day}`,
  keywords: ["SPX gamma flip", "fechamento"],
  text: `Where the SPX gamma flip closed on ${day}, and the call and put walls.`,
}));
const LIVE: IndexEntry = {
  id: "page:/live",
  title: "Live dealer positioning",
  url: "https://example.com/live",
  keywords: ["gamma flip", "SPX"],
  text: "The SPX dealer positioning as it stands, updated through the day.",
};
const METHOD: IndexEntry = {
  id: "page:/docs/methodology",
  title: "Methodology",
  url: "https://example.com/docs/methodology",
  text: "How the gamma flip is rebuilt from trades and quotes.",
};
// Records first in the collection, oldest first: ties keep this order, so "latest" has work to do.
const ENTRIES = [...RECORDS, LIVE, METHOD];
const NEWEST_FIRST = [...DAYS].reverse().map((day) => `session:${day}`);

const plain = createIndex(ENTRIES);
const ids = (index: ReturnType<typeof createIndex>, query: string, limit?: number) =>
  index.search(query, limit === undefined ? undefined : { limit }).map((hit) => hit.id);

const INTENTS: [string, IndexIntentOptions][] = [
  ["id lists", { now: ["page:/live"], latest: NEWEST_FIRST }],
  [
    "functions",
    {
      now: (entry) => entry.url.endsWith("/live"),
      latest: (entry) => (entry.id.startsWith("session:") ? entry.id.slice("session:".length) : undefined),
    },
  ],
];

describe("detectIntent", () => {
  it.each([
    ["where is the SPX gamma flip right now", { now: true, latest: false, rest: "where is the spx gamma flip" }],
    ["What's the flip at the moment?", { now: true, latest: false, rest: "what s the flip" }],
    ["SPX live", { now: true, latest: false, rest: "spx" }],
    ["gamma flip today", { now: true, latest: false, rest: "gamma flip" }],
    ["Currently", { now: true, latest: false, rest: "" }],
    ["latest gamma flip", { now: false, latest: true, rest: "gamma flip" }],
    ["the most recent record", { now: false, latest: true, rest: "the record" }],
    ["flip yesterday", { now: false, latest: true, rest: "flip" }],
    ["onde está o gamma flip agora", { now: true, latest: false, rest: "onde esta o gamma flip" }],
    ["gamma flip neste momento", { now: true, latest: false, rest: "gamma flip" }],
    ["Atualmente, o SPX", { now: true, latest: false, rest: "o spx" }],
    ["SPX ao vivo", { now: true, latest: false, rest: "spx" }],
    ["hoje", { now: true, latest: false, rest: "" }],
    ["ÚLTIMO fechamento", { now: false, latest: true, rest: "fechamento" }],
    ["fechamento mais recente", { now: false, latest: true, rest: "fechamento" }],
    ["flip de ontem", { now: false, latest: true, rest: "flip de" }],
    ["últimas sessões agora", { now: true, latest: true, rest: "sessoes" }],
    ["¿Dónde está el gamma flip ahora?", { now: true, latest: false, rest: "donde esta el gamma flip" }],
    ["gamma flip en este momento", { now: true, latest: false, rest: "gamma flip" }],
    ["Actualmente, el SPX", { now: true, latest: false, rest: "el spx" }],
    ["SPX en directo", { now: true, latest: false, rest: "spx" }],
    ["hoy", { now: true, latest: false, rest: "" }],
    ["Último cierre", { now: false, latest: true, rest: "cierre" }],
    ["cierre más reciente", { now: false, latest: true, rest: "cierre" }],
    ["flip de ayer", { now: false, latest: true, rest: "flip de" }],
    // whole words only: these hold an intent word inside another word
    ["knowledge nowcast lastly alive todays", { now: false, latest: false, rest: "knowledge nowcast lastly alive todays" }],
    ["agorafobia recentíssimo", { now: false, latest: false, rest: "agorafobia recentissimo" }],
    ["ahorro hoyo ayeres", { now: false, latest: false, rest: "ahorro hoyo ayeres" }],
    ["en este caso, el momento", { now: false, latest: false, rest: "en este caso el momento" }],
    ["", { now: false, latest: false, rest: "" }],
  ])("reads %j", (query, expected) => {
    expect(detectIntent(query)).toStrictEqual(expected);
  });

  it("reads one locale's words when given them", () => {
    expect(detectIntent("latest agora", INTENT_WORDS["pt-BR"])).toStrictEqual({ now: true, latest: false, rest: "latest" });
    expect(detectIntent("latest agora", INTENT_WORDS.en)).toStrictEqual({ now: false, latest: true, rest: "agora" });
    expect(detectIntent("latest agora ahora", INTENT_WORDS.es)).toStrictEqual({ now: true, latest: false, rest: "latest agora" });
  });

  it("exports both lists for both locales, the seed's words included", () => {
    expect(INTENT_WORDS.en.now).toEqual(expect.arrayContaining(["now", "currently", "right now", "at the moment", "live", "today"]));
    expect(INTENT_WORDS.en.latest).toEqual(expect.arrayContaining(["latest", "newest", "recent", "most recent", "last", "yesterday"]));
    expect(INTENT_WORDS["pt-BR"].now).toEqual(expect.arrayContaining(["agora", "atualmente", "neste momento", "hoje", "ao vivo"]));
    expect(INTENT_WORDS["pt-BR"].latest).toEqual(expect.arrayContaining(["último", "mais recente", "recente", "ontem"]));
    expect(INTENT_WORDS.es.now).toEqual(expect.arrayContaining(["ahora", "en este momento", "actualmente", "hoy"]));
    expect(INTENT_WORDS.es.latest).toEqual(expect.arrayContaining(["último", "más reciente", "ayer"]));
  });
});

describe("createIntentIndex", () => {
  it("buries the live page under dated records by default (the seed's bug)", () => {
    const order = ids(plain, "where is the SPX gamma flip right now");
    expect(order.indexOf("page:/live")).toBeGreaterThanOrEqual(3);
  });

  describe.each(INTENTS)("with %s", (_label, intent) => {
    const index = createIntentIndex(ENTRIES, intent);

    it.each([
      "where is the SPX gamma flip right now",
      "SPX gamma flip at the moment",
      "gamma flip today",
      "onde está o gamma flip do SPX agora",
      "gamma flip do SPX neste momento",
      "SPX ao vivo",
      "dónde está el gamma flip del SPX ahora",
      "gamma flip del SPX en este momento",
    ])("puts the live page first for %j, the rest in the default order", (query) => {
      const rest = ids(plain, query, 1000).filter((id) => id !== "page:/live");
      expect(ids(index, query, 1000)).toStrictEqual(["page:/live", ...rest]);
    });

    it.each(["latest SPX gamma flip", "most recent gamma flip", "gamma flip yesterday", "último fechamento do gamma flip", "gamma flip de ontem",
      "último cierre del gamma flip", "gamma flip de ayer"])(
      "puts the matched records newest first for %j, then the rest in the default order",
      (query) => {
        const rest = ids(plain, query, 1000).filter((id) => !id.startsWith("session:"));
        expect(ids(index, query, 1000)).toStrictEqual([...NEWEST_FIRST, ...rest]);
      },
    );

    it.each([
      ["right now", ["page:/live"]],
      ["agora", ["page:/live"]],
      ["latest", NEWEST_FIRST],
      ["o mais recente", NEWEST_FIRST],
      ["ahora", ["page:/live"]],
      ["más reciente", NEWEST_FIRST],
      ["latest, right now", ["page:/live", ...NEWEST_FIRST]],
    ])("answers %j, intent words only, with the intent's entries in their own order", (query, expected) => {
      expect(ids(index, query, 1000)).toStrictEqual(expected);
    });

    it("boosts only the intent's entries the topic matched", () => {
      // "methodology" matches no record and not the live page: nothing to hoist.
      expect(ids(index, "methodology right now")).toStrictEqual(ids(plain, "methodology right now"));
      expect(ids(index, "latest methodology")).toStrictEqual(["page:/docs/methodology"]);
    });

    it("applies the limit after the boost", () => {
      expect(ids(index, "where is the SPX gamma flip right now", 2)).toStrictEqual(["page:/live", ids(plain, "where is the SPX gamma flip right now", 1)[0]]);
      expect(ids(index, "latest", 2)).toStrictEqual(NEWEST_FIRST.slice(0, 2));
      expect(ids(index, "right now", 0)).toStrictEqual([]);
      expect(() => ids(index, "right now", -3)).toThrow("SearchIndex.search: `limit` must be a whole number, 0 or more (got -3).");
      expect(index.search("latest")).toHaveLength(NEWEST_FIRST.length);
    });
  });

  it("puts both groups first when both intents fire: now, then latest", () => {
    const index = createIntentIndex(ENTRIES, INTENTS[0]![1]);
    const query = "latest gamma flip right now";
    const rest = ids(plain, query, 1000).filter((id) => id !== "page:/live" && !id.startsWith("session:"));
    expect(ids(index, query, 1000)).toStrictEqual(["page:/live", ...NEWEST_FIRST, ...rest]);
  });

  it("keeps the intent's own order when no topic was named, even where the words matched a later entry", () => {
    // "live" is an intent word and also a word of the live page's title.
    const index = createIntentIndex(ENTRIES, { now: ["page:/docs/methodology", "page:/live"] });
    expect(ids(plain, "live")).toStrictEqual(["page:/live"]);
    expect(ids(index, "live")).toStrictEqual(["page:/docs/methodology", "page:/live"]);
  });

  it("changes nothing for an intent the option does not configure", () => {
    const nowOnly = createIntentIndex(ENTRIES, { now: ["page:/live"] });
    const latestOnly = createIntentIndex(ENTRIES, { latest: NEWEST_FIRST });
    expect(ids(nowOnly, "latest gamma flip")).toStrictEqual(ids(plain, "latest gamma flip"));
    expect(ids(latestOnly, "gamma flip right now")).toStrictEqual(ids(plain, "gamma flip right now"));
  });

  it("uses the given words instead of the defaults", () => {
    const index = createIntentIndex(ENTRIES, { now: ["page:/live"], words: { now: ["ahorita"], latest: [] } });
    expect(ids(index, "gamma flip ahorita")[0]).toBe("page:/live");
    expect(ids(index, "gamma flip right now")).toStrictEqual(ids(plain, "gamma flip right now"));
  });

  it("keeps its copy of the entries when the caller's array changes", () => {
    const entries = ENTRIES.map((entry) => ({ ...entry }));
    const index = createIntentIndex(entries, { now: ["page:/live"] });
    entries[RECORDS.length] = { ...LIVE, title: "changed" };
    expect(index.search("right now")).toStrictEqual([{ id: LIVE.id, title: LIVE.title, url: LIVE.url }]);
  });

  it.each([
    [{ now: ["page:/nope"] }, /intent\.now names the id "page:\/nope", which no entry has/],
    [{ latest: ["session:2026-08-24", "session:2026-08-24"] }, /intent\.latest names the id "session:2026-08-24" twice/],
    [{ latest: (entry: IndexEntry) => (entry.id === "page:/live" ? 1 : entry.id.startsWith("session:") ? entry.id : undefined) }, /keys must be all strings or all numbers/],
  ] as [IndexIntentOptions, RegExp][])("throws McpSearchError on misuse: %#", (intent, message) => {
    expect(() => createIntentIndex(ENTRIES, intent)).toThrow(McpSearchError);
    expect(() => createIntentIndex(ENTRIES, intent)).toThrow(message);
  });
});

describe("createIntentIndex leaves the default ranking alone", () => {
  const WORDS = ["spx", "gamma", "flip", "walls", "call", "fechamento", "methodology", "2026", "rebuilt", "de", "o", "where"];
  const queries = fc.array(fc.constantFrom(...WORDS), { maxLength: 5 }).map((words) => words.join(" "));

  it("ranks every query with no intent word exactly as the index without the option", () => {
    const boosted = INTENTS.map(([, intent]) => createIntentIndex(ENTRIES, intent));
    fc.assert(
      fc.property(queries, fc.constantFrom(undefined, 0, 1, 3, 1000), (query, limit) => {
        const options = limit === undefined ? undefined : { limit };
        for (const index of boosted) expect(index.search(query, options)).toStrictEqual(plain.search(query, options));
      }),
      { numRuns: 300 },
    );
  });

  it("ranks intent words as plain words when no intent option is given", () => {
    expect(createIndex(ENTRIES, {}).search("latest gamma flip right now")).toStrictEqual(plain.search("latest gamma flip right now"));
    expect(ids(plain, "right now")).toStrictEqual([]);
  });
});

describe("createIntentIndex: updates", () => {
  it("ranks after add, remove and replace as a fresh wrapper over the current entries", () => {
    const index = createIntentIndex(ENTRIES, { now: ["page:/live"], latest: NEWEST_FIRST });
    const extra: IndexEntry = { id: "page:/live2", title: "SPX gamma flip live board", url: "https://example.com/live2" };
    index.add(extra);
    index.remove("page:/live");
    const replaced = { ...ENTRIES[0]!, title: `${ENTRIES[0]!.title} rebuilt` };
    index.replace(replaced);
    const current = [replaced, ...ENTRIES.slice(1).filter((entry) => entry.id !== "page:/live"), extra];
    const fresh = createIntentIndex(current, { latest: NEWEST_FIRST.filter((id) => id !== "page:/live") });
    for (const query of ["gamma flip right now", "latest gamma flip", "right now", "latest", "rebuilt"]) {
      expect(index.search(query)).toStrictEqual(fresh.search(query));
    }
    expect(index.size).toBe(current.length);
    expect(index.has("page:/live")).toBe(false);
  });
});
