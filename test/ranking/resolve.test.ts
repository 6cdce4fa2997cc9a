import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createIndex, type IndexEntry } from "../../src/index.js";

// A site as the seed's server has it: namespaced ids, urls written loosely (www., a trailing
// slash, a fragment), two pages that differ only by query, a second host sharing one path, two
// ids that share what follows their namespace, and an id that is also another id's suffix.
const ENTRIES: IndexEntry[] = [
  { id: "page:/live", title: "Live gamma flip", url: "https://example.com/live" },
  { id: "page:/docs/methodology", title: "Methodology", url: "https://www.example.com/docs/methodology/" },
  { id: "page:/about", title: "About", url: "http://example.com/about#team" },
  { id: "page:/search?q=gamma", title: "Search: gamma", url: "https://example.com/search?q=gamma" },
  { id: "page:/search?q=vanna", title: "Search: vanna", url: "https://example.com/search?q=vanna" },
  { id: "page:/research/vanna and charm", title: "Vanna and charm", url: "https://example.com/research/vanna%20and%20charm" },
  { id: "session:2026-08-21", title: "Record 2026-08-21", url: "https://example.com/record/2026-08-21" },
  { id: "session:2026-08-24", title: "Record 2026-08-24", url: "https://example.com/record/2026-08-24/" },
  { id: "doc:about", title: "About the other site", url: "https://other.org/about" },
  { id: "table:6579", title: "Tabela 6579", url: "https://other.org/tabela/6579" },
  { id: "6579", title: "Six five seven nine", url: "https://other.org/6579" },
  { id: "alpha:x", title: "X in alpha", url: "https://other.org/alpha/x" },
  { id: "beta:x", title: "X in beta", url: "https://other.org/beta/x" },
  { id: "page:/população", title: "População", url: "https://example.com/popula%C3%A7%C3%A3o" },
  { id: "sidra:tabela%2F6579", title: "Tabela 6579 (SIDRA)", url: "https://sidra.ibge.gov.br/t/6579" },
];
const index = createIndex(ENTRIES);

