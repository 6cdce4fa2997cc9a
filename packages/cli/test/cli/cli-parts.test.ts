import fc from "fast-check";
import { join, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { createIndex, createVocabulary } from "@sbissoli/mcp-search";
import { parseCommandLine, parseListen } from "../../src/cli/args.js";
import { decodeUtf8, extractDocument } from "../../src/formats/documents.js";
import { firstHeading } from "../../src/formats/titles.js";
import { decodeEntities, htmlToMarkdown } from "../../src/formats/html.js";
import { cleanRelative, parseId } from "../../src/folder/ids.js";
import { makeSnippet } from "../../src/mcp/snippet.js";
import { searchableText } from "../../src/folder/reader.js";
import type { LoadedDocument } from "../../src/folder/types.js";
import { pagesOf, paginate, snippetSourceOf } from "../../src/mcp/tools.js";

const vocabulary = createVocabulary({ sourceName: "a pasta", entries: [{ asked: "café", source: ["coffee"] }] });
const normalizeChar = (char: string) => vocabulary.normalize(char);

describe("parseCommandLine", () => {
  it.each([
    [["--help"], { command: "help" }],
    [[], { command: "help" }],
    [["-v"], { command: "version" }],
    [["demo"], { command: "demo", locale: "en", localeReason: "default: no locale in the environment" }],
    [["demo", "--locale", "es"], { command: "demo", locale: "es", localeReason: "from --locale" }],
    [["demo", "--limit", "3"], { command: "error", message: "demo takes no arguments but --locale." }],
    [["serve"], { command: "error", message: "serve needs a folder: mcp-search serve <dir>." }],
    [["serve", "docs", "--nope"], { command: "error", message: "Unknown option '--nope'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- \"--nope\"." }],
    [["serve", "docs", "--locale", "fr"], { command: "error", message: '--locale must be pt-BR, en, es (got "fr").' }],
    [["serve", "docs", "--limit=-1"], { command: "error", message: '--limit must be a whole number of at least 0 (got "-1").' }],
    [["serve", "docs", "--http", "host:99999"], { command: "error", message: '--http takes [host:]port, such as 8787 or 127.0.0.1:8787 (got "host:99999").' }],
    [["serve", "docs", "--base-url", "ftp://x"], { command: "error", message: '--base-url must be an http or https URL (got "ftp://x").' }],
    [["publish"], { command: "error", message: 'unknown command "publish": use serve, demo or revoke.' }],
    [["revoke", "--state", "/s"], { command: "revoke", state: "/s" }],
    [["revoke", "--cache", "/c"], { command: "revoke", state: "/c" }],
    [["revoke"], { command: "error", message: "revoke needs the server's state folder: mcp-search revoke --state DIR (or the --cache DIR the server runs with)." }],
    [["revoke", "--state", "/s", "--http", "1"], { command: "error", message: "revoke takes --state DIR or --cache DIR only." }],
  ])("reads %j", (argv, expected) => {
    expect(parseCommandLine(argv)).toStrictEqual(expected);
  });

  it("applies the defaults of serve", () => {
    expect(parseCommandLine(["serve", "docs", "--http", "8787", "--base-url", "https://X.org/d"])).toStrictEqual({
      command: "serve",
      options: {
        folder: "docs",
        http: { host: "127.0.0.1", port: 8787 },
        baseUrl: "https://x.org/d", // checked and parsed here; openFolder alone adds the trailing "/"
        locale: "en", // no --locale and an empty environment (see cli-locale.test.ts)
        localeReason: "default: no locale in the environment",
        limit: 10,
        maxChars: 20_000,
        snippetChars: 240,
        maxFileBytes: 1024 * 1024,
        vocabulary: undefined,
        allowedHosts: [],
        allowedOrigins: [],
        token: undefined,
        ranking: "bm25",
        language: "auto",
        cache: undefined,
        resources: true,
        folders: undefined,
        exclude: [],
        include: [],
        oauth: undefined,
      },
    });
  });

  it("reads several folders, and repeatable --exclude and --include patterns", () => {
    const line = parseCommandLine(["serve", "notes", "work/docs", "--exclude", "drafts/", "--exclude", "*.tmp.md", "--include", "*.pdf"]);
    expect(line.command === "serve" && line.options).toMatchObject({ folder: "notes", folders: ["notes", "work/docs"], exclude: ["drafts/", "*.tmp.md"], include: ["*.pdf"] });
    expect(parseCommandLine(["serve", "docs", "--exclude", " "])).toStrictEqual({
      command: "error",
      message: '--exclude takes one .gitignore-style pattern, such as drafts/ or *.tmp.md (got " ").',
    });
  });

  it("reads --language, and refuses one it does not know or with --ranking rule", () => {
    const serve = (...flags: string[]) => parseCommandLine(["serve", "docs", ...flags]);
    expect(serve("--language", "pt")).toMatchObject({ command: "serve", options: { language: "pt" } });
    expect(serve("--language", "nl")).toStrictEqual({ command: "error", message: '--language must be auto, pt, es, en, ru, uk, el, de, fr or it (got "nl").' });
    expect(serve("--ranking", "rule", "--language", "pt")).toStrictEqual({ command: "error", message: "--language applies to --ranking bm25 only." });
  });

  it("reads --allowed-origin as an origin and --token of 16 characters or more", () => {
    const line = parseCommandLine(["serve", "docs", "--http", "0", "--allowed-origin", "https://App.example/x", "--token", "0123456789abcdef"]);
    expect(line.command === "serve" && [line.options.allowedOrigins, line.options.token]).toStrictEqual([["https://app.example"], "0123456789abcdef"]);
    expect(parseCommandLine(["serve", "docs", "--allowed-origin", "ftp://x"])).toStrictEqual({
      command: "error",
      message: '--allowed-origin must be an http or https origin (got "ftp://x").',
    });
  });

  it("reads --oauth with its options, the state defaulting to --cache", () => {
    const line = parseCommandLine(["serve", "docs", "--http", "0", "--oauth", "--public-url", "https://MCP.example.com/", "--cache", "/c", "--owner-secret-file", "/s"]);
    expect(line.command === "serve" && line.options.oauth).toStrictEqual({ publicUrl: "https://mcp.example.com", state: "/c", ownerSecretFile: "/s" });
    const own = parseCommandLine(["serve", "docs", "--http", "0", "--oauth", "--cache", "/c", "--state", "/st"]);
    expect(own.command === "serve" && own.options.oauth).toStrictEqual({ publicUrl: undefined, state: "/st", ownerSecretFile: undefined });
  });

  it.each([
    [["--oauth"], "--oauth applies to --http only: over stdio, the host that starts the server is its only client."],
    [["--http", "0", "--public-url", "https://x.example"], "--public-url applies to --oauth only."],
    [["--http", "0", "--state", "/s"], "--state applies to --oauth only."],
    [["--http", "0", "--owner-secret-file", "/s"], "--owner-secret-file applies to --oauth only."],
    [["--http", "0", "--oauth", "--public-url", "http://mcp.example.com"], '--public-url must be an https URL (http only on localhost), such as https://mcp.example.com (got "http://mcp.example.com").'],
    [["--http", "0", "--oauth", "--public-url", "https://mcp.example.com/mcp"], '--public-url takes an origin without a path, such as https://mcp.example.com: the server answers at its root (got "https://mcp.example.com/mcp").'],
    [["--http", "0", "--oauth", "--public-url", "mcp.example.com"], '--public-url must be an absolute URL, such as https://mcp.example.com (got "mcp.example.com").'],
  ])("refuses serve %j with one sentence", (argv, message) => {
    expect(parseCommandLine(["serve", "docs", ...argv])).toStrictEqual({ command: "error", message });
  });

  it("refuses --token over stdio, where it would guard nothing", () => {
    expect(parseCommandLine(["serve", "docs", "--token", "0123456789abcdef"])).toStrictEqual({
      command: "error",
      message: "--token applies to --http only: over stdio, the host that starts the server is its only client.",
    });
  });

  it("switches the folder back to the rule with --ranking rule, and refuses other rankings", () => {
    const line = parseCommandLine(["serve", "docs", "--ranking", "rule"]);
    expect(line.command === "serve" && line.options.ranking).toBe("rule");
    expect(parseCommandLine(["serve", "docs", "--ranking", "tfidf"])).toStrictEqual({
      command: "error",
      message: '--ranking must be bm25 or rule (got "tfidf").',
    });
  });

  it.each([
    ["8787", { host: "127.0.0.1", port: 8787 }],
    ["0", { host: "127.0.0.1", port: 0 }],
    ["0.0.0.0:80", { host: "0.0.0.0", port: 80 }],
    ["[::1]:8787", { host: "[::1]", port: 8787 }],
    ["localhost:3000", { host: "localhost", port: 3000 }],
  ])("listens on %s", (value, expected) => {
    expect(parseListen(value)).toStrictEqual(expected);
  });
});

describe("paths", () => {
  it.each([
    ["a/b.md", "a/b.md"],
    ["/a//b.md", "a/b.md"],
    ["a\\b.md", "a/b.md"],
    ["./a/./b.md", "a/b.md"],
    ["a/../b.md", "b.md"],
    ["../b.md", null],
    ["a/../../b.md", null],
    ["C:\\b.md", null],
    ["a\u0000b", null],
    ["", null],
  ])("cleanRelative(%j) is %j", (input, expected) => {
    expect(cleanRelative(input)).toBe(expected);
  });

  it("never lets a cleaned path climb out or keep a dot segment (property)", () => {
    const segment = fc.constantFrom("..", ".", "", "a", "b", "c.md", "\\..", "..\\x");
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), fc.boolean(), (parts, leading) => {
        const cleaned = cleanRelative(`${leading ? "/" : ""}${parts.join("/")}`);
        if (cleaned === null) return;
        const segments = cleaned.split("/");
        expect(segments.every((part) => part !== ".." && part !== "." && part !== "")).toBe(true);
      }),
    );
  });

  it.each([
    ["doc:a.md", { ok: true, relative: "a.md", page: 1 }],
    ["doc:a.md#3", { ok: true, relative: "a.md", page: 3 }],
    ["https://x.org/d/caf%C3%A9.md#2", { ok: true, relative: "café.md", page: 2 }],
    ["file:///srv/docs/a/b.md", { ok: true, relative: "a/b.md", page: 1 }],
    ["file:///srv/other/b.md", { ok: false, why: "outside" }],
    ["doc:a\u0000.md", { ok: false, why: "nul" }],
    ["doc:", { ok: false, why: "empty" }],
    ["doc:.", { ok: false, why: "empty" }],
    ["doc:./", { ok: false, why: "empty" }],
    ["", { ok: false, why: "empty" }],
    ["file:///srv/docs/a%2Fb.md", { ok: false, why: "invalid" }],
  ])("parseId(%j)", (input, expected) => {
    expect(parseId(input, { root: "/srv/docs", baseUrl: "https://x.org/d/" })).toStrictEqual(expected);
  });

  it.each([
    ["https://x.org/d/a.md", "https://x.org/d/", { ok: true, relative: "a.md", page: 1 }],
    ["HTTPS://X.ORG/d/a.md", "https://x.org/d/", { ok: true, relative: "a.md", page: 1 }],
    ["http://x.org/d/a%20b.md#2", "https://x.org/d/", { ok: true, relative: "a b.md", page: 2 }],
    ["x.org/d/guides/a.md", "https://x.org/d/", { ok: true, relative: "guides/a.md", page: 1 }],
    ["www.x.org/d/a.md", "https://x.org/d/", { ok: true, relative: "a.md", page: 1 }],
    ["https://X.org/d/a.md?utm=1", "https://www.x.org/d/", { ok: true, relative: "a.md", page: 1 }],
    ["x.org:8443/d/a.md", "https://x.org:8443/d/", { ok: true, relative: "a.md", page: 1 }],
    ["https://x.org/d/%2e%2e/%2e%2e/etc/passwd", "https://x.org/d/", { ok: false, why: "outside" }],
    ["https://x.org/d/..%2F..%2Fetc/passwd", "https://x.org/d/", { ok: false, why: "outside" }],
    ["https://x.org/d/%ZZ.md", "https://x.org/d/", { ok: false, why: "invalid" }],
    ["https://x.org/d/%E0%A4%A.md", "https://x.org/d/", { ok: false, why: "invalid" }],
    ["https://x.org/d/%00", "https://x.org/d/", { ok: false, why: "nul" }],
    ["https://x.org/d/", "https://x.org/d/", { ok: false, why: "empty" }],
  ])("parseId(%j) under --base-url %j: scheme and host case, www. and a missing scheme do not matter", (input, baseUrl, expected) => {
    expect(parseId(input, { root: "/srv/docs", baseUrl })).toStrictEqual(expected);
  });

  it.each([
    ["https://y.org/d/a.md", "https://x.org/d/"],
    ["https://x.org/e/a.md", "https://x.org/d/"],
    ["https://x.org:9000/d/a.md", "https://x.org/d/"],
    ["guides/a.md", "https://x.org/d/"],
  ])("parseId(%j) under --base-url %j is not read as a url of the folder", (input, baseUrl) => {
    const parsed = parseId(input, { root: "/srv/docs", baseUrl });
    expect(parsed.ok && parsed.relative === "a.md").toBe(false);
  });

  it.skipIf(sep === "\\")("reads every indexed path back from its id, url and file URI, whatever its characters (property)", () => {
    const address = { root: "/srv/docs", baseUrl: "https://x.org/d/" };
    const piece = fc.constantFrom("a", "\\", "..\\x", "C:", "c:\\", "#1", "#", "%", "%41", " ", "é", ".", "..", "?", "doc:", "file:");
    const segment = fc.array(piece, { minLength: 1, maxLength: 4 }).map((pieces) => pieces.join("")).filter((name) => name !== "." && name !== "..");
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 3 }), segment, (folders, name) => {
        const relative = [...folders, `${name}.md`].join("/");
        const indexed = new Set([relative]);
        const url = `${address.baseUrl}${relative.split("/").map(encodeURIComponent).join("/")}`;
        const uri = pathToFileURL(join(address.root, relative)).href;
        for (const spelling of [`doc:${relative}`, `doc:${relative}#2`, url, uri]) {
          const parsed = parseId(spelling, address, indexed);
          expect(parsed).toMatchObject({ ok: true, relative });
        }
      }),
    );
  });

  it.skipIf(sep === "\\").each([
    ["doc:guides\\brewing.md", ["guides/brewing.md"], "guides/brewing.md"],
    ["doc:guides\\brewing.md", ["guides\\brewing.md", "guides/brewing.md"], "guides\\brewing.md"],
    ["doc:..\\x.md", ["..\\x.md"], "..\\x.md"],
    ["doc:C:\\x.md", ["C:\\x.md"], "C:\\x.md"],
  ])("parseId(%j) among %j reads %j: a name that is indexed as written wins over backslashes as separators", (input, paths, expected) => {
    expect(parseId(input, { root: "/srv/docs" }, new Set(paths))).toMatchObject({ ok: true, relative: expected });
  });
});

