import { sep } from "node:path";
import { describe, expect, it } from "vitest";
import { cleanRelative, documentId, parseId, parseResourceUri, resourceUri } from "../../src/folder/ids.js";

/**
 * The lexical clean-up of ../../src/folder/ids.ts: ids, urls, `file://` URIs and resource uris to
 * a path relative to the root, each decision at its boundary, before any disk access.
 */

describe("cleanRelative", () => {
  it.each([
    ["a/b.md", "separator", "a/b.md"],
    [".", "separator", null],
    ["a/..", "separator", null],
    ["a/../..", "separator", null],
    ["z:b.md", "separator", null],
    ["A:/b.md", "separator", null],
    ["1:b.md", "separator", "1:b.md"],
    ["ab:c.md", "separator", "ab:c.md"],
    ["a/C:b.md", "separator", "a/C:b.md"],
    ["a\\b.md", "literal", "a\\b.md"],
    ["C:\\b.md", "literal", "C:\\b.md"],
    ["a/\0", "literal", null],
  ] as const)("cleanRelative(%j, %j) is %j", (path, backslashes, expected) => {
    expect(cleanRelative(path, backslashes)).toBe(expected);
  });
});

describe("parseId", () => {
  const address = { root: "/srv/docs" };
  it.each([
    ["  doc:a.md  ", { ok: true, relative: "a.md", page: 1 }],
    ["doc:a.md#0", { ok: true, relative: "a.md", page: 1 }],
    ["doc:a.md#123456789", { ok: true, relative: "a.md", page: 123456789 }],
    ["doc:a.md#1234567890", { ok: true, relative: "a.md#1234567890", page: 1 }],
    ["doc:a.md#2x", { ok: true, relative: "a.md#2x", page: 1 }],
    ["doc:a.md#x2", { ok: true, relative: "a.md#x2", page: 1 }],
    ["doc:a#2/b.md", { ok: true, relative: "a#2/b.md", page: 1 }],
    ["a/b.md#4", { ok: true, relative: "a/b.md", page: 4 }],
    ["doc:..", { ok: false, why: "outside" }],
    ["doc:./..", { ok: false, why: "outside" }],
    ["doc:.", { ok: false, why: "empty" }],
    ["doc:/", { ok: false, why: "empty" }],
    ["doc:.\\", { ok: false, why: "empty" }],
    ["file://host/srv/docs/a.md", { ok: false, why: "invalid" }],
    ["file:///srv", { ok: false, why: "outside" }],
    ["file:///srv/docs-other/a.md", { ok: false, why: "outside" }],
    ["file:///srv/docs", { ok: false, why: "empty" }],
  ])("parseId(%j)", (input, expected) => {
    expect(parseId(input, address)).toStrictEqual(expected);
  });

  it.each([
    ["https://xwww.y.org/d/a.md", "https://xy.org/d/", { ok: true, relative: "https:/xwww.y.org/d/a.md", page: 1 }],
    ["https://www.x.org/d/a.md", "https://x.org/d/", { ok: true, relative: "a.md", page: 1 }],
    ["https://wwwxorg.example/d/a.md", "https://org.example/d/", { ok: true, relative: "https:/wwwxorg.example/d/a.md", page: 1 }],
    ["ftp://x.org/d/a.md", "https://x.org/d/", { ok: true, relative: "ftp:/x.org/d/a.md", page: 1 }],
    ["https://x.org/d/a.md", "ftp://x.org/d/", { ok: true, relative: "https:/x.org/d/a.md", page: 1 }],
    ["https://x.org/da.md", "https://x.org/d/", { ok: false, why: "outside" }],
  ])("parseId(%j) under --base-url %j", (input, baseUrl, expected) => {
    expect(parseId(input, { root: "/srv/docs", baseUrl })).toStrictEqual(expected);
  });

  it.skipIf(sep === "\\")("reads backslashes as separators unless the indexed path holds them", () => {
    expect(parseId("doc:a\\b.md", address, new Set(["a\\b.md"]))).toStrictEqual({ ok: true, relative: "a\\b.md", page: 1 });
    expect(parseId("doc:a\\b.md", address, new Set(["a/b.md"]))).toStrictEqual({ ok: true, relative: "a/b.md", page: 1 });
    expect(parseId("doc:a\\b.md", address)).toStrictEqual({ ok: true, relative: "a/b.md", page: 1 });
  });
});

describe("documentId and resource uris", () => {
  it.each([
    ["a.md", 1, "doc:a.md"],
    ["a.md", 2, "doc:a.md#2"],
    ["a.md", 0, "doc:a.md"],
  ])("documentId(%j, %j) is %j", (relative, page, expected) => {
    expect(documentId(relative, page)).toBe(expected);
  });

  it("numbers page 1 by default", () => {
    expect(documentId("a.md")).toBe("doc:a.md");
  });

  it("encodes each segment of a resource uri", () => {
    expect(resourceUri("guias/café com leite#1.md")).toBe("mcp-search://doc/guias/caf%C3%A9%20com%20leite%231.md");
  });

  it.each([
    ["mcp-search://doc/a/b%20c.md", { ok: true, relative: "a/b c.md" }],
    ["MCP-SEARCH://Doc/a.md", { ok: true, relative: "a.md" }],
    ["mcp-search://doc//a.md", { ok: true, relative: "a.md" }],
    ["mcp-search://doc/a%2Fb.md", { ok: true, relative: "a/b.md" }],
    ["mcp-search://doc/..%2F..%2Fetc%2Fpasswd", { ok: false, why: "outside" }],
    ["mcp-search://doc/%2e%2e/x.md", { ok: false, why: "outside" }],
    ["mcp-search://doc/a.md?x=1", { ok: false, why: "invalid" }],
    ["mcp-search://doc/a.md#2", { ok: false, why: "invalid" }],
    ["mcp-search://doc/%ZZ.md", { ok: false, why: "invalid" }],
    ["mcp-search://doc/a%00.md", { ok: false, why: "nul" }],
    ["mcp-search://doc/a\0.md", { ok: false, why: "nul" }],
    ["mcp-search://doc/", { ok: false, why: "empty" }],
    ["mcp-search://docs/a.md", { ok: false, why: "scheme" }],
    ["file:///etc/passwd", { ok: false, why: "scheme" }],
    ["x-mcp-search://doc/a.md", { ok: false, why: "scheme" }],
  ])("parseResourceUri(%j)", (uri, expected) => {
    expect(parseResourceUri(uri)).toStrictEqual(expected);
  });

  it.skipIf(sep === "\\")("keeps a backslash in a name the index holds", () => {
    expect(parseResourceUri("mcp-search://doc/a%5Cb.md", new Set(["a\\b.md"]))).toStrictEqual({ ok: true, relative: "a\\b.md" });
    expect(parseResourceUri("mcp-search://doc/a%5Cb.md")).toStrictEqual({ ok: true, relative: "a/b.md" });
  });
});