describe("SearchIndex.resolve", () => {
  it.each([
    // the exact id, and with extra whitespace
    ["page:/live", "page:/live"],
    ["  page:/live \n", "page:/live"],
    ["\tsession:2026-08-24  ", "session:2026-08-24"],
    ["page:/research/vanna   and charm", "page:/research/vanna and charm"],
    // the url, whatever the scheme, www., trailing slash, fragment or case of the host
    ["https://example.com/live", "page:/live"],
    ["http://example.com/live", "page:/live"],
    ["example.com/live", "page:/live"],
    ["www.example.com/live", "page:/live"],
    ["https://www.example.com/live/", "page:/live"],
    ["https://example.com/live#chart", "page:/live"],
    ["HTTPS://EXAMPLE.COM/live", "page:/live"],
    ["//example.com/live", "page:/live"],
    [" https://example.com/live ", "page:/live"],
    ["https://example.com/docs/methodology", "page:/docs/methodology"],
    ["example.com/docs/methodology/", "page:/docs/methodology"],
    ["https://example.com/about", "page:/about"],
    ["https://example.com/record/2026-08-24", "session:2026-08-24"],
    ["https://example.com/research/vanna and charm", "page:/research/vanna and charm"],
    ["other.org/about", "doc:about"],
    // the query, ignored where one entry holds the page, matched where two differ only by it
    ["https://example.com/live?utm_source=chatgpt", "page:/live"],
    ["https://example.com/search?q=gamma", "page:/search?q=gamma"],
    ["example.com/search/?q=vanna#results", "page:/search?q=vanna"],
    // a bare path, with or without its leading slash
    ["/live", "page:/live"],
    ["live", "page:/live"],
    ["live/", "page:/live"],
    ["/record/2026-08-21", "session:2026-08-21"],
    ["record/2026-08-24/", "session:2026-08-24"],
    ["/search?q=gamma", "page:/search?q=gamma"],
    ["tabela/6579", "table:6579"],
    // the id without its namespace, when one entry has it
    ["2026-08-24", "session:2026-08-24"],
    [" 2026-08-21 ", "session:2026-08-21"],
    ["/docs/methodology", "page:/docs/methodology"],
    // an exact id wins over the same text read without a namespace
    ["6579", "6579"],
    ["table:6579", "table:6579"],
    // percent escapes in lower case, as a model re-encodes a URL or an id (RFC 3986: same bytes)
    ["https://example.com/popula%c3%a7%c3%a3o", "page:/população"],
    ["https://example.com/popula%C3%A7%C3%A3o", "page:/população"],
    ["https://example.com/população", "page:/população"],
    ["example.com/popula%c3%a7%C3%A3o/", "page:/população"],
    ["/popula%c3%a7%c3%a3o", "page:/população"],
    ["sidra:tabela%2f6579", "sidra:tabela%2F6579"],
    ["tabela%2f6579", "sidra:tabela%2F6579"],
    // a URL as a Markdown autolink, an id or a URL in a code span, and both at once
    ["<https://example.com/live>", "page:/live"],
    ["< https://www.example.com/docs/methodology/ >", "page:/docs/methodology"],
    ["<example.com/record/2026-08-24>", "session:2026-08-24"],
    ["`page:/live`", "page:/live"],
    ["``session:2026-08-21``", "session:2026-08-21"],
    ["`https://example.com/about`", "page:/about"],
    ["`<https://example.com/popula%c3%a7%c3%a3o>`", "page:/população"],
    ["`6579`", "6579"],
    ["`2026-08-24`", "session:2026-08-24"],
    ["  `page:/live`\n", "page:/live"],
    // a wrapper's character elsewhere is only text: in a fragment, or in a query the page ignores
    ["https://example.com/live#`chart`", "page:/live"],
    ["https://example.com/live?ref=<chat>", "page:/live"],
  ])("resolves %j to %j", (ref, id) => {
    expect(index.resolve(ref)).toBe(id);
  });

  it.each([
    ["x", "two ids share what follows their namespace (alpha:x, beta:x)"],
    ["/about", "two hosts hold the path /about"],
    ["about", "the path /about is on two hosts, whatever the namespace reading says"],
    ["https://example.com/search", "two entries differ only by query, and none was given"],
    ["https://example.com/search?q=delta", "two entries differ only by query, and this one is neither"],
    ["https://example.com/nope", "no entry at that page"],
    ["https://elsewhere.com/live", "no entry on that host"],
    ["page:/nope", "no such id"],
    ["PAGE:/live", "ids are case-sensitive"],
    ["", "empty"],
    ["   \n ", "whitespace only"],
    ["`x`", "a wrapper does not make an ambiguous id less ambiguous"],
    ["<https://example.com/search>", "nor an ambiguous URL"],
    ["sidra:tabela/6579", "a decoded %2F is another id: escapes are compared, never decoded"],
    ["``", "an empty code span"],
    ["<>", "an empty autolink"],
  ])("gives null for %j: %s", (ref) => {
    expect(index.resolve(ref)).toBeNull();
  });

  it("gives null when two entries share a url, even one written differently", () => {
    const shared = createIndex([
      { id: "a", title: "A", url: "https://example.com/x" },
      { id: "b", title: "B", url: "http://www.example.com/x/" },
    ]);
    expect(["https://example.com/x", "x", "/x"].map(shared.resolve)).toStrictEqual([null, null, null]);
    expect(["a", "b"].map(shared.resolve)).toStrictEqual(["a", "b"]);
  });

  it("never lets another spelling choose between two entries", () => {
    const spelled = createIndex([
      // two ids that differ only in the case of their escapes: each answers its exact self
      { id: "doc:a%c3%a3", title: "Lower", url: "https://example.com/lower" },
      { id: "doc:a%C3%A3", title: "Upper", url: "https://example.com/upper" },
      // the id "<b>" and the id "b": "`<b>`" could be either
      { id: "<b>", title: "Angled", url: "https://example.com/angled" },
      { id: "b", title: "Plain", url: "https://example.com/plain" },
      // two urls that differ only in the case of their escapes are one page, held twice
      { id: "c1", title: "C1", url: "https://example.com/c%c3%a3" },
      { id: "c2", title: "C2", url: "https://example.com/c%C3%A3" },
    ]);
    expect(["doc:a%c3%a3", "doc:a%C3%A3", "doc:a%C3%a3", "a%c3%A3"].map(spelled.resolve))
      .toStrictEqual(["doc:a%c3%a3", "doc:a%C3%A3", null, null]);
    expect(["<b>", "b", "`b`", "<<b>>", "`<b>`"].map(spelled.resolve)).toStrictEqual(["<b>", "b", "b", null, null]);
    expect(["https://example.com/c%c3%a3", "https://example.com/cã", "c1", "c2"].map(spelled.resolve))
      .toStrictEqual([null, null, "c1", "c2"]);
  });

  it("unwraps at most four layers, so a text of nested brackets costs a few readings", () => {
    expect(index.resolve("``<https://example.com/live>``")).toBe("page:/live"); // three layers
    expect(index.resolve("`<`<https://example.com/live>`>`")).toBe("page:/live"); // four
    expect(index.resolve("<`<`<https://example.com/live>`>`>")).toBeNull(); // five
    const brackets = `${"<".repeat(500_000)}https://example.com/live${">".repeat(500_000)}`;
    expect(index.resolve(brackets)).toBeNull();
    expect(index.resolve("`".repeat(1_000_000))).toBeNull();
  });

  it("keeps an id that is itself wrapped", () => {
    const wrapped = createIndex([{ id: "`code`", title: "Code", url: "https://example.com/code" }]);
    expect(["`code`", " `code` ", "<https://example.com/code>", "code"].map(wrapped.resolve))
      .toStrictEqual(["`code`", "`code`", "`code`", "`code`"]);
  });

  it("works detached from the index, as resolveId receives it", () => {
    const { resolve } = index;
    expect(resolve("example.com/live/")).toBe("page:/live");
  });

  it("is not misled by an entry whose url is not absolute", () => {
    const loose = createIndex([
      { id: "page:/a", title: "A", url: "/a" },
      { id: "b", title: "B", url: "not a url" },
    ]);
    expect([" a/ ", "/a", "example.com/a", "not a url", "b"].map(loose.resolve)).toStrictEqual(["page:/a", "page:/a", null, null, "b"]);
  });
});