describe("documents", () => {
  it.each([
    ["# Title\ntext", "Title"],
    ["## Closed ##\n", "Closed"],
    ["```\n# not a title\n```\n# Real", "Real"],
    ["---\ntitle: front\n---\nSetext\n======", "Setext"],
    ["Just text\n\n- a list", undefined],
    ["#hashtag\n# **Bold** title", "Bold title"],
  ])("firstHeading(%j) is %j", (text, expected) => {
    expect(firstHeading(text)).toBe(expected);
  });

  it.each([
    ["caf&eacute; &amp; p&#227;o &#x2014; &Ccedil;", "café & pão — Ç"],
    ["&bogus; &#0; &amp", "&bogus; &#0; &amp"],
  ])("decodeEntities(%j)", (input, expected) => {
    expect(decodeEntities(input)).toBe(expected);
  });

  it.each([
    ["<h1>Café</h1><p>Um <b>bom</b> café.</p><ul><li>água</li></ul>", "# Café\n\nUm **bom** café.\n\n- água"],
    ['<p>See <a href="https://x.org">the site</a> and <a href="/rel">here</a>.</p>', "See [the site](https://x.org) and [here](/rel)."],
    ["<!-- hidden --><p>a<br>b</p><script>x</script><style>y</style>", "a\nb"],
    ["<table><tr><th>a</th><td>1</td></tr><tr><td>b</td><td>2</td></tr></table>", "| a | 1 |\n| --- | --- |\n| b | 2 |"],
    ["unclosed <b", "unclosed <b"],
  ])("htmlToMarkdown(%j)", (html, expected) => {
    expect(htmlToMarkdown(html)).toBe(expected);
  });

  it("stays linear on pathological HTML", () => {
    const html = `${"<".repeat(20_000)}${"<a ".repeat(20_000)}${"&".repeat(20_000)}`;
    expect(typeof htmlToMarkdown(html)).toBe("string");
  });

  it("re-indents one-line JSON and refuses non-UTF-8 bytes", () => {
    expect(extractDocument("x.json", '{"a":[1]}').text).toBe('{\n  "a": [\n    1\n  ]\n}');
    expect(decodeUtf8(Uint8Array.from([0xef, 0xbb, 0xbf, 0x61]))).toBe("a");
    expect(decodeUtf8(Uint8Array.from([0x63, 0xe9]))).toBeUndefined();
    expect(decodeUtf8(Uint8Array.from([0x61, 0x00]))).toBeUndefined();
  });
});

