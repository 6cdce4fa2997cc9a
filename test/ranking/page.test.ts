import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createIndex } from "../../src/index.js";
import { pageKey, sortedQuery, trimSlash } from "../../src/ranking/page.js";

describe("trimSlash", () => {
  it.each([
    ["/docs/a/", "/docs/a"],
    ["/docs/a///", "/docs/a"],
    ["/docs/a", "/docs/a"],
    ["/", "/"],
    ["///", "/"],
    ["", "/"],
  ])("trims %j to %j", (path, expected) => {
    expect(trimSlash(path)).toBe(expected);
  });
});

describe("pageKey and sortedQuery", () => {
  it.each([
    ["https://www.example.com/docs/a/#top", "example.com/docs/a", ""],
    ["http://Example.com:80/docs/a", "example.com/docs/a", ""],
    ["https://example.com:8443/", "example.com:8443/", ""],
    ["https://example.com/s?b=2&a=1", "example.com/s?b=2&a=1", "a=1&b=2"],
  ])("reads %j as the catalogue's %j and the resolver's query %j", (url, key, query) => {
    expect(pageKey(new URL(url))).toBe(key);
    expect(sortedQuery(new URL(url))).toBe(query);
  });
});

describe("the same page, in the catalogue and the resolver", () => {
  const variant = (path: string, query: string) =>
    fc
      .record({
        scheme: fc.constantFrom("https://", "http://", "HTTPS://"),
        www: fc.boolean(),
        slashes: fc.integer({ min: 0, max: 3 }),
        fragment: fc.constantFrom("", "#top", "#"),
      })
      .map(({ scheme, www, slashes, fragment }) => `${scheme}${www ? "www." : ""}example.com${path}${"/".repeat(slashes)}${query}${fragment}`);
  const page = fc.record({
    path: fc.constantFrom("", "/docs", "/docs/a", "/2026-08-24"),
    query: fc.constantFrom("", "?x=1", "?a=1&b=2"),
  });

  it("resolves every url the catalogue calls the same page to that page's entry", () => {
    fc.assert(
      fc.property(page.chain(({ path, query }) => fc.tuple(variant(path, query), variant(path, query))), ([a, b]) => {
        expect(pageKey(new URL(a))).toBe(pageKey(new URL(b)));
        expect(createIndex([{ id: "x", title: "X", url: a }]).resolve(b)).toBe("x");
      }),
      { numRuns: 300 },
    );
  });

  it("differs, on purpose, on the query: two pages for the catalogue, one for the resolver when alone", () => {
    const listed = "https://example.com/s?a=1&b=2";
    const sent = "https://example.com/s?utm_source=chat";
    expect(pageKey(new URL(listed))).not.toBe(pageKey(new URL(sent)));
    expect(createIndex([{ id: "s", title: "S", url: listed }]).resolve(sent)).toBe("s");
  });
});
