import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_LIMIT,
  McpSearchError,
  createIndex,
  normalizeText,
  tokenize,
  type IndexEntry,
  type SearchOptions,
} from "../../src/index.js";
import { ByteReader } from "../../src/ranking/bytes.js";

/**
 * The rule, read literally (README "How ranking works"): per query token, the weighted field
 * hits; an entry covers the token when that sum is above 0, and then gets +10; the +5 phrase
 * bonus is added only to an entry that covers at least one token; entries scoring 0 are
 * dropped; stable sort. Returns the scores too.
 */
function plainScan(entries: readonly IndexEntry[], query: string): { id: string; title: string; url: string; score: number }[] {
  const tokens = tokenize(query);
  const phrase = normalizeText(query);
  if (tokens.length === 0) return [];
  return entries
    .map(({ id, title, url, keywords = [], text = "" }) => {
      const fields: [number, string[]][] = [[10, tokenize(id)], [3, tokenize(title)], [2, keywords.flatMap(tokenize)], [1, tokenize(text)]];
      let weighted = 0;
      let covered = 0;
      for (const token of tokens) {
        let sum = 0;
        for (const [weight, words] of fields) {
          const exact = words.includes(token) || (weight === 10 && normalizeText(id) === token);
          const prefix = token.length >= 3 && words.some((word) => word.startsWith(token));
          sum += weight * (exact ? 1 : prefix ? 0.5 : 0);
        }
        if (sum > 0) {
          weighted += sum;
          covered += 1;
        }
      }
      let score = weighted + 10 * covered;
      if (covered > 0 && phrase.length >= 3 && normalizeText(title).includes(phrase)) score += 5;
      return { id, title, url, score };
    })
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score); // Array.prototype.sort is stable: ties keep collection order
}

function plainSearch(entries: readonly IndexEntry[], query: string, options?: SearchOptions) {
  const limit = Math.max(0, Math.floor(options?.limit ?? 10));
  return plainScan(entries, query)
    .slice(0, Number.isNaN(limit) ? 0 : limit)
    .map(({ id, title, url }) => ({ id, title, url }));
}

const entry = (id: string, title: string, extra: Partial<IndexEntry> = {}): IndexEntry => ({
  id,
  title,
  url: `https://example.org/${id}`,
  ...extra,
});

describe("normalizeText", () => {
  it.each([
    ["População", "populacao"],
    ["  Produção   de\tSOJA \n", "producao de soja"],
    ["São Paulo (SP)", "sao paulo (sp)"],
    ["Ação—Çedilha", "acao—cedilha"],
    ["", ""],
  ])("normalizes %j to %j", (input, expected) => {
    expect(normalizeText(input)).toBe(expected);
  });

  it("is idempotent", () => {
    fc.assert(fc.property(fc.string({ unit: "grapheme" }), (text) => normalizeText(normalizeText(text)) === normalizeText(text)));
  });
});

describe("tokenize", () => {
  it.each([
    ["Produção de soja e de milho no Paraná", ["producao", "soja", "milho", "parana"]],
    ["PIB a preços de 2010", ["pib", "precos", "2010"]],
    ["sidra:6579", ["sidra", "6579"]],
    ["The price of oil in Brazil and for the USA by sea", ["price", "oil", "brazil", "usa", "sea"]],
    ["soja, SOJA; Soja", ["soja"]],
    ["a o as os um uma uns umas de da do das dos e em no na nos nas ao aos por para com sem que ou", []],
    ["x y 1 2 ab", ["ab"]],
    ["", []],
  ])("tokenizes %j to %j", (input, expected) => {
    expect(tokenize(input)).toStrictEqual(expected);
  });

  it("keeps distinct [a-z0-9]{2,} tokens only", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        const tokens = tokenize(text);
        return tokens.every((token) => /^[a-z0-9]{2,}$/.test(token)) && new Set(tokens).size === tokens.length;
      }),
    );
  });
});

// The worked example of README "How ranking works": these scores are quoted there.
const README_ENTRIES: IndexEntry[] = [
  entry("sidra:1612", "Produção agrícola municipal: lavouras temporárias", { keywords: ["soja", "milho"] }),
  entry("cnae:0115600", "Cultivo de soja"),
  entry("soja", "Soja em grão: série histórica", { text: "Produção anual de soja" }),
  entry("cnae:1041400", "Fabricação de óleos vegetais, exceto óleo de milho", { text: "inclui óleo de soja" }),
  entry("ibge:pam-soja", "Produção de soja por município"),
];

