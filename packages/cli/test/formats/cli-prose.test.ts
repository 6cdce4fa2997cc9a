/**
 * Documents as prose readers see them (issue 15): clean titles on real-shaped pages, the HTML
 * converter keeping meaning (<pre>, tables, links), snippets without markup, and the readable
 * text block for hosts that show the model only `content`. Through the real parts: the
 * converter and extractor as the folder server calls them, and a real McpServer + Client.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createVocabulary } from "@sbissoli/mcp-search";
import { extractDocument } from "../../src/formats/documents.js";
import { cleanHeading, isGenericHeading, MAX_TITLE_CHARS, sectionHeadings } from "../../src/formats/titles.js";
import { openFolder } from "../../src/folder/folder.js";
import { convertHtml, htmlToMarkdown } from "../../src/formats/html.js";
import { markdownToText } from "../../src/formats/markdown.js";
import { connectInMemory } from "../_cli-memory.js";
import { serveInProcess } from "../_cli-serve.js";
import type { CallResult } from "../_cli-spawn.js";
import type { FolderToolsOptions } from "../../src/mcp/tools.js";

/** The first lines of is-extglob's README, as published on npm. */
const IS_EXTGLOB_README = `# is-extglob [![NPM version](https://img.shields.io/npm/v/is-extglob.svg?style=flat)](https://www.npmjs.com/package/is-extglob) [![NPM downloads](https://img.shields.io/npm/dm/is-extglob.svg?style=flat)](https://npmjs.org/package/is-extglob) [![Build Status](https://img.shields.io/travis/jonschlinkert/is-extglob.svg?style=flat)](https://travis-ci.org/jonschlinkert/is-extglob)

> Returns true if a string has an extglob.

## Install

Install with [npm](https://www.npmjs.com/):

\`\`\`sh
$ npm install --save is-extglob
\`\`\`
`;

/** chalk's README opens with an HTML heading that holds only its logo. */
const CHALK_README = `<h1 align="center">
	<br>
	<br>
	<img width="320" src="media/logo.svg" alt="Chalk">
	<br>
	<br>
	<br>
</h1>

> Terminal string styling done right

[![Coverage Status](https://codecov.io/gh/chalk/chalk/branch/main/graph/badge.svg)](https://codecov.io/gh/chalk/chalk) [![npm dependents](https://badgen.net/npm/dependents/chalk)](https://www.npmjs.com/package/chalk?activeTab=dependents)

## Highlights

- Expressive API
- Highly performant
`;

/** An mdBook page: the help popup and the menu bar come before the content's <h1>. */
function mdBookPage(h1: string, title: string): string {
  return `<!DOCTYPE HTML>
<html lang="en" class="light sidebar-visible" dir="ltr">
<head><meta charset="UTF-8"><title>${title}</title><link rel="stylesheet" href="css/chrome.css"></head>
<body>
<div id="body-container">
  <div id="mdbook-help-container">
    <div id="mdbook-help-popup">
      <h2 class="mdbook-help-title">Keyboard shortcuts</h2>
      <div><p>Press <kbd>←</kbd> or <kbd>→</kbd> to navigate between chapters</p></div>
    </div>
  </div>
  <nav id="sidebar" class="sidebar" aria-label="Table of contents">
    <div class="sidebar-scrollbox"><ol class="chapter"><li class="chapter-item"><a href="ch01-00-getting-started.html"><strong>1.</strong> Getting Started</a></li><li class="chapter-item"><a href="ch03-02-data-types.html"><strong>3.2.</strong> Data Types</a></li></ol></div>
  </nav>
  <div id="page-wrapper" class="page-wrapper">
    <div class="page">
      <div id="menu-bar" class="menu-bar sticky">
        <div class="left-buttons"><label id="sidebar-toggle" class="icon-button" for="sidebar-toggle-anchor" title="Toggle Table of Contents"><i class="fa fa-bars"></i></label><button id="theme-toggle" class="icon-button" type="button">Theme</button></div>
        <h1 class="menu-title">The Rust Programming Language</h1>
      </div>
      <div id="content" class="content">
        <main>
          <h1 id="data-types"><a class="header" href="#data-types">${h1}</a></h1>
          <p>Every value in Rust is of a certain <em>data type</em>, which tells Rust what kind of data is being specified.</p>
          <pre><code class="language-rust">fn main() {
    let guess: u32 = "42".parse().expect("Not a number!");
}
</code></pre>
        </main>
        <nav class="nav-wrapper" aria-label="Page navigation"><a rel="prev" href="ch03-01-variables-and-mutability.html" title="Previous chapter">Previous</a></nav>
      </div>
    </div>
  </div>
</div>
</body>
</html>`;
}

