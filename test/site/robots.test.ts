/**
 * parseRobotsTxt against RFC 9309's own examples (section 5 and the rules of section 2), as a
 * fetch guard, and under hostile input: a huge file, a very long line, many groups, many
 * wildcards.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { McpSearchError } from "../../src/index.js";
import { parseRobotsTxt } from "../../src/site/index.js";

/** RFC 9309 §5.1, "Simple Example", as printed. */
const RFC_SIMPLE = [
  "User-Agent: *",
  "Disallow: *.gif$",
  "Disallow: /example/",
  "Allow: /publications/",
  "",
  "User-Agent: foobot",
  "Disallow:/",
  "Allow:/example/page.html",
  "Allow:/example/allowed.gif",
  "",
  "User-Agent: barbot",
  "User-Agent: bazbot",
  "Disallow: /example/page.html",
  "",
  "User-Agent: quxbot",
  "",
  "EOF",
].join("\n");

describe("parseRobotsTxt: RFC 9309's examples", () => {
  // §5.1: what each crawler may fetch, as the RFC explains the example.
  it.each([
    ["*", "/example/page.html", false],
    ["*", "/publications/", true],
    ["*", "/image.gif", false],
    ["*", "/publications/image.gif", true], // /publications/ is longer than *.gif$
    ["*", "/image.gif?size=2", true], // $ ends the path
    ["*", "/about", true],
    ["foobot", "/example/page.html", true],
    ["foobot", "/example/allowed.gif", true],
    ["foobot", "/example/other.html", false],
    ["foobot", "/", false],
    ["FooBot", "/example/page.html", true], // product tokens match case-insensitively
    ["barbot", "/example/page.html", false],
    ["bazbot", "/example/page.html", false],
    ["bazbot", "/example/", true], // its own group replaces the * group
    ["quxbot", "/example/page.html", true], // an empty group allows everything
    ["otherbot", "/example/", false], // no group of its own: the * group
  ] as const)("%s on %s: allowed %s", (userAgent, path, allowed) => {
    expect(parseRobotsTxt(RFC_SIMPLE, { userAgent }).isAllowed(path)).toBe(allowed);
  });

  it("§5.2: the longest match wins, whatever the order of the lines", () => {
    for (const lines of [
      ["User-Agent: foobot", "Allow: /example/page/", "Disallow: /example/page/disallowed.gif"],
      ["User-Agent: foobot", "Disallow: /example/page/disallowed.gif", "Allow: /example/page/"],
    ]) {
      const robots = parseRobotsTxt(lines.join("\n"), { userAgent: "foobot" });
      expect(robots.isAllowed("/example/page/")).toBe(true);
      expect(robots.isAllowed("/example/page/disallowed.gif")).toBe(false);
      expect(robots.match("/example/page/disallowed.gif")).toStrictEqual({ allow: false, pattern: "/example/page/disallowed.gif", line: lines.indexOf("Disallow: /example/page/disallowed.gif") + 1 });
    }
  });

  it("§2.2.1: groups that name the same crawler are merged; a group may name several crawlers", () => {
    const text = ["user-agent: ExampleBot", "disallow: /foo", "disallow: /bar", "", "user-agent: ExampleBot", "user-agent: OtherBot", "disallow: /baz"].join("\n");
    const example = parseRobotsTxt(text, { userAgent: "examplebot" });
    expect(["/foo", "/bar", "/baz", "/qux"].map((path) => example.isAllowed(path))).toStrictEqual([false, false, false, true]);
    expect(parseRobotsTxt(text, { userAgent: "OtherBot" }).isAllowed("/foo")).toBe(true);
  });

  it("§2.2.2: an allow and a disallow of the same length: allow wins; an empty disallow blocks nothing", () => {
    const robots = parseRobotsTxt("User-agent: *\nDisallow: /page\nAllow: /page\nDisallow:\n");
    expect(robots.isAllowed("/page")).toBe(true);
    expect(robots.rules).toStrictEqual([
      { allow: false, pattern: "/page", line: 2 },
      { allow: true, pattern: "/page", line: 3 },
    ]);
    expect(parseRobotsTxt("User-agent: *\nDisallow:\n").isAllowed("/anything")).toBe(true);
  });

  it("§2.2.2: /robots.txt is always allowed", () => {
    expect(parseRobotsTxt("User-agent: *\nDisallow: /\n").isAllowed("/robots.txt")).toBe(true);
    expect(parseRobotsTxt("User-agent: *\nDisallow: /\n").isAllowed("/robots.txt.bak")).toBe(false);
  });

  it("§2.2.2: percent-encoding, as the RFC's table shows it: non-ASCII is encoded, an encoded unreserved character is decoded", () => {
    const robots = parseRobotsTxt("User-agent: *\nDisallow: /foo/bar/ツ\nDisallow: /foo/bar/%62%61%7A\nDisallow: /a%2fb\n");
    expect(robots.isAllowed("/foo/bar/%E3%83%84")).toBe(false);
    expect(robots.isAllowed("/foo/bar/ツ")).toBe(false);
    expect(robots.isAllowed("/foo/bar/baz")).toBe(false);
    expect(robots.isAllowed("/a%2Fb")).toBe(false); // the hex case does not matter
    expect(robots.isAllowed("/a/b")).toBe(true); // an encoded "/" is not a "/"
  });

  it("§2.2.3: * matches any run, $ ends the path, # starts a comment", () => {
    const robots = parseRobotsTxt("User-agent: * # everyone\nallow: /this/*/exactly\ndisallow: /this/\ndisallow: /this/path/exactly$ # only this one\n");
    expect(robots.isAllowed("/this/one/exactly")).toBe(true);
    expect(robots.isAllowed("/this/path/exactly")).toBe(false);
    expect(robots.isAllowed("/this/path/exactly/not")).toBe(true); // /this/*/exactly is longer than /this/
    expect(robots.isAllowed("/this/other")).toBe(false);
  });

  it("ignores rules before any user-agent line, and lines that are not rules", () => {
    const robots = parseRobotsTxt("Disallow: /early\nSitemap: https://example.com/sitemap.xml\nUser-agent: *\nCrawl-delay: 10\nDisallow: /late\nnonsense line\n");
    expect(robots.isAllowed("/early")).toBe(true);
    expect(robots.isAllowed("/late")).toBe(false);
    expect(robots.rules).toHaveLength(1);
  });

  it("allows everything when no group applies, or the file is empty", () => {
    expect(parseRobotsTxt("User-agent: foobot\nDisallow: /\n").isAllowed("/x")).toBe(true);
    expect(parseRobotsTxt("").isAllowed("/x")).toBe(true);
    expect(parseRobotsTxt("\uFEFF").rules).toStrictEqual([]);
  });
});