describe("createIndex", () => {
  it("scores the README's worked example as documented", () => {
    expect(plainScan(README_ENTRIES, "produção de soja").map(({ id, score }) => [id, score])).toStrictEqual([
      ["ibge:pam-soja", 41],
      ["soja", 35],
      ["sidra:1612", 25],
      ["cnae:0115600", 13],
      ["cnae:1041400", 11],
    ]);
    expect(createIndex(README_ENTRIES).search("produção de soja").map(({ id }) => id)).toStrictEqual([
      "ibge:pam-soja",
      "soja",
      "sidra:1612",
      "cnae:0115600",
      "cnae:1041400",
    ]);
  });

  it.each<[string, IndexEntry[], string, string[]]>([
    ["ranks an id match above a title match", [entry("a", "Soja"), entry("soja", "Outro")], "soja", ["soja", "a"]],
    // The titles below never hold the query as a phrase, so the phrase bonus cannot decide the order: the weights do.
    ["ranks a title match above a keyword match", [entry("a", "x", { keywords: ["soja e milho"] }), entry("b", "soja e milho")], "milho soja", ["b", "a"]],
    ["ranks a keyword match above a text match", [entry("a", "x", { text: "milho" }), entry("b", "y", { keywords: ["milho"] })], "milho", ["b", "a"]],
    ["ranks an exact match above a prefix match", [entry("a", "Sojas"), entry("b", "Soja")], "soja", ["b", "a"]],
    ["matches a prefix from 3 characters on", [entry("a", "Paraná")], "par", ["a"]],
    ["ignores a 2-character prefix", [entry("a", "Paraná")], "pa", []],
    ["ranks two covered tokens above one strong one", [entry("soja", "x"), entry("b", "milho soja")], "soja milho", ["b", "soja"]],
    ["matches the whole normalised id", [entry("6579", "Tabela"), entry("sidra:6579", "Tabela")], "6579", ["6579", "sidra:6579"]],
    ["ignores accents and case", [entry("a", "PRODUÇÃO")], "producao", ["a"]],
    ["keeps the collection's order on ties", [entry("c", "soja"), entry("a", "soja"), entry("b", "soja")], "soja", ["c", "a", "b"]],
    ["never matches on the phrase bonus alone", [entry("a", "Sojas"), entry("b", "Cultivo de soja")], "oja", []],
    ["never matches a phrase inside a stopword of the title", [entry("a", "Máquinas para lavoura"), entry("b", "Nada")], "par", []],
    ["never matches a phrase ending inside a stopword of the title", [entry("a", "Máquinas (para lavoura)")], "s (par", []],
    ["adds the phrase bonus to an entry that covers a token", [entry("a", "Soja e milho"), entry("b", "Milho e soja")], "milho e soja", ["b", "a"]],
    ["keeps the phrase bonus off a query found inside a longer word", [entry("a", "Aragoiânia"), entry("b", "Goiânia")], "goiania", ["b"]],
    ["returns nothing for an empty query", [entry("a", "Soja")], "   ", []],
    ["returns nothing for stopwords only", [entry("a", "de soja")], "de a para", []],
    ["returns nothing without a match", [entry("a", "Soja")], "trigo", []],
    ["ranks in an empty collection", [], "soja", []],
  ])("%s", (_name, entries, query, ids) => {
    expect(createIndex(entries).search(query).map(({ id }) => id)).toStrictEqual(ids);
  });

  it.each<[string, string, string]>([
    ["goiania", "Aragoiânia", "Goiânia"],
    ["curi", "Bacuri", "Curitiba"],
    ["itaú", "Jitaúna", "Itaúna"],
    ["psicólogo", "Neuropsicólogo", "Psicólogo clínico"],
    ["srcset", "imagesrcset", "srcset attribute"],
  ])("never returns %j inside a longer word (%s), only where a token matches (%s)", (query, inside, covering) => {
    const index = createIndex([entry("inside", inside), entry("covering", covering)]);
    expect(index.search(query).map(({ id }) => id)).toStrictEqual(["covering"]);
    expect(createIndex([entry("inside", inside)]).search(query)).toStrictEqual([]);
  });

  it("returns { id, title, url } only", () => {
    const index = createIndex([entry("a", "Soja", { keywords: ["grão"], text: "texto" })]);
    expect(index.search("soja")).toStrictEqual([{ id: "a", title: "Soja", url: "https://example.org/a" }]);
    expect(index.size).toBe(1);
  });

  it.each<[SearchOptions | undefined, number]>([
    [undefined, DEFAULT_LIMIT],
    [{}, 10],
    [{ limit: 3 }, 3],
    [{ limit: 0 }, 0],
    [{ limit: 5000 }, 25],
  ])("applies the limit %j", (options, count) => {
    const entries = Array.from({ length: 25 }, (_, i) => entry(`e${i}`, `Soja ${i}`));
    expect(createIndex(entries).search("soja", options)).toHaveLength(count);
    expect(createIndex(entries).searchWithTotal("soja", options).results).toHaveLength(count);
  });

  it.each([2.9, -5, Number.NaN, Number.POSITIVE_INFINITY, "3"])("refuses the limit %s, as every limit of the library", (limit) => {
    const index = createIndex([entry("a", "Soja")]);
    const options = { limit } as unknown as SearchOptions;
    expect(() => index.search("soja", options)).toThrow(McpSearchError);
    expect(() => index.search("soja", options)).toThrow("SearchIndex.search: `limit` must be a whole number, 0 or more (got ");
    expect(() => index.searchWithTotal("soja", options)).toThrow("SearchIndex.searchWithTotal: `limit` must be a whole number");
    expect(() => index.searchWithMatcher("soja", options)).toThrow("SearchIndex.searchWithMatcher: `limit` must be a whole number");
  });

  it("throws McpSearchError naming a duplicate id", () => {
    const build = () => createIndex([entry("a", "A"), entry("sidra:1", "B"), entry("sidra:1", "C")]);
    expect(build).toThrow(McpSearchError);
    expect(build).toThrow('Duplicate id "sidra:1" in the index (entries 1 and 2)');
  });

  it("throws McpSearchError naming an entry without a string field", () => {
    const broken = [entry("a", "A"), { id: "b", url: "https://x" } as unknown as IndexEntry];
    expect(() => createIndex(broken)).toThrow(/Index entry 1 has no string "title"/);
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ["a text that is not a string", { text: 42 }, /^Index entry 1 has "text" of type number/],
    ["a null text", { text: null }, /^Index entry 1 has "text" of type null/],
    ["a keyword that is not a string", { keywords: ["soja", 7] }, /^Index entry 1 has "keywords\[1\]" of type number/],
    ["keywords given as a string", { keywords: "soja" }, /^Index entry 1 has "keywords" of type string: it must be an array of strings/],
    ["keywords given as an object", { keywords: { 0: "soja" } }, /^Index entry 1 has "keywords" of type object/],
    ["an empty id", { id: "" }, /^Index entry 1 has an empty "id"/],
  ])("throws McpSearchError naming the entry and the field for %s", (_name, fields, message) => {
    const broken = [entry("a", "A"), { ...entry("b", "B"), ...fields } as unknown as IndexEntry];
    expect(() => createIndex(broken)).toThrow(McpSearchError);
    expect(() => createIndex(broken)).toThrow(message);
  });

  it("copies what it needs: later changes to the input do not reach the index", () => {
    const keywords = ["milho"];
    const entries: IndexEntry[] = [entry("a", "Soja", { keywords })];
    const index = createIndex(entries);
    const before = index.search("soja milho");
    (entries[0] as { title: string }).title = "Trigo";
    keywords.push("trigo");
    entries.push(entry("b", "Soja"));
    expect(index.search("soja milho")).toStrictEqual(before);
    expect(index.search("trigo")).toStrictEqual([]);
    expect(index.size).toBe(1);
  });

  it("returns the same results on every call", () => {
    const index = createIndex(README_ENTRIES);
    const first = index.search("soja milho", { limit: 3 });
    expect(index.search("óleo")).not.toStrictEqual(first);
    expect(index.search("soja milho", { limit: 3 })).toStrictEqual(first);
    expect(createIndex(README_ENTRIES).search("soja milho", { limit: 3 })).toStrictEqual(first);
  });

  // Words chosen to collide: prefixes (soj/soja/sojas), infixes (oja, ana/santana), stopwords
  // holding non-stopwords (para/par, uma/ma), accents, digits, ids equal to a token.
  const WORDS = ["soja", "Sojas", "soj", "oja", "milho", "mil", "Produção", "producao", "Paraná", "para", "par",
    "uma", "ma", "de", "e", "a", "the", "2010", "6579", "sidra", "ana", "Santana", "pr", "x"];
  const SEPARATORS = [" ", " ", " - ", ", ", ":", "(", ")", "—"];
  const phrase = (max: number) =>
    fc.array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPARATORS)), { maxLength: max })
      .map((parts) => parts.map(([word, separator]) => word + separator).join(""));
  const entries = fc.uniqueArray(
    fc.record({
      id: fc.oneof(fc.constantFrom(...WORDS), phrase(2).filter((id) => id !== ""), fc.nat(30).map(String)),
      title: phrase(5),
      url: fc.constant("https://example.org"),
      keywords: fc.option(fc.array(phrase(2), { maxLength: 2 }), { nil: undefined }),
      text: fc.option(phrase(4), { nil: undefined }),
    }).map(({ keywords, text, ...rest }) => ({ ...rest, ...(keywords && { keywords }), ...(text !== undefined && { text }) })),
    { selector: (e) => e.id, maxLength: 30 },
  );
  const slices = fc.array(fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 2, max: 8 })), { maxLength: 4 });
  const queries = fc.oneof(phrase(3), fc.constantFrom(...WORDS), fc.string({ maxLength: 6 }));

  it("returns exactly what a plain scan of the rule returns, at every limit", () => {
    fc.assert(
      fc.property(entries, fc.array(queries, { minLength: 1, maxLength: 5 }), slices, (collection, typed, cuts) => {
        const index = createIndex(collection);
        // Slices of real titles: the phrase bonus often lands where no token matches.
        const sliced = cuts.map(([which, from, length]) => collection[which % (collection.length || 1)]?.title.substr(from % 12, length) ?? "");
        for (const query of [...typed, ...sliced]) {
          for (const limit of [undefined, 0, 1, 2, 3, 7, 1000]) {
            const options = limit === undefined ? undefined : { limit };
            expect(index.search(query, options)).toStrictEqual(plainSearch(collection, query, options));
          }
        }
      }),
      // 200 collections, each with 1 to 9 queries at 7 limits: thousands of comparisons.
      { numRuns: 200 },
    );
  });
});

