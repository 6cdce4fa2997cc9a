import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  McpSearchError,
  createIndex,
} from "../../src/index.js";
import {
  mergeCatalogues,
  parseLlmsTxt,
  titleFromUrl,
  type CatalogueEntry,
  type CatalogueProblemKind,
} from "../../src/site/index.js";
import { parseSitemap } from "../../src/site/sitemap.js";

const fixture = (name: string): string => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), "utf8");
const kinds = (problems: readonly { line: number; kind: CatalogueProblemKind }[]) =>
  problems.map(({ line, kind }) => [line, kind]);

describe("parseLlmsTxt", () => {
  const { entries, problems } = parseLlmsTxt(fixture("llms.txt"));

  it("reads every link of every section, the Optional one included, and nothing else", () => {
    expect(problems).toStrictEqual([]);
    expect(entries.map((e) => [e.id, e.title, e.keywords])).toStrictEqual([
      ["page:/live", "Live gamma flip", ["Live"]],
      ["page:/docs/methodology", "Methodology", ["Docs"]],
      ["page:/docs/glossary", "Glossary", ["Docs"]],
      ["page:/docs/mcp", "API and MCP server", ["Docs"]],
      ["page:/record", "Daily records", ["Docs", "Data"]],
      ["page:/research/gamma-flip-volatility", "Does the gamma flip predict volatility?", ["Research"]],
      ["page:/research/0dte-flows", "Zero-days-to-expiry flows", ["Research"]],
      ["page:/changelog", "Changelog", ["Optional"]],
      ["page:/about", "About", ["Optional"]],
    ]);
  });

  it("keeps the description as text, and leaves text out when there is none", () => {
    expect(entries[0]).toStrictEqual({
      id: "page:/live",
      url: "https://example.com/live",
      title: "Live gamma flip",
      keywords: ["Live"],
      text: "where the SPX gamma flip is right now, updated through the day",
    });
    expect(entries.find((e) => e.id === "page:/about")).toStrictEqual({
      id: "page:/about",
      url: "https://example.com/about",
      title: "About",
      keywords: ["Optional"],
    });
  });

  it.each([
    ["- [A](https://e.com/a): one", { title: "A", text: "one" }],
    ["* [A](https://e.com/a) - one", { title: "A", text: "one" }],
    ["+ [A](https://e.com/a) — one", { title: "A", text: "one" }],
    ['- [A](https://e.com/a "tooltip"): one', { title: "A", text: "one" }],
    ["- [A](<https://e.com/a>)", { title: "A" }],
    ["  - [ A ](https://e.com/a):", { title: "A" }],
  ])("reads the list item %j", (line, expected) => {
    const [entry] = parseLlmsTxt(`## S\n${line}\n`).entries;
    expect(entry).toStrictEqual({ id: "page:/a", url: "https://e.com/a", keywords: ["S"], ...expected });
  });

  it.each([
    [
      "- [Python](https://en.wikipedia.org/wiki/Python_(programming_language)): the language",
      "https://en.wikipedia.org/wiki/Python_(programming_language)",
      "the language",
    ],
    ["- [F](https://e.com/f(x)(y) \"tip\") - one", "https://e.com/f(x)(y)", "one"],
    ["- [N](https://e.com/a_(b_(c))): deep", "https://e.com/a_(b_(c))", "deep"],
    ["- [A](<https://e.com/a_(b)>): angled", "https://e.com/a_(b)", "angled"],
  ])("keeps balanced parentheses in the URL of %j", (line, url, text) => {
    const result = parseLlmsTxt(`## S\n${line}\n`);
    expect(result.problems).toStrictEqual([]);
    expect(result.entries.map((e) => [e.url, e.text])).toStrictEqual([[url, text]]);
  });

  it("reports a URL whose parentheses do not close, instead of cutting it", () => {
    const result = parseLlmsTxt("## S\n- [U](https://e.com/u_(x): text\n- [A](https://e.com/a)\n");
    expect(result.entries.map((e) => e.url)).toStrictEqual(["https://e.com/a"]);
    expect(kinds(result.problems)).toStrictEqual([[2, "not-a-link"]]);
  });

  it.each([
    ["## Docs", ["Docs"]],
    ["## Docs ##", ["Docs"]],
    ["##   Spaced out   ", ["Spaced out"]],
    ["## C# notes", ["C# notes"]],
    ["## Docs\n### Data #", ["Docs", "Data"]],
    ["## Docs\n### Data\n## Research", ["Research"]],
    ["# Site title only", undefined],
  ])("takes the keywords of %j as %j", (headings, keywords) => {
    const [entry] = parseLlmsTxt(`${headings}\n- [A](https://e.com/a)`).entries;
    expect(entry?.keywords).toStrictEqual(keywords);
  });

  it("reports each bad line once, on its line, and keeps the good lines", () => {
    const broken = parseLlmsTxt(fixture("llms-broken.txt"));
    expect(broken.entries.map((e) => e.id)).toStrictEqual(["page:/docs/methodology", "page:/docs/glossary"]);
    expect(kinds(broken.problems)).toStrictEqual([
      [8, "relative-url"],
      [9, "empty-title"],
      [10, "duplicate-url"],
      [11, "not-a-link"],
      [12, "invalid-url"],
    ]);
    expect(broken.problems[0]?.message).toBe(
      'linha 8: a URL "/docs/relative" é relativa; use uma URL absoluta (https://…) ou passe baseUrl.',
    );
  });

  it("speaks English when asked", () => {
    const { problems: en } = parseLlmsTxt(fixture("llms-broken.txt"), { locale: "en" });
    expect(en.map((p) => p.message)).toStrictEqual([
      'line 8: the URL "/docs/relative" is relative; use an absolute URL (https://…) or pass baseUrl.',
      "line 9: the link to https://example.com/docs/untitled has no title.",
      "line 10: the page https://example.com/docs/methodology/ repeats the one on line 7; the first one stands.",
      'line 11: list item without a [Title](url) link: "a bullet written as prose, with no link".',
      'line 12: the URL "mailto:team@example.com" is not a valid http(s) URL.',
    ]);
  });

  it("speaks Spanish when asked", () => {
    const { problems: es } = parseLlmsTxt(fixture("llms-broken.txt"), { locale: "es" });
    expect(es.map((p) => p.message)).toStrictEqual([
      'línea 8: la URL "/docs/relative" es relativa; use una URL absoluta (https://…) o pase baseUrl.',
      "línea 9: el enlace a https://example.com/docs/untitled no tiene título.",
      "línea 10: la página https://example.com/docs/methodology/ repite la de la línea 7; vale la primera.",
      'línea 11: elemento de lista sin enlace con el formato [Título](url): "a bullet written as prose, with no link".',
      'línea 12: la URL "mailto:team@example.com" no es una URL http(s) válida.',
    ]);
    const sitemap = parseSitemap(fixture("sitemap-broken.xml"), { locale: "es" });
    expect(sitemap.problems[4]?.message).toMatch(/^línea 8: XML mal formado \(.*\); se conservaron las entradas legibles\.$/);
  });

  it("resolves relative links against baseUrl", () => {
    const { entries: resolved, problems: none } = parseLlmsTxt("## Docs\n- [Rel](/docs/rel): x\n- [Dot](./dot)\n", {
      baseUrl: "https://example.com/llms.txt",
    });
    expect(none).toStrictEqual([]);
    expect(resolved.map((e) => e.url)).toStrictEqual(["https://example.com/docs/rel", "https://example.com/dot"]);
  });

  it("reports two different pages that get the same id", () => {
    const text = "## A\n- [One](https://example.com/x)\n- [Two](https://other.org/x)\n";
    const result = parseLlmsTxt(text);
    expect(result.entries.map((e) => e.url)).toStrictEqual(["https://example.com/x"]);
    expect(kinds(result.problems)).toStrictEqual([[3, "duplicate-id"]]);
    const byHost = parseLlmsTxt(text, { id: (url) => `page:${url.host}${url.pathname}` });
    expect(byHost.entries.map((e) => e.id)).toStrictEqual(["page:example.com/x", "page:other.org/x"]);
  });

  it("ignores prose bullets before the first section, and links inside code fences", () => {
    const text = "# T\n- a note before any section\n## S\n~~~\n- [No](https://e.com/no)\n~~~\n- [Yes](https://e.com/yes)\n";
    const result = parseLlmsTxt(text);
    expect(result.problems).toStrictEqual([]);
    expect(result.entries.map((e) => e.title)).toStrictEqual(["Yes"]);
  });

  // The llmstxt.org format allows any Markdown but headings between the summary and the first
  // "##"; its own example (FastHTML) puts its "important notes" there as bullets.
  it("skips, without a problem, the prose bullets of the details before the first ## (the llmstxt.org example)", () => {
    const text = [
      "# FastHTML",
      "",
      "> FastHTML is a python library which brings together Starlette, Uvicorn, HTMX, and fastcore's `FT` \"FastTags\" into a library for creating server-rendered hypermedia applications.",
      "",
      "Important notes:",
      "",
      "- Although parts of its API are inspired by FastAPI, it is *not* compatible with FastAPI syntax and is not targeted at creating API services",
      "- FastHTML is compatible with JS-native web components and any vanilla JS library, but not with React, Vue, or Svelte.",
      "- [Quick start](https://fastht.ml/docs/tutorials/quickstart_for_web_devs.html): a link among the notes is still read",
      "",
      "## Docs",
      "",
      "- [FastHTML quick start](https://fastht.ml/docs/tutorials/quickstart_for_web_devs.html.md): A brief overview of many FastHTML features",
      "- a note inside a section is reported",
    ].join("\n");
    const result = parseLlmsTxt(text, { locale: "en" });
    expect(result.entries.map((entry) => [entry.title, entry.keywords ?? null])).toStrictEqual([
      ["Quick start", null],
      ["FastHTML quick start", ["Docs"]],
    ]);
    expect(kinds(result.problems)).toStrictEqual([[14, "not-a-link"]]);
  });

  it("reads CRLF line endings and a BOM with the same line numbers", () => {
    const result = parseLlmsTxt("\uFEFF# T\r\n## S\r\n- [](https://e.com/a)\r\n- [B](https://e.com/b)\r\n");
    expect(kinds(result.problems)).toStrictEqual([[3, "empty-title"]]);
    expect(result.entries.map((e) => e.title)).toStrictEqual(["B"]);
  });

  it("throws McpSearchError on a baseUrl that is not absolute", () => {
    expect(() => parseLlmsTxt("", { baseUrl: "/relative" })).toThrow(McpSearchError);
    expect(() => parseLlmsTxt("", { baseUrl: "/relative" })).toThrow('parseLlmsTxt: baseUrl "/relative"');
  });

  // A bad line never drops the good lines: good and bad lines interleaved at random.
  it("keeps every good line and reports every bad one, wherever they fall", () => {
    const bad = fc.constantFrom(
      ["- [Relative](/x)", "relative-url"],
      ["- [](https://e.com/untitled)", "empty-title"],
      ["- just prose", "not-a-link"],
      ["- [Ftp](ftp://e.com/f)", "invalid-url"],
      ["- [Dup](https://e.com/page-0)", "duplicate-url"],
    );
    const line = fc.oneof(fc.constant(null), bad);
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 30 }), (plan) => {
        const lines = ["## S", "- [Page 0](https://e.com/page-0)"];
        const expectedProblems: [number, string][] = [];
        const expectedTitles = ["Page 0"];
        plan.forEach((item, i) => {
          if (item === null) {
            lines.push(`- [Page ${i + 1}](https://e.com/page-${i + 1}): good`);
            expectedTitles.push(`Page ${i + 1}`);
          } else {
            lines.push(item[0]);
            expectedProblems.push([lines.length, item[1]]);
          }
        });
        const result = parseLlmsTxt(lines.join("\n"));
        expect(result.entries.map((e) => e.title)).toStrictEqual(expectedTitles);
        expect(kinds(result.problems)).toStrictEqual(expectedProblems);
      }),
      { numRuns: 100 },
    );
  });
});