/** A Sphinx page (the Python reference): navigation bars with role="navigation", content in role="main". */
const SPHINX_PAGE = `<html><head><title>json — JSON encoder and decoder — Python 3.12.7 documentation</title></head><body>
<div class="related" role="navigation" aria-label="Related"><h3>Navigation</h3><ul><li><a href="genindex.html">index</a></li></ul></div>
<div class="document"><div class="documentwrapper"><div class="bodywrapper"><div class="body" role="main">
<section id="module-json"><h1><code class="xref py py-mod docutils literal notranslate"><span class="pre">json</span></code> — JSON encoder and decoder<a class="headerlink" href="#module-json" title="Link to this heading">¶</a></h1>
<p><strong>Source code:</strong> <a class="reference external" href="https://github.com/python/cpython/tree/3.12/Lib/json/__init__.py">Lib/json/__init__.py</a></p>
<div class="highlight-python3 notranslate"><div class="highlight"><pre><span></span><span class="gp">&gt;&gt;&gt; </span><span class="kn">import</span> <span class="nn">json</span>
<span class="gp">&gt;&gt;&gt; </span><span class="n">json</span><span class="o">.</span><span class="n">dumps</span><span class="p">([</span><span class="s1">&#39;foo&#39;</span><span class="p">])</span>
</pre></div></div>
</section></div></div></div>
<div class="sphinxsidebar" role="navigation" aria-label="Main"><h3>Table of Contents</h3><ul><li><a href="#">json — JSON encoder and decoder</a></li></ul></div>
</div><div class="footer">© Copyright 2001-2024, Python Software Foundation.</div></body></html>`;

describe("titles", () => {
  it.each([
    ["README.md with badges after the name", "is-extglob/README.md", IS_EXTGLOB_README, "is-extglob"],
    ["README.md whose <h1> is a logo", "chalk/readme.md", CHALK_README, "Chalk"],
    ["mdBook page, chrome before the content <h1>", "book/ch03-02-data-types.html", mdBookPage("Data Types", "Data Types - The Rust Programming Language"), "Data Types"],
    ["mdBook page whose content <h1> is generic: <title>", "book/ch01-00.html", mdBookPage("Getting Started", "Getting Started - The Rust Programming Language"), "Getting Started - The Rust Programming Language"],
    ["Sphinx page, code mark and ¶ anchor", "library/json.html", SPHINX_PAGE, "json — JSON encoder and decoder"],
    ["<article> <h1> over a navigation <h1>", "blog/post.html", "<nav><h1>Site</h1></nav><div><h1>Second</h1></div><article><h1>The post</h1><p>x</p></article>", "The post"],
    ["first <h1> when there is no content element", "page.html", "<header><h1>Site</h1></header><h2>Intro</h2><h1>Real <em>one</em></h1>", "Real one"],
    ["<title> when there is no <h1>", "page.html", "<title>Page &amp; title</title><h2>Part</h2><p>x</p>", "Page & title"],
    ["first real heading when <h1> and <title> are generic", "page.html", "<title>Contents</title><h1>Table of contents</h1><h2>Brewing ratios</h2>", "Brewing ratios"],
    ["generic Markdown heading skipped", "guide.md", "# Table of contents\n\n- [a](#a)\n\n## Brewing ratios\n\ntext", "Brewing ratios"],
    ["Portuguese generic heading skipped", "guia.md", "# Sumário\n\n## Atalhos de teclado\n\n## Guia do café coado", "Guia do café coado"],
    ["file name when every heading is generic", "docs/install.md", "# Installation\n\nnpm i x\n\n## Usage\n\nx()", "install.md"],
    ["YAML comment is not a heading", "config.yaml", "# Settings for the kettle\nkettle: 93", "config.yaml"],
    ["inline marks, entities and links in a heading", "x.md", "# The `json` module: **fast** &amp; [documented](https://x.org) for snake_case", "The json module: fast & documented for snake_case"],
  ])("%s", (_, path, source, title) => {
    expect(extractDocument(path, source).title).toBe(title);
  });

  it(`caps a long title at ${MAX_TITLE_CHARS} characters, cut at a word`, () => {
    const title = extractDocument("x.md", `# ${"coffee brewing ".repeat(20)}`).title;
    expect(title.length).toBeLessThanOrEqual(MAX_TITLE_CHARS);
    expect(title).toMatch(/^coffee brewing .*[a-z]…$/);
    expect(extractDocument("x.html", `<h1>${"é".repeat(300)}</h1>`).title).toBe(`${"é".repeat(MAX_TITLE_CHARS - 1)}…`);
  });

  it.each([
    ["Installation", true],
    ["Table of Contents:", true],
    ["Keyboard shortcuts", true],
    ["2. Getting started", true],
    ["Instalação", true],
    ["Atalhos de teclado", true],
    ["Sumário", true],
    ["Installation of the espresso machine", false],
    ["Data Types", false],
  ])("isGenericHeading(%j) is %j", (heading, generic) => {
    expect(isGenericHeading(heading)).toBe(generic);
  });

  it.each([
    ["Learn C# #", "Learn C#"],
    ["json — JSON ¶", "json — JSON"],
    ["[![CI](https://x/ci.svg)](https://x) <b>Bold</b> name · [![npm](https://x/n.svg)](https://x)", "Bold name"],
    ["![Logo](logo.png)", "Logo"],
    ["a\\*b and \\_c", "a*b and _c"],
    ["Hello \\! world \\[x\\]", "Hello ! world [x]"],
  ])("cleanHeading(%j) is %j", (heading, clean) => {
    expect(cleanHeading(heading)).toBe(clean);
  });
});