describe("makeSnippet", () => {
  const text = `${"Intro words here. ".repeat(40)}Under-extraction tastes sour; good coffee tastes sweet. ${"Outro words. ".repeat(40)}`;

  it("centres on the match and marks both cuts", () => {
    const snippet = makeSnippet(text, [["sour"]], { maxChars: 80, normalizeChar });
    expect(snippet).toMatch(/^….*sour.*…$/);
    expect(snippet.length).toBeLessThanOrEqual(80 + 16);
  });

  it("prefers the window that covers more distinct terms", () => {
    const spread = `sour ${"x ".repeat(200)}sour and coffee together ${"y ".repeat(200)}coffee`;
    const snippet = makeSnippet(spread, [["sour"], ["coffee"]], { maxChars: 60, normalizeChar });
    expect(snippet).toContain("sour and coffee together");
  });

  it("matches accents, case and translations at word starts only", () => {
    expect(makeSnippet("O CAFÉ está pronto", [["cafe"]], { maxChars: 60, normalizeChar })).toBe("O CAFÉ está pronto");
    const inside = makeSnippet(`${"z ".repeat(100)}decafe ${"w ".repeat(100)}`, [["cafe"]], { maxChars: 40, normalizeChar });
    expect(inside.startsWith("z z")).toBe(true);
  });

  it("always contains a match when the text has one, and never exceeds the limit by more than the word slack (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("alpha", "beta", "Café", "x", "—", "  ", "\n", "ção"), { maxLength: 300 }), fc.integer({ min: 40, max: 200 }), (words, maxChars) => {
        const body = words.join(" ");
        const snippet = makeSnippet(body, [["cafe"]], { maxChars, normalizeChar });
        expect(snippet.length).toBeLessThanOrEqual(maxChars + Math.floor(maxChars / 6) + 2);
        if (words.includes("Café")) expect(snippet).toContain("Café");
      }),
    );
  });
});