describe("createIndex: its option checks, and updates against a fresh build", () => {
  const entries = [entry("a", "Soja")];

  it.each([
    ["null", null],
    ["a string", "snowball"],
    ["a function", function stem() {}],
    ["no name", {}],
    ["an empty name", { name: "" }],
    ["a name that is no string", { name: 5 }],
  ])("refuses stemmers that are %s", (_kind, stemmers) => {
    expect(() => createIndex(entries, { ranking: "bm25", stemmers: stemmers as never })).toThrow(McpSearchError);
    expect(() => createIndex(entries, { ranking: "bm25", stemmers: stemmers as never })).toThrow(/^The option stemmers needs a non-empty string "name" and a function per language \("pt", "es", "en", "ru", "uk", "el", "de", "fr", "it"\), not /);
  });

  it.each([{ language: "pt" }, { fallbackLanguage: "pt" }, { stemmers: { name: "s" } }] as const)("refuses %j with the rule ranking", (options) => {
    expect(() => createIndex(entries, options)).toThrow(
      new McpSearchError('The options language, fallbackLanguage, stemmers and detector apply to ranking "bm25" only: the rule ranking reads every language alike.'),
    );
  });

  it("tells an exact token from a prefix in entries added after the build", () => {
    const index = createIndex([entry("c", "Milho")]);
    index.add(entry("prefix", "Sojas"));
    index.add(entry("exact", "Soja"));
    // exact: 10 + 3 (title) + 5 (phrase) = 18; prefix: 10 + 1.5 + 5 = 16.5; ties would keep insertion order.
    expect(index.search("soja").map((hit) => hit.id)).toStrictEqual(["exact", "prefix"]);
    expect(index.search("soja")).toStrictEqual(createIndex([entry("c", "Milho"), entry("prefix", "Sojas"), entry("exact", "Soja")]).search("soja"));
  });
});