describe("parseSitemap", () => {
  it("reads every url, titles it from its slug and keeps a valid lastmod", () => {
    const { entries, problems, sitemaps } = parseSitemap(fixture("sitemap.xml"));
    expect(problems).toStrictEqual([]);
    expect(sitemaps).toStrictEqual([]);
    expect(entries.map((e) => [e.id, e.title, e.lastmod ?? null])).toStrictEqual([
      ["page:/", "example.com", "2026-08-24"],
      ["page:/live", "Live", "2026-08-24T15:42:00+00:00"],
      ["page:/docs/methodology", "Methodology", "2026-03-02"],
      ["page:/docs/glossary", "Glossary", null],
      ["page:/research/gamma-flip-volatility", "Gamma flip volatility", "2026-06-11"],
      ["page:/research/call_wall-as-resistance", "Call wall as resistance", "2026-07-30"],
      ["page:/research/vanna%20and%20charm.html", "Vanna and charm", "2026-08-03"],
      ["page:/record/2026-08-21", "2026-08-21", "2026-08-21"],
      ["page:/record/2026-08-24", "2026-08-24", "2026-08-24"],
      ["page:/search?q=gamma&page=2", "Search", null],
    ]);
    expect(entries[1]).toStrictEqual({
      id: "page:/live",
      url: "https://example.com/live",
      title: "Live",
      lastmod: "2026-08-24T15:42:00+00:00",
    });
  });

  it("reports a sitemap index and lists its child sitemaps", () => {
    const result = parseSitemap(fixture("sitemap-index.xml"));
    expect(result.entries).toStrictEqual([]);
    expect(result.sitemaps).toStrictEqual([
      "https://example.com/sitemap-pages.xml",
      "https://example.com/sitemap-records.xml",
    ]);
    expect(result.problems).toStrictEqual([
      {
        line: 2,
        kind: "sitemap-index",
        message:
          'linha 2: é um índice de sitemaps (<sitemapindex>) com 2 sitemap(s); busque cada um (lista em "sitemaps") e leia-o com parseSitemap.',
      },
    ]);
  });

  it("reports malformed XML and each bad url on its line, and keeps the readable ones", () => {
    const result = parseSitemap(fixture("sitemap-broken.xml"), { locale: "en" });
    expect(result.entries.map((e) => e.id)).toStrictEqual([
      "page:/docs/methodology",
      "page:/docs/glossary",
      "page:/research/unclosed",
      "page:/about",
    ]);
    expect(kinds(result.problems)).toStrictEqual([
      [4, "relative-url"],
      [5, "duplicate-url"],
      [6, "invalid-lastmod"],
      [7, "missing-url"],
      [8, "malformed-xml"],
    ]);
    expect(result.problems[4]?.message).toMatch(/^line 8: malformed XML \(.*'lox'.*\); the readable entries were kept\.$/);
    expect(result.entries[1]).not.toHaveProperty("lastmod");
  });

  // The shape alone is not enough: a <lastmod> must name a real moment. Leap years included.
  it.each([
    ["2026", true],
    ["2026-08", true],
    ["2026-08-24", true],
    ["2028-02-29", true],
    ["2000-02-29", true],
    ["2026-08-24T15:42Z", true],
    ["2026-08-24T23:59:59.999-03:00", true],
    ["2026-08-24T00:00:00+14:00", true],
    ["2026-12-31T12:00:00-12:00", true],
    ["2026-13-45", false],
    ["2026-00", false],
    ["2026-08-00", false],
    ["2026-04-31", false],
    ["2026-02-29", false],
    ["2100-02-29", false],
    ["2026-08-03T25:61:00Z", false],
    ["2026-08-03T24:00:00Z", false],
    ["2026-08-03T12:60Z", false],
    ["2026-08-03T12:00:60Z", false],
    ["2026-08-03T12:00:00+15:00", false],
    ["2026-08-03T12:00:00+03:60", false],
    ["2026-08-03T12:00:00", false],
    ["24/08/2026", false],
  ])("keeps the <lastmod> %j only if it is a real W3C date (%s)", (lastmod, valid) => {
    const result = parseSitemap(
      `<urlset>\n<url><loc>https://example.com/a</loc><lastmod>${lastmod}</lastmod></url>\n</urlset>`,
      { locale: "en" },
    );
    expect(result.entries).toStrictEqual([
      { id: "page:/a", url: "https://example.com/a", title: "A", ...(valid ? { lastmod } : {}) },
    ]);
    expect(result.problems).toStrictEqual(
      valid
        ? []
        : [{
          line: 2,
          kind: "invalid-lastmod",
          message: `line 2: <lastmod> "${lastmod}" is not a W3C date (YYYY-MM-DD or date and time); the page was kept without it.`,
        }],
    );
  });

  // fast-xml-parser throws on these outright; each readable <url> must still come through.
  const sitemap = `<?xml version="1.0"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://ex.com/a</loc></url>
  <url><loc>https://ex.com/s?a=1&amp;b=2</loc><lastmod>2026-08-24</lastmod></url>
</urlset>`;
  it.each([
    ["<junk", 5],
    ["\n<junk", 6],
    ["\n<!-- generated -->\n<p>footer", 7],
  ])("keeps every url of a sitemap followed by %j, and reports line %i", (tail, line) => {
    const result = parseSitemap(sitemap + tail, { locale: "en" });
    expect(result.entries).toStrictEqual([
      { id: "page:/a", url: "https://ex.com/a", title: "A" },
      { id: "page:/s?a=1&b=2", url: "https://ex.com/s?a=1&b=2", title: "S", lastmod: "2026-08-24" },
    ]);
    expect(kinds(result.problems)).toStrictEqual([[line, "malformed-xml"]]);
    expect(result.problems[0]?.message).toMatch(/; the readable entries were kept\.$/);
  });

  it("reads each url block on its own when the whole file cannot be parsed, and reports the unreadable one", () => {
    const xml = [
      "<urlset>",
      "  <url><loc>https://ex.com/a</loc></url>",
      "  <url><loc>https://ex.com/b</loc>",
      "  <url><loc>https://ex.com/c</loc></url>",
      "  <ns:url><loc>/d</loc></ns:url>",
      "</urlset>",
      "<junk",
    ].join("\n");
    const result = parseSitemap(xml, { locale: "en" });
    expect(result.entries.map((e) => e.url)).toStrictEqual(["https://ex.com/a", "https://ex.com/c"]);
    expect(kinds(result.problems)).toStrictEqual([
      [3, "malformed-xml"],
      [5, "relative-url"],
      [6, "malformed-xml"],
    ]);
    expect(result.problems[0]?.message).toBe(
      "line 3: the <url> element opened here is never closed (the text ends, or the next one opens, before </url>); it was skipped and the readable ones were kept.",
    );
  });

  // A sitemap cut off in transit (a download that stopped, a generator that crashed mid-write).
  const truncatedSitemap = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    "  <url>",
    "    <loc>https://example.com/research/gamma-flip</loc>",
    "    <lastmod>2026-08-21</lastmod>",
    "  </url>",
    "  <url>",
    "    <loc>https://example.com/research/vanna</loc>",
    "    <lastmod>2026-08-2",
  ].join("\n");
  it.each([
    ["inside the last <url>'s <lastmod>", truncatedSitemap, []],
    ["inside its <loc>", truncatedSitemap.split("\n").slice(0, 8).join("\n").slice(0, -8), []],
    ["right after its opening tag", truncatedSitemap.split("\n").slice(0, 7).join("\n"), []],
    // The parser's own complaint stays when it names another line: there, the text breaks off.
    ["inside its closing tag", `${truncatedSitemap}4</lastmod>\n  </ur`, [[10, "malformed-xml"]]],
  ])("reports a last <url> truncated %s as malformed XML on its line, and keeps the ones before", (_where, xml, more) => {
    const result = parseSitemap(xml, { locale: "en" });
    expect(result.entries).toStrictEqual([
      { id: "page:/research/gamma-flip", url: "https://example.com/research/gamma-flip", title: "Gamma flip", lastmod: "2026-08-21" },
    ]);
    expect(result.problems[0]).toStrictEqual({
      line: 7,
      kind: "malformed-xml",
      message:
        "line 7: the <url> element opened here is never closed (the text ends, or the next one opens, before </url>); it was skipped and the readable ones were kept.",
    });
    expect(kinds(result.problems.slice(1))).toStrictEqual(more);
  });

  it("says a truncated <url> is never closed in pt-BR by default", () => {
    expect(parseSitemap(truncatedSitemap).problems.map((problem) => problem.message)).toStrictEqual([
      "linha 7: o elemento <url> aberto aqui nunca é fechado (o texto acaba, ou o próximo começa, antes de </url>); ele foi ignorado e os legíveis foram mantidos.",
    ]);
  });

  it("keeps every <url> of a sitemap cut off after a whole <url>, and says the text ends inside <urlset>", () => {
    const result = parseSitemap(truncatedSitemap.split("\n").slice(0, 6).join("\n"), { locale: "en" });
    expect(result.entries.map((entry) => entry.id)).toStrictEqual(["page:/research/gamma-flip"]);
    expect(result.problems).toStrictEqual([
      { line: 2, kind: "malformed-xml", message: "line 2: malformed XML (Unclosed tag 'urlset'.); the readable entries were kept." },
    ]);
  });

  it("keeps the child sitemaps of an index followed by junk", () => {
    const xml = "<sitemapindex>\n<sitemap><loc>https://ex.com/1.xml</loc></sitemap>\n<sitemap><loc>https://ex.com/2.xml</loc></sitemap>\n</sitemapindex>\n<junk";
    expect(parseSitemap(xml).sitemaps).toStrictEqual(["https://ex.com/1.xml", "https://ex.com/2.xml"]);
  });

  it.each([
    ["", "malformed-xml"],
    ["this is not xml", "malformed-xml"],
    ["<rss><channel><title>x</title></channel></rss>", "not-a-sitemap"],
    ["<urlset></urlset>", "not-a-sitemap"],
  ] as const)("reports %j as %s", (text, kind) => {
    const result = parseSitemap(text);
    expect(result.entries).toStrictEqual([]);
    expect(kinds(result.problems)).toStrictEqual([[1, kind]]);
  });

  it("reads namespaced tags, CDATA, entities and padded locs", () => {
    const xml = `<ns:urlset xmlns:ns="http://www.sitemaps.org/schemas/sitemap/0.9">
<ns:url><ns:loc><![CDATA[https://e.com/a]]></ns:loc></ns:url>
<ns:url><ns:loc>
  https://e.com/b?x=1&amp;y=2
</ns:loc></ns:url>
</ns:urlset>`;
    expect(parseSitemap(xml).entries.map((e) => e.url)).toStrictEqual(["https://e.com/a", "https://e.com/b?x=1&y=2"]);
  });

  it("finds the line of each url however the file is laid out", () => {
    const xml = "<urlset>\n\n<url><loc>/a</loc></url><url><loc>/b</loc></url>\n  <url>\n    <loc>/c</loc>\n  </url>\n</urlset>";
    expect(kinds(parseSitemap(xml).problems)).toStrictEqual([
      [3, "relative-url"],
      [3, "relative-url"],
      [4, "relative-url"],
    ]);
  });
});