describe("sectionHeadings", () => {
  it.each([
    ["# Title\n\n## Basic Usage\n\ntext\n\n### The `dumps` [call](x.html) ###", ["Basic Usage", "The dumps call"]],
    ["Command line\n---\n\nOptions\n===", ["Command line"]],
    ["```\n## not a heading\n```\n~~~\nnot either\n---\n~~~", []],
    ["---\ntitle: front matter\n---\n## Real", ["Real"]],
    ["- a list item\n---\n> a quote\n---\n| a |\n| --- |", []],
  ])("sectionHeadings(%j) is %j", (text, expected) => {
    expect(sectionHeadings(text)).toStrictEqual(expected);
  });

  it("reads the headings of a converted HTML page, without its navigation", () => {
    const page = convertHtml("<nav><h2>Menu</h2></nav><main><h1>json</h1><h2>Basic Usage</h2><p>x</p><h3>Command line</h3></main>");
    expect(sectionHeadings(page.markdown)).toStrictEqual(["Basic Usage", "Command line"]);
  });
});

describe("HTML to Markdown", () => {
  it("keeps a <pre> block's newlines and indentation, as a fenced block with its language", () => {
    const python = "class Brewer:\n    def pour(self, grams):\n        if grams > 0:\n            return grams * 16\n\n        return 0";
    const html = `<p>Then:</p><pre><code class="language-python">${python.replace(">", "&gt;")}\n</code></pre><p>Done.</p>`;
    expect(htmlToMarkdown(html)).toBe(`Then:\n\n\`\`\`python\n${python}\n\`\`\`\n\nDone.`);
  });

  it("drops the highlighting markup inside <pre> and fences code that holds backticks with a longer fence", () => {
    expect(convertHtml(SPHINX_PAGE).markdown).toContain("```\n>>> import json\n>>> json.dumps(['foo'])\n```");
    expect(htmlToMarkdown("<pre>a ``` b\n  c</pre>")).toBe("````\na ``` b\n  c\n````");
  });

  it("writes a table with its header separator row, escaping pipes and flattening cells", () => {
    const html = "<table><thead><tr><th>Ratio</th><th>Taste</th></tr></thead><tbody><tr><td>1:15</td><td><p>strong</p><p>a|b</p></td></tr><tr><td>1:17</td><td>light</td></tr></tbody></table><p>After.</p>";
    expect(htmlToMarkdown(html)).toBe("| Ratio | Taste |\n| --- | --- |\n| 1:15 | strong a\\|b |\n| 1:17 | light |\n\nAfter.");
  });

  it("keeps link targets, resolving relative ones against the page's public URL", () => {
    const html = '<p><a href="../ref/json.html#dumps">dumps</a>, <a href="https://x.org/a">abs</a>, <a href="#local">local</a>, <a href="javascript:void(0)">js</a>, <a href="x.html"></a><img src="img/cup.png" alt="A cup"></p>';
    expect(htmlToMarkdown(html, { baseUrl: "https://docs.example.com/guide/intro.html" })).toBe(
      "[dumps](https://docs.example.com/ref/json.html#dumps), [abs](https://x.org/a), [local](#local), js, ![A cup](https://docs.example.com/guide/img/cup.png)",
    );
    expect(htmlToMarkdown(html)).toBe("[dumps](../ref/json.html#dumps), [abs](https://x.org/a), [local](#local), js, ![A cup](img/cup.png)");
  });

  it("keeps the rest of the page when its <main> is empty (filled by a script in the browser)", () => {
    expect(convertHtml("<h1>Site</h1><main></main><p>Fallback text</p>")).toMatchObject({ markdown: "# Site\n\nFallback text", headings: [{ level: 1, text: "Site" }] });
  });

  it("keeps the text of a link around blocks (a card) without splitting it into broken brackets", () => {
    expect(htmlToMarkdown('<a href="/post"><h2>Card title</h2><p>Teaser</p></a><p>x <a href="y">in line</a></p>')).toBe("## Card title\n\nTeaser\n\nx [in line](y)");
  });

  it("drops the page chrome: everything outside <main>, navigation landmarks, and header, footer and aside outside content", () => {
    const book = convertHtml(mdBookPage("Data Types", "t")).markdown;
    expect(book).toBe(
      '# Data Types\n\nEvery value in Rust is of a certain *data type*, which tells Rust what kind of data is being specified.\n\n```rust\nfn main() {\n    let guess: u32 = "42".parse().expect("Not a number!");\n}\n```',
    );
    const sphinx = convertHtml(SPHINX_PAGE).markdown;
    expect(sphinx.startsWith("# `json` — JSON encoder and decoder\n\n**Source code:** [Lib/json/__init__.py]")).toBe(true);
    expect(sphinx).not.toMatch(/Navigation|Table of Contents|Copyright|¶/);
    expect(htmlToMarkdown("<header><p>Site</p></header><div role=\"search\">find</div><article><header><h1>Post</h1></header><aside>Note</aside></article><aside>Ads</aside><footer>©</footer>")).toBe(
      "# Post\n\nNote",
    );
  });
});