describe("createIndex: the rule at its edges", () => {
  it("refuses a ranking it does not know, and a language, naming the choices", () => {
    expect(() => createIndex([], { ranking: "cosine" as never })).toThrow(new McpSearchError('Unknown ranking "cosine": use "rule" or "bm25".'));
    expect(() => createIndex([], { ranking: "bm25", language: "nl" as never })).toThrow(new McpSearchError('Unknown language "nl": use "auto", "pt", "es", "en", "ru", "uk", "el", "de", "fr", "it".'));
    expect(() => createIndex([], { ranking: "bm25", fallbackLanguage: "sv" as never })).toThrow(new McpSearchError('Unknown fallbackLanguage "sv": use "pt", "es", "en", "ru", "uk", "el", "de", "fr", "it".'));
  });

  it("saves the rule's stopwords, weights and phrase bonus with a snapshot, so another rule is refused", () => {
    const bytes = createIndex([entry("a", "Soja")]).snapshot();
    const reader = new ByteReader(bytes, 12, bytes.length - 4);
    const stopwords = "a o as os um uma uns umas de da do das dos e em no na nos nas ao aos por para com sem que ou the of in and for by".split(" ");
    expect(reader.strings()).toStrictEqual(["rule", JSON.stringify({ stopwords: stopwords.sort(), weights: [[1, 10], [2, 3], [4, 2], [8, 1]], phrase: 10 })]);
  });

  it("gives no phrase bonus to a query under 3 characters", () => {
    const entries = [entry("kw", "Other", { keywords: ["ab"], text: "ab" }), entry("title", "ab")];
    // Both score 10 + 3: the keyword (2) and the text (1) against the title (3); a bonus would reorder them.
    expect(createIndex(entries).search("ab").map((hit) => hit.id)).toStrictEqual(["kw", "title"]);
    expect(createIndex(entries).search("ab")).toStrictEqual(plainSearch(entries, "ab"));
  });

  it("finds an entry without keywords or text by its id and title only", () => {
    const index = createIndex([entry("plain", "Soja")]);
    expect(index.search("here")).toStrictEqual([]);
    expect(index.search("stryker")).toStrictEqual([]);
  });

  it("counts every match with searchWithTotal, at the default limit when none is given", () => {
    const entries = Array.from({ length: 12 }, (_, i) => entry(`e${i}`, "Soja"));
    const { results, total } = createIndex(entries).searchWithTotal("soja");
    expect({ ids: results.map((hit) => hit.id), total }).toStrictEqual({ ids: entries.slice(0, DEFAULT_LIMIT).map((e) => e.id), total: 12 });
  });

  it.each([8, 1100])("reads postings whose gaps take several bytes (an entry %d places on)", (gap) => {
    const entries = Array.from({ length: gap }, (_, i) => entry(`e${i}`, "Other"));
    entries[gap - 1] = entry("qq", "Other");
    const index = createIndex(entries);
    expect(index.search("qq").map((hit) => hit.id)).toStrictEqual(["qq"]);
    expect(index.search("other")).toHaveLength(Math.min(gap, DEFAULT_LIMIT));
  });

  it("scans only the added terms that share the query's prefix", () => {
    const index = createIndex([]);
    index.add(entry("a", "Apple"));
    index.add(entry("z", "Zebra"));
    index.add(entry("b", "Banana"));
    expect(index.search("apple").map((hit) => hit.id)).toStrictEqual(["a"]);
    expect(index.search("banana").map((hit) => hit.id)).toStrictEqual(["b"]);
  });

  it("removes, replaces and compacts through the index's own methods", () => {
    const index = createIndex([entry("a", "Soja"), entry("b", "Milho"), entry("c", "Soja e milho")]);
    index.remove("a");
    index.replace(entry("b", "Soja"));
    expect(index.search("soja").map((hit) => hit.id)).toStrictEqual(["b", "c"]);
    index.compact();
    expect(index.compactStep()).toBe(true);
    expect(index.search("soja").map((hit) => hit.id)).toStrictEqual(["b", "c"]);
    expect([index.size, index.has("a"), index.has("b")]).toStrictEqual([2, false, true]);
  });
});