describe("titleFromUrl", () => {
  it.each([
    ["https://example.com/research/gamma-flip_explained.html", "Gamma flip explained"],
    ["https://example.com/docs/glossary/", "Glossary"],
    ["https://example.com/record/2026-08-24", "2026-08-24"],
    ["https://example.com/top-10-posts", "Top 10 posts"],
    ["https://example.com/p/caf%C3%A9-com-leite", "Café com leite"],
    ["https://example.com/p/bad%E0%A4%A", "Bad%E0%A4%A"],
    ["https://www.example.com/", "example.com"],
    ["https://example.com/---/", "example.com"],
    ["not a url", "not a url"],
  ])("titles %j as %j", (url, title) => {
    expect(titleFromUrl(url)).toBe(title);
  });
});

describe("mergeCatalogues", () => {
  const llms = parseLlmsTxt(fixture("llms.txt")).entries;
  const sitemap = parseSitemap(fixture("sitemap.xml")).entries;
  const merged = mergeCatalogues(llms, sitemap);

  it("keeps llms.txt first and lets the sitemap fill the gaps with slug titles", () => {
    expect(merged.map((e) => e.title)).toStrictEqual([
      "Live gamma flip",
      "Methodology",
      "Glossary",
      "API and MCP server",
      "Daily records",
      "Does the gamma flip predict volatility?",
      "Zero-days-to-expiry flows",
      "Changelog",
      "About",
      "example.com",
      "Call wall as resistance",
      "Vanna and charm",
      "2026-08-21",
      "2026-08-24",
      "Search",
    ]);
  });

  it("treats scheme, www. and a trailing slash as the same page, and takes the sitemap's lastmod", () => {
    // llms.txt says https://www.example.com/research/gamma-flip-volatility; the sitemap drops www.
    expect(merged.find((e) => e.id === "page:/research/gamma-flip-volatility")).toStrictEqual({
      id: "page:/research/gamma-flip-volatility",
      url: "https://www.example.com/research/gamma-flip-volatility",
      title: "Does the gamma flip predict volatility?",
      keywords: ["Research"],
      text: "a null result, with the code",
      lastmod: "2026-06-11",
    });
    const http: CatalogueEntry = { id: "page:/docs/glossary", title: "Glossary", url: "http://example.com/docs/glossary" };
    expect(mergeCatalogues([http], sitemap).filter((e) => e.id === "page:/docs/glossary")).toStrictEqual([http]);
  });

  it("returns unique ids and unique pages, so createIndex never throws on it", () => {
    const ids = merged.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    const clash: CatalogueEntry = { id: "page:/live", title: "Elsewhere", url: "https://other.org/live" };
    expect(mergeCatalogues(llms, [clash, ...sitemap]).filter((e) => e.id === "page:/live")).toStrictEqual([
      { ...llms[0], lastmod: "2026-08-24T15:42:00+00:00" },
    ]);
    expect(createIndex(merged).size).toBe(merged.length);
  });

  it("is the llms.txt list alone when the sitemap is empty, and the sitemap alone the other way round", () => {
    expect(mergeCatalogues(llms, [])).toStrictEqual(llms);
    expect(mergeCatalogues([], sitemap)).toStrictEqual(sitemap);
  });
});