describe("snippet text", () => {
  it("is the text of Markdown and converted HTML, without badges, tags, link targets or table marks", () => {
    expect(markdownToText(IS_EXTGLOB_README)).toBe("is-extglob\n\nReturns true if a string has an extglob.\n\nInstall\n\nInstall with npm:\n\n$ npm install --save is-extglob");
    expect(markdownToText(CHALK_README)).toBe("Terminal string styling done right\n\nHighlights\n\nExpressive API\nHighly performant");
    expect(markdownToText("| a | b\\|c |\n| --- | :-: |\n| 1 | 2 |\n\n<!-- hidden -->See [ref][r].\n\n[r]: https://x.org")).toBe("a b|c\n1 2\n\nSee ref.");
  });

  it("shows a wiki link's text (its alias when it has one) and drops an embed, in a table too", () => {
    expect(markdownToText("See [[Weekly plan]] and [[Books 2026|my books]] ![[cover.png]]")).toBe("See Weekly plan and my books");
    expect(markdownToText("| note | link |\n| --- | --- |\n| a | [[Target|shown]] |")).toBe("note link\na shown");
    expect(markdownToText("[[unclosed and [[a|b]]")).toBe("[[unclosed and b");
  });

  it("leaves a table of contents out when asked (what a snippet shows), and keeps it for the index", () => {
    const readme = "# Kit\n\n- [Install](#install)\n  * [Keyboard shortcuts](#keyboard-shortcuts)\n1. [Usage](#usage) \n- [Guide](https://x.org/#usage)\n- [Usage](#usage) and more\n\n## Keyboard shortcuts\n\nTab moves the focus.";
    expect(markdownToText(readme, { contents: false })).toBe("Kit\n\nGuide\nUsage and more\n\nKeyboard shortcuts\n\nTab moves the focus.");
    expect(markdownToText(readme)).toBe("Kit\n\nInstall\nKeyboard shortcuts\nUsage\nGuide\nUsage and more\n\nKeyboard shortcuts\n\nTab moves the focus.");
    // A line that is only such a link, with no list mark: a Word document's contents (converted from HTML).
    const word = "Contents\n\n[Grinding the beans 2](#_Toc1)\n\n## Grinding the beans\n\nMedium-fine. [Back](#top) to the top.";
    expect(markdownToText(word, { contents: false })).toBe("Contents\n\nGrinding the beans\n\nMedium-fine. Back to the top.");
  });

  it("keeps a link to a place in the same page as a link, except a heading's own anchor", () => {
    const html = '<h2 id="install">Install<a class="headerlink" href="#install">¶</a></h2><p><a href="#install">Install</a></p><p>See <a href="#">this</a> and <a href="#usage">usage</a>.</p>';
    expect(htmlToMarkdown(html)).toBe("## Install\n\n[Install](#install)\n\nSee this and [usage](#usage).");
    // Not resolved against the page's URL: it stays a place in this page.
    expect(htmlToMarkdown('<p><a href="#usage">usage</a></p>', { baseUrl: "https://docs.example.com/guide/" })).toBe("[usage](#usage)");
  });

  it("escapes the brackets of a link's text, so a note's mark reads as written, in the index and the snippet", () => {
    // A footnote as mammoth writes one from a DOCX, and a citation as a wiki writes one.
    const html = '<p>Grind fine<sup><a href="#footnote-1" id="footnote-ref-1">[1]</a></sup> and pour.</p><p>Cited<a href="https://x.org/ref">[2]</a>, or <a href="#x">x]y</a>.</p>';
    const markdown = htmlToMarkdown(html);
    expect(markdown).toBe("Grind fine[\\[1\\]](#footnote-1) and pour.\n\nCited[\\[2\\]](https://x.org/ref), or [x\\]y](#x).");
    expect(markdownToText(markdown)).toBe("Grind fine[1] and pour.\n\nCited[2], or x]y.");
    expect(markdownToText("A \\[not a link\\] and [a \\[b\\]](#b)", { contents: false })).toBe("A [not a link] and a [b]");
  });
});