// ---------------------------------------------------------------- property

const HOSTS = ["example.com", "other.org"];
const SEGMENTS = ["live", "docs", "record", "2026-08-24", "gamma-flip", "x", "sobre", "soja"];
const NAMESPACES = ["page", "session", "doc"];

/** A page as parts: the key the resolver must tell apart, and a loose way of writing its url. */
const page = fc.record({
  host: fc.constantFrom(...HOSTS),
  segments: fc.array(fc.constantFrom(...SEGMENTS), { maxLength: 3 }),
  query: fc.constantFrom("", "q=a", "q=b"),
  scheme: fc.constantFrom("https://", "http://"),
  www: fc.boolean(),
  slash: fc.boolean(),
  fragment: fc.boolean(),
  idKind: fc.constantFrom("namespaced", "plain", "url"),
  namespace: fc.constantFrom(...NAMESPACES),
});
type Page = typeof page extends fc.Arbitrary<infer T> ? T : never;

const pathOf = (p: Page) => `/${p.segments.join("/")}`;
const urlOf = (p: Page) =>
  `${p.scheme}${p.www ? "www." : ""}${p.host}${pathOf(p)}${p.slash && p.segments.length > 0 ? "/" : ""}` +
  `${p.query === "" ? "" : `?${p.query}`}${p.fragment ? "#top" : ""}`;
const idOf = (p: Page) =>
  p.idKind === "url" ? urlOf(p) : `${p.idKind === "plain" ? "" : `${p.namespace}:`}${p.host}${pathOf(p)}${p.query}`;

/** Catalogues with unique ids and unique pages (host, path, query): nothing to be ambiguous about. */
const catalogue = fc
  .uniqueArray(page, { selector: (p) => `${p.host}${pathOf(p)}?${p.query}`, minLength: 1, maxLength: 25 })
  .map((pages) => pages.map((p, i): IndexEntry & { page: Page } => ({
    id: idOf(p),
    title: `${p.segments.join(" ")} ${i}`,
    url: urlOf(p),
    keywords: [p.host],
    page: p,
  })));
const queries = fc.array(fc.constantFrom(...SEGMENTS, ...HOSTS, "gamma flip", "2026"), { minLength: 1, maxLength: 3 }).map((words) => words.join(" "));

describe("SearchIndex.resolve over generated catalogues", () => {
  it("resolves every id search returns, and every result url, written loosely, back to its id", () => {
    fc.assert(
      fc.property(catalogue, fc.array(queries, { minLength: 1, maxLength: 4 }), (entries, asked) => {
        const built = createIndex(entries);
        const documents = new Map(entries.map((entry) => [entry.id, entry]));
        const fetchDocument = (raw: string) => documents.get(built.resolve(raw) ?? "");
        const byId = new Map(entries.map((entry) => [entry.id, entry.page]));
        for (const query of asked) {
          for (const hit of built.search(query, { limit: 1000 })) {
            expect(fetchDocument(hit.id)?.id).toBe(hit.id);
            expect(built.resolve(` ${hit.id}\n`)).toBe(hit.id);
            const p = byId.get(hit.id) as Page;
            const bareUrl = `${p.host}${pathOf(p)}${p.query === "" ? "" : `?${p.query}`}`;
            for (const written of [hit.url, bareUrl, `https://www.${bareUrl}`, `http://${p.host}${pathOf(p)}/${p.query === "" ? "" : `?${p.query}`}#x`]) {
              expect(built.resolve(written)).toBe(hit.id);
              // as a model pastes it: an autolink, a code span, both
              for (const pasted of [`<${written}>`, `\`${written}\``, `\`<${written}>\``]) expect(built.resolve(pasted)).toBe(hit.id);
            }
            expect(built.resolve(`\`${hit.id}\``)).toBe(hit.id);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it("never names an entry that is not in the index", () => {
    fc.assert(
      fc.property(catalogue, fc.string({ maxLength: 30 }), (entries, ref) => {
        const found = createIndex(entries).resolve(ref);
        expect(found === null || entries.some((entry) => entry.id === found)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