describe("parseSitemap and parseLlmsTxt under hostile input", () => {
  it("caps each problem message and the problem list, saying how many were left out", () => {
    // 100k unclosed <url> tags: the parser's message holds its whole tag stack (about 1 MB); the
    // unclosed blocks, all on line 1, say it in one short problem instead.
    const unclosed = parseSitemap(`<urlset>${"<url>".repeat(100_000)}`, { locale: "en" });
    expect(kinds(unclosed.problems)).toStrictEqual([[1, "malformed-xml"]]);
    expect(unclosed.problems[0]?.message.length).toBeLessThan(400);
    const longUrl = parseSitemap(`<urlset><url><loc>/${"a".repeat(1_000_000)}</loc></url></urlset>`, { locale: "en" });
    expect(longUrl.problems[0]?.message.length).toBeLessThan(400);
    expect(longUrl.problems[0]?.message).toMatch(/… \(\d+ more characters left out\)/);
    const relative = parseSitemap(`<urlset>${"<url><loc>/a</loc></url>\n".repeat(150)}</urlset>`, { locale: "en" });
    expect(relative.problems.length).toBe(101);
    expect(relative.problems.at(-1)).toStrictEqual({
      line: 101,
      kind: "more-problems",
      message: "line 101: 50 more problem(s) found and left out of this list.",
    });
  });

  it("keeps a list at the cap whole, and honours maxProblems", () => {
    const lines = Array.from({ length: 5 }, (_, index) => `- not a link ${index}`).join("\n");
    expect(parseLlmsTxt(`# T\n## S\n${lines}`, { locale: "en" }).problems.map((problem) => problem.kind)).toStrictEqual(Array(5).fill("not-a-link"));
    const capped = parseLlmsTxt(`# T\n## S\n${lines}`, { locale: "en", maxProblems: 2 }).problems;
    expect(capped.map((problem) => [problem.line, problem.kind])).toStrictEqual([[3, "not-a-link"], [4, "not-a-link"], [5, "more-problems"]]);
    expect(capped[2]?.message).toBe("line 5: 3 more problem(s) found and left out of this list.");
  });

  it("reads nothing past maxBytes, and says so", () => {
    const xml = `<urlset>${"<url><loc>https://example.com/a</loc></url>".repeat(100)}</urlset>`;
    expect(parseSitemap(xml, { locale: "en", maxBytes: 1000 })).toStrictEqual({
      entries: [],
      sitemaps: [],
      problems: [{ line: 1, kind: "too-large", message: `line 1: the text is ${xml.length} bytes, over the 1000-byte limit (maxBytes); nothing was read.` }],
    });
    expect(parseSitemap(xml, { maxBytes: xml.length }).entries).toHaveLength(1);
  });
});