describe("parseRobotsTxt: one spelling of a path, in a rule and in both forms of a path", () => {
  // [rule lines, path or URL, allowed]. Each row is a case of RFC 9309 §2.2.2 (percent-encoding)
  // or §2.2.3 (special characters), or a dot segment that the path form must resolve as the URL
  // form does. The rows marked "was" failed before a path was normalised once, the same way in
  // both forms (13 of these 39 rows).
  it.each([
    // §2.2.3's own table: a rule matches special characters verbatim when they are percent-encoded
    ["Disallow: /path/file-with-a-%2A.html", "/path/file-with-a-*.html", false], // was allowed
    ["Disallow: /path/file-with-a-%2A.html", "/path/file-with-a-%2A.html", false],
    ["Disallow: /path/file-with-a-%2A.html", "/path/file-with-a-%2a.html", false],
    ["Disallow: /path/file-with-a-%2A.html", "/path/file-with-a-x.html", true], // %2A is no wildcard
    ["Disallow: /path/foo-%24", "/path/foo-$", false], // was allowed
    ["Disallow: /path/foo-%24", "https://example.com/path/foo-$", false], // was allowed
    ["Disallow: /path/foo-%24", "/path/foo-%24", false],
    ["Disallow: /path/foo-%24", "/path/foo-", true],
    ["Disallow: /path/foo-$", "/path/foo-", false], // a final $ is the anchor
    ["Disallow: /path/foo-$", "/path/foo-$", true],
    ["Disallow: /path/foo-$", "/path/foo-x", true],
    ["Disallow: /a$b", "/a$b", false], // a $ that does not end the rule is a literal
    ["Disallow: /a*b", "/a*b", false],
    ["Disallow: /a*b", "/axxb", false],
    // §2.2.2's table: non-ASCII encoded as UTF-8, unreserved characters decoded, hex in any case
    ["Disallow: /foo/bar?baz=quz", "/foo/bar?baz=quz", false],
    ["Disallow: /foo/bar/ツ", "/foo/bar/%E3%83%84", false],
    ["Disallow: /foo/bar/%E3%83%84", "/foo/bar/ツ", false],
    ["Disallow: /foo/bar/%62%61%7A", "/foo/bar/baz", false],
    ["Disallow: /foo/bar/baz", "/foo/bar/%62%61%7A", false],
    ["Disallow: /a%2fb", "/a%2Fb", false],
    ["Disallow: /a%2fb", "/a/b", true], // an encoded "/" is not a "/"
    ["Disallow: /a b", "/a%20b", false], // was allowed
    ["Disallow: /a%20b", "/a b", false], // was allowed
    ["Disallow: /100%", "/100%25", false], // a "%" that starts no escape is one
    // dot segments: the path form resolves them as the URL form does
    ["Disallow: /export/", "/a/../export/run", false], // was allowed
    ["Disallow: /export/", "/a/%2e%2e/export/run", false], // was allowed
    ["Disallow: /export/", "/a/%2E./export/run", false], // was allowed
    ["Disallow: /export/", "/./export/run", false], // was allowed
    ["Disallow: /export/", "/../../export/run", false], // was allowed
    ["Disallow: /export/", "https://example.com/a/../export/run", false],
    ["Disallow: /export/", "https://example.com/a/%2e%2e/export/run", false],
    ["Disallow: /export/", "/export/../public", true], // was refused
    ["Disallow: /export/", "/exports/../public/export/", true],
    ["Disallow: /export/", "/a/..%2Fexport/run", true], // %2F is not a separator, so no dot segment
    ["Disallow: /export/", "/a/...export/", true],
    // the query is part of the path, the fragment is not
    ["Disallow: /*?all=", "/run?all=1", false],
    ["Disallow: /*?all=", "/run#?all=1", true], // was refused
    ["Disallow: /a/", "//a/", true], // a path that starts with "//" names no host
    ["Disallow: /", "/a/../robots.txt", true], // was refused: /robots.txt is always allowed
  ] as const)("%s on %s: allowed %s", (rule, path, allowed) => {
    expect(parseRobotsTxt(`User-agent: *\n${rule}\n`).isAllowed(path)).toBe(allowed);
  });

  it("gives the same verdict for a path and for the same path in an absolute URL", () => {
    const unit = fc.constantFrom("a", "/", ".", "%2e", "%2E", "%2A", "*", "$", "%24", "..", "%2F", "?", " ", "ç", "%");
    const rule = fc.tuple(fc.constantFrom("/", "*"), fc.array(fc.constantFrom("a", "/", "*", "$", ".", "%2A", "%24"), { maxLength: 6 })).map(([first, rest]) => first + rest.join(""));
    const path = fc.array(unit, { maxLength: 10 }).map((parts) => `/${parts.join("")}`);
    fc.assert(
      fc.property(rule, path, (written, tested) => {
        const robots = parseRobotsTxt(`User-agent: *\nDisallow: ${written}\n`);
        expect(robots.isAllowed(`https://example.com${tested}`)).toBe(robots.isAllowed(tested));
      }),
      { numRuns: 1_000 },
    );
  });
});