let workspace: string;
const clients: Client[] = [];

beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), "mcp-search-prose-"));
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await rm(workspace, { recursive: true, force: true });
});


async function serveFiles(files: Record<string, string>, options: Partial<FolderToolsOptions> & { baseUrl?: string } = {}) {
  for (const [relative, text] of Object.entries(files)) {
    await mkdir(join(workspace, relative, ".."), { recursive: true });
    await writeFile(join(workspace, relative), text);
  }
  const vocabulary = createVocabulary({ locale: "en", sourceName: "the folder", entries: [] });
  const folder = await openFolder({ root: workspace, vocabulary, baseUrl: options.baseUrl, watch: false });
  return connectInMemory({ name: "test", version: "0.0.0", vocabulary, locale: "en", ...options, folder }, clients);
}

describe("the folder server on prose", () => {
  it("cites clean titles and shows snippets without markup or chrome", async () => {
    const { search } = await serveFiles({
      "is-extglob/README.md": IS_EXTGLOB_README,
      "book/data-types.html": mdBookPage("Data Types", "Data Types - The Rust Programming Language"),
    });
    const readme = await search("extglob");
    expect(readme.structuredContent?.["results"]).toMatchObject([{ id: "doc:is-extglob/README.md", title: "is-extglob" }]);
    const [snippet] = readme.structuredContent?.["snippets"] as { snippet: string }[];
    expect(snippet?.snippet).toBe("is-extglob Returns true if a string has an extglob. Install Install with npm: $ npm install --save is-extglob");
    const book = await search("rust value data type");
    expect(book.structuredContent?.["results"]).toMatchObject([{ id: "doc:book/data-types.html", title: "Data Types" }]);
    const [page] = book.structuredContent?.["snippets"] as { snippet: string }[];
    expect(page?.snippet).toMatch(/^Data Types Every value in Rust/);
    expect(page?.snippet).not.toMatch(/Keyboard|Previous|Theme|\[|\]\(|<|\||```/);
  });

  it("indexes Markdown and HTML as plain text: a link's or a badge's URL is not a match", async () => {
    const { search } = await serveFiles({
      "linker.md": "# Linker\n\nRead [the guide](https://cdn.example.com/kettle/guide.svg) and ![badge](https://img.example.com/kettle.svg).",
      "kettle.md": "# Kettle\n\nA kettle boils water for tea.",
    });
    const found = (await search("kettle")).structuredContent?.["results"] as { id: string }[];
    expect(found.map(({ id }) => id)).toStrictEqual(["doc:kettle.md"]);
  });

  it("weighs a section heading as the document's keyword under BM25", async () => {
    const { search } = await serveFiles({
      "coffee.md": "# Coffee\n\nThe water temperature matters here too.",
      "tea.md": "# Tea\n\n## Water temperature\n\nSome words about brewing.",
    });
    const found = (await search("water temperature")).structuredContent?.["results"] as { id: string }[];
    expect(found.map(({ id }) => id)).toStrictEqual(["doc:tea.md", "doc:coffee.md"]);
  });

  it("shows a section in the snippet, not its entry in the README's table of contents", async () => {
    const { search } = await serveFiles({
      "README.md": "# widget-kit\n\nWidgets for terminal applications.\n\n## Contents\n\n- [Installation](#installation)\n- [Keyboard shortcuts](#keyboard-shortcuts)\n\n## Installation\n\nRun npm install widget-kit in your project. It needs Node 20 or later, and a terminal that speaks ANSI colours.\n\n## Keyboard shortcuts\n\nTab moves the focus; Escape closes the open dialog.",
    });
    const [found] = (await search("keyboard shortcuts")).structuredContent?.["snippets"] as { snippet: string }[];
    expect(found?.snippet).toContain("Keyboard shortcuts Tab moves the focus");
    expect(found?.snippet).not.toContain("Installation Keyboard shortcuts");
  });

  it("titles a note by its YAML front matter, ranks it by that title, and shows no front matter in its snippet", async () => {
    const { search } = await serveFiles({
      "plan.md": "---\ntitle: Weekly planning ritual\ntags: [planning, habits]\ndate: 2026-11-02\n---\n\nEvery Sunday evening I review the calendar and pick three priorities.",
      "links.md": "# Reading list\n\nSee [[Weekly planning ritual]] and the habit tracker.",
    });
    const found = await search("weekly planning ritual");
    expect(found.structuredContent?.["results"]).toMatchObject([{ id: "doc:plan.md", title: "Weekly planning ritual" }, { id: "doc:links.md" }]);
    const [snippet] = found.structuredContent?.["snippets"] as { snippet: string }[];
    expect(snippet?.snippet).toBe("Every Sunday evening I review the calendar and pick three priorities.");
  });

  it("shows JSON and YAML snippets as written: their marks are content", async () => {
    const { search } = await serveFiles({ "data.json": '{"_id": "kettle-1", "tags": ["*hot*"]}', "conf.yaml": "# kettle settings\n- kettle: 93" });
    const snippets = async (query: string) => ((await search(query)).structuredContent?.["snippets"] as { snippet: string }[]).map(({ snippet }) => snippet);
    expect(await snippets("kettle 1")).toContain('{ "_id": "kettle-1", "tags": [ "*hot*" ] }');
    expect(await snippets("kettle settings")).toContain("# kettle settings - kettle: 93");
  });

  it("resolves relative links against --base-url in what fetch returns", async () => {
    const { fetch } = await serveFiles(
      { "guide/intro.html": '<main><h1>Intro</h1><p>See <a href="../ref/api.html">the API</a>.</p></main>' },
      { baseUrl: "https://docs.example.com/" },
    );
    const page = await fetch("guide/intro.html");
    expect(page.structuredContent?.["text"]).toBe("# Intro\n\nSee [the API](https://docs.example.com/ref/api.html).");
    expect(page.structuredContent?.["url"]).toBe("https://docs.example.com/guide/intro.html");
  });

  const corpus = Object.fromEntries(
    Array.from({ length: 5 }, (_, index) => [`notes/brew-${index}.md`, `# Brew ${index}\n\nThe kettle [![CI](https://x/ci.svg)](https://x) pours water number ${index}.`]),
  );

  it("keeps one content block, the contract JSON, by default (what ChatGPT reads)", async () => {
    const { search } = await serveFiles(corpus, { limit: 2 });
    const result = await search("kettle");
    expect(result.content).toHaveLength(1);
    expect(JSON.parse(result.content[0]?.text ?? "")).toStrictEqual({ results: result.structuredContent?.["results"] });
  });

  it("gives a host that reads only content the summary and the snippets, after the unchanged contract block", async () => {
    const { search, fetch } = await serveFiles(corpus, { limit: 2, contentSnippets: true });
    const result = await search("kettle");
    expect(result.content).toHaveLength(2);
    expect(JSON.parse(result.content[0]?.text ?? "")).toStrictEqual({ results: result.structuredContent?.["results"] });
    expect(result.content[1]).toStrictEqual({
      type: "text",
      text: [
        "Truncated: showing 2 of 5 matching documents (among 5 indexed). Narrow the query with more specific words to see the others.",
        "",
        "1. Brew 0 (doc:notes/brew-0.md)",
        "   Brew 0 The kettle pours water number 0.",
        "",
        "2. Brew 1 (doc:notes/brew-1.md)",
        "   Brew 1 The kettle pours water number 1.",
      ].join("\n"),
    });
    const nothing = await search("zebrafish");
    expect(nothing.content.map((block) => block.text)).toStrictEqual([
      '{"results":[]}',
      "0 matches among 5 indexed documents: the query matched none of them. Try other words, synonyms or the spelling the documents use.",
    ]);
    expect((await fetch("notes/brew-0.md")).content).toHaveLength(1);
    expect((await fetch("doc:nope.md")).content).toHaveLength(1);
  });
});

describe("mcp-search serve: the readable block by transport", () => {
  /** The BUILT bin (global setup runs tsup first), spawned over stdio as a desktop host runs it. */
  const BIN = fileURLToPath(new URL("../../dist/mcp-search.js", import.meta.url));
  const CORPUS = fileURLToPath(new URL("../../examples/corpus", import.meta.url));

  it("adds it over stdio, where desktop hosts show the model only content", async () => {
    const client = new Client({ name: "desktop-like", version: "0.0.0" });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, "serve", CORPUS, "--locale", "en"], stderr: "pipe" }));
    try {
      const result = (await client.callTool({ name: "search", arguments: { query: "extraction sour" } })) as CallResult;
      expect(result.content).toHaveLength(2);
      expect(JSON.parse(result.content[0]?.text ?? "")).toStrictEqual({ results: result.structuredContent?.["results"] });
      expect(result.content[1]?.text).toContain("(doc:reference/glossary.md)");
    } finally {
      await client.close();
    }
  });

  // The choice is startServing's (packages/cli/src/cli/start.ts), by transport: over HTTP it runs in
  // process, from the same command line; the stdio case above is the process itself.
  it("keeps the one contract block over HTTP, where ChatGPT connects", async () => {
    const server = await serveInProcess([CORPUS, "--http", "127.0.0.1:0", "--locale", "en"]);
    try {
      const client = new Client({ name: "chatgpt-like", version: "0.0.0" });
      await client.connect(new StreamableHTTPClientTransport(server.url));
      const result = (await client.callTool({ name: "search", arguments: { query: "extraction sour" } })) as CallResult;
      await client.close();
      expect(result.content).toHaveLength(1);
      expect(JSON.parse(result.content[0]?.text ?? "")).toStrictEqual({ results: result.structuredContent?.["results"] });
    } finally {
      await server.stop();
    }
  });
});