/** The cut rule as written in paginate's TSDoc, with unbounded scans: the reference it must equal. */
function paginateByRule(text: string, maxChars: number): [number, number][] {
  const size = Math.max(1, Math.floor(maxChars));
  const pages: [number, number][] = [];
  let start = 0;
  do {
    let end = Math.min(text.length, start + size);
    if (end < text.length) {
      const floor = start + Math.floor(size * 0.8);
      const newline = text.lastIndexOf("\n", end - 1);
      const space = text.lastIndexOf(" ", end - 1);
      end = newline >= floor ? newline + 1 : space >= floor ? space + 1 : end;
    }
    pages.push([start, end]);
    start = end;
  } while (start < text.length);
  return pages;
}

describe("searchableText", () => {
  it("indexes to exactly what the full text indexes to, for any query (property)", () => {
    const word = fc.constantFrom("Café", "cafe", "coffee", "de", "the", "a", "Produção", "producao", "x", "42", "brew-ratio", "ÁGUA", "água", "r2d2", "—", ".", "\n", "grind", "grinder");
    const text = fc.array(word, { maxLength: 40 }).map((words) => words.join(" "));
    const query = fc.array(fc.constantFrom("cafe", "caf", "coffee", "producao", "prod", "agua", "grind", "gri", "42", "brew ratio", "r2", "de"), { minLength: 1, maxLength: 3 }).map((words) => words.join(" "));
    fc.assert(
      fc.property(fc.array(fc.tuple(text, text), { minLength: 1, maxLength: 6 }), fc.array(query, { minLength: 1, maxLength: 5 }), (documents, queries) => {
        const entries = documents.map(([title, body], i) => ({ id: `doc:${i}.md`, title: title || `${i}.md`, url: `file:///${i}.md`, keywords: ["renda"], text: body }));
        const full = createIndex(entries);
        const compact = createIndex(entries.map((entry) => ({ ...entry, text: searchableText(entry.text) })));
        for (const q of queries) expect(compact.search(q, { limit: 100 })).toStrictEqual(full.search(q, { limit: 100 }));
      }),
    );
  });

  it.each([
    ["Produção de soja e de milho no Paraná; soja outra vez.", "producao soja milho parana outra vez"],
    ["", ""],
    ["a de the", ""],
  ])("searchableText(%j) is %j", (text, expected) => {
    expect(searchableText(text)).toBe(expected);
  });
});