describe("parseRobotsTxt as a fetch guard", () => {
  const robots = parseRobotsTxt("User-agent: *\nDisallow: /api/\nDisallow: /export\nAllow: /api/docs\n");

  it("reads the path and query of an absolute URL, and a bare path from the root", () => {
    expect(robots.isAllowed("https://example.com/api/recompute?all=1")).toBe(false);
    expect(robots.isAllowed("https://example.com/api/docs")).toBe(true);
    expect(robots.isAllowed("http://www.example.com/export.csv")).toBe(false);
    expect(robots.isAllowed("export")).toBe(false);
    expect(robots.isAllowed("/live?export")).toBe(true);
  });

  it("names the deciding rule", () => {
    expect(robots.match("/api/x")).toStrictEqual({ allow: false, pattern: "/api/", line: 2 });
    expect(robots.match("/live")).toBeNull();
  });

  it("throws McpSearchError for misuse, naming it", () => {
    expect(() => parseRobotsTxt(undefined as unknown as string)).toThrow(new McpSearchError("parseRobotsTxt: the text must be a string (got undefined)."));
    expect(() => parseRobotsTxt("", { userAgent: "Mozilla/5.0 (X11)" })).toThrow(/userAgent must be a product token.*"Mozilla\/5\.0 \(X11\)"/);
    expect(() => parseRobotsTxt("", { maxBytes: 0 })).toThrow(new McpSearchError("parseRobotsTxt: maxBytes must be a positive integer (got 0)."));
    expect(() => robots.isAllowed(42 as unknown as string)).toThrow(McpSearchError);
  });
});

describe("parseRobotsTxt's matching", () => {
  /** The rule as a regular expression, the plain reading of RFC 9309 §2.2.3: a prefix match, `*` any run, a final `$` the end. */
  function naive(pattern: string): RegExp {
    const anchored = pattern.endsWith("$");
    const body = (anchored ? pattern.slice(0, -1) : pattern)
      .split("*")
      .map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*");
    return new RegExp(`^${body}${anchored ? "$" : ""}`, "s");
  }

  it("agrees with a regular expression on every rule and path of a small alphabet", () => {
    const pattern = fc.tuple(fc.constantFrom("/", "*"), fc.string({ unit: fc.constantFrom("a", "b", "/", "*", "$"), maxLength: 8 })).map(([first, rest]) => first + rest);
    const path = fc.string({ unit: fc.constantFrom("a", "b", "/", "$"), maxLength: 12 }).map((rest) => `/${rest}`);
    fc.assert(
      fc.property(pattern, path, (rule, tested) => {
        fc.pre(tested !== "/robots.txt");
        const robots = parseRobotsTxt(`User-agent: *\nDisallow: ${rule}\n`);
        expect(robots.isAllowed(tested)).toBe(!naive(rule).test(tested));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe("parseRobotsTxt under hostile input", () => {
  it("reads only the first 500 KiB of a huge file, to the last whole line, and says so", () => {
    const line = "Disallow: /private/\n";
    const huge = `User-agent: *\n${line.repeat(Math.ceil((50 * 1024 * 1024) / line.length))}Disallow: /\n`;
    const robots = parseRobotsTxt(huge);
    expect(robots.truncated).toBe(true);
    expect(robots.isAllowed("/public")).toBe(true); // the last line, past the limit, was not read
    expect(robots.isAllowed("/private/x")).toBe(false);
    expect(robots.rules.length).toBe(Math.floor((500 * 1024 - "User-agent: *\n".length) / line.length));
    expect(parseRobotsTxt(huge, { maxBytes: 100 }).rules).toHaveLength(4);
  });

  it("counts bytes, not characters: a multi-byte file is cut by its UTF-8 size", () => {
    const line = "Disallow: /ação/\n"; // 19 bytes, 17 characters
    const robots = parseRobotsTxt(`User-agent: *\n${line.repeat(100)}`, { maxBytes: 14 + 19 * 10 });
    expect(robots.truncated).toBe(true);
    expect(robots.rules).toHaveLength(10);
  });

  it("takes a 400 KB line, with or without wildcards, in linear time", () => {
    const long = `User-agent: *\nDisallow: /${"a".repeat(400_000)}\nDisallow: /${"*a".repeat(200_000)}b$\n`;
    const robots = parseRobotsTxt(long, { maxBytes: 1_000_000 });
    expect(robots.rules).toHaveLength(2);
    expect(parseRobotsTxt(long).rules).toHaveLength(1); // past 500 KiB, the second line is left out
    expect(robots.isAllowed(`/${"a".repeat(10_000)}`)).toBe(true);
    expect(robots.isAllowed(`/${"a".repeat(200_000)}b`)).toBe(false);
  });

  it("keeps a wildcard rule's check linear in the path: no backtracking on a * per character", () => {
    const robots = parseRobotsTxt(`User-agent: *\nDisallow: /${"*a".repeat(2_000)}*b$\n`);
    expect(robots.isAllowed(`/${"a".repeat(100_000)}`)).toBe(true);
    expect(robots.isAllowed(`/${"a".repeat(100_000)}b`)).toBe(false);
  });

  it("reads 10,000 groups, and merges the ones that name the crawler", () => {
    const groups = Array.from({ length: 10_000 }, (_, i) => `User-agent: bot${i}\nDisallow: /only-${i}/\n`).join("");
    const text = `${groups}User-agent: bot7\nDisallow: /also/\n`;
    const robots = parseRobotsTxt(text, { userAgent: "bot7" });
    expect(robots.rules.map((rule) => rule.pattern)).toStrictEqual(["/only-7/", "/also/"]);
    expect(parseRobotsTxt(text).rules).toStrictEqual([]);
  });

  it("reads a file of only comments, blank lines and garbage as no rules", () => {
    const junk = "# \u0000\u0001\n:\n::::\n\r\r\n\uD800 Disallow /\nUser-agent\nDisallow /x\n".repeat(1_000);
    expect(parseRobotsTxt(junk).rules).toStrictEqual([]);
  });
});