describe("snippetSourceOf", () => {
  it("normalises a document once, and again only for a re-read document or another normaliser", () => {
    const doc: LoadedDocument = { id: "doc:a.md", relative: "a.md", title: "A", url: "file:///a.md", text: "O CAFÉ está pronto", format: "markdown", bytes: 20, modified: 0 };
    const source = snippetSourceOf(doc, normalizeChar);
    expect(snippetSourceOf(doc, normalizeChar)).toBe(source);
    expect(makeSnippet(source, [["cafe"]], { maxChars: 60, normalizeChar })).toBe("O CAFÉ está pronto");
    const edited = { ...doc, text: "Sem café hoje" };
    expect(makeSnippet(snippetSourceOf(edited, normalizeChar), [["cafe"]], { maxChars: 60, normalizeChar })).toBe("Sem café hoje");
    expect(snippetSourceOf(doc, (char) => char)).not.toBe(source);
  });
});

describe("paginate", () => {
  it("cuts where the rule says: the last line break, else the last space, in the page's last fifth (property)", () => {
    const text = fc.array(fc.constantFrom("a", "bb", "cccccc", " ", "\n", "é", "\r\n"), { maxLength: 600 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 120 }), (body, max) => {
        expect(paginate(body, max)).toStrictEqual(paginateByRule(body, max));
      }),
    );
  });

  it("computes a document's pages once per document and page size", () => {
    const doc: LoadedDocument = { id: "doc:a.md", relative: "a.md", title: "A", url: "file:///a.md", text: "one two three four", format: "markdown", bytes: 18, modified: 0 };
    const pages = pagesOf(doc, 8);
    expect(pages).toStrictEqual(paginate(doc.text, 8));
    expect(pagesOf(doc, 8)).toBe(pages);
    expect(pagesOf(doc, 10)).toStrictEqual(paginate(doc.text, 10));
    expect(pagesOf({ ...doc, text: "edited" }, 8)).toStrictEqual([[0, 6]]);
  });

  it("covers the text exactly, with pages no longer than the limit (property)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3000 }), fc.integer({ min: 1, max: 500 }), (text, max) => {
        const pages = paginate(text, max);
        expect(pages[0]?.[0]).toBe(0);
        expect(pages.at(-1)?.[1]).toBe(text.length);
        pages.forEach(([from, to], index) => {
          expect(to - from).toBeLessThanOrEqual(max);
          if (text.length > 0) expect(to).toBeGreaterThan(from);
          if (index > 0) expect(from).toBe(pages[index - 1]?.[1]);
        });
      }),
    );
  });
});
