import { mkdir, mkdtemp, rename, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createVocabulary, type IndexRanking } from "@sbissoli/mcp-search";
import { openFolder, type Folder } from "../../src/folder/folder.js";
import { connectInMemory } from "../_cli-memory.js";
import type { CallResult } from "../_cli-spawn.js";
import type { FolderToolsOptions } from "../../src/mcp/tools.js";


interface Summary {
  documents: number;
  matches: number;
  returned: number;
  truncated: boolean;
  message: string;
}

let workspace: string;
let root: string;
let outside: string;
const clients: Client[] = [];

beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), "mcp-search-cli-"));
  root = join(workspace, "docs");
  outside = join(workspace, "secret");
  await mkdir(root);
  await mkdir(outside);
  await writeFile(join(outside, "passwords.md"), "# Secret\n\nhunter2 zebrafish\n");
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await rm(workspace, { recursive: true, force: true });
});

async function write(relative: string, text: string | Uint8Array): Promise<void> {
  await mkdir(join(root, relative, ".."), { recursive: true });
  await writeFile(join(root, relative), text);
}

/** Bumps a file's modification time, so an edit is seen even within one clock tick. */
async function touch(relative: string, seconds: number): Promise<void> {
  const when = new Date(Date.UTC(2030, 0, 1, 0, 0, seconds));
  await utimes(join(root, relative), when, when);
}

/** A real Client against the folder server, linked in memory. */
async function connect(options: Partial<FolderToolsOptions> & { baseUrl?: string; maxFileBytes?: number; ranking?: IndexRanking } = {}) {
  const vocabulary = createVocabulary({
    locale: options.locale ?? "pt-BR",
    sourceName: "a pasta",
    entries: [{ asked: "café", source: ["coffee"] }],
  });
  const folder: Folder = await openFolder({ root, vocabulary, baseUrl: options.baseUrl, maxFileBytes: options.maxFileBytes, ranking: options.ranking });
  await folder.ready;
  return { ...(await connectInMemory({ name: "test", version: "0.0.0", vocabulary, ...options, folder }, clients)), folder };
}

function ids(result: CallResult): string[] {
  return ((result.structuredContent?.["results"] ?? []) as { id: string }[]).map((hit) => hit.id);
}

function summary(result: CallResult): Summary {
  return result.structuredContent?.["summary"] as Summary;
}

const long = (words: number, word = "filler") => Array.from({ length: words }, (_, i) => `${word}${i % 7}`).join(" ");

describe("mcp-search serve: search", () => {
  it("publishes search and fetch, with the declared extras in the search output schema", async () => {
    await write("a.md", "# A\n\nalpha");
    const { client } = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toStrictEqual(["search", "fetch"]);
    const properties = Object.keys((tools[0]?.outputSchema as { properties: object }).properties);
    expect(properties.sort()).toStrictEqual(["notes", "results", "snippets", "summary"]);
  });

  it("finds documents by title and text, and keeps extras out of the text block", async () => {
    await write("guides/brewing.md", "# Pour-over brewing\n\nRinse the filter, then bloom the coffee.");
    await write("notes/tea.txt", "Green tea wants water at 80 degrees.");
    const { search } = await connect();
    const result = await search("bloom");
    expect(ids(result)).toStrictEqual(["doc:guides/brewing.md"]);
    expect(JSON.parse(result.content[0]?.text ?? "")).toStrictEqual({ results: result.structuredContent?.["results"] });
    expect(summary(result)).toMatchObject({ documents: 2, matches: 1, returned: 1, truncated: false });
  });

  it("translates an everyday word through the vocabulary and says so in a note", async () => {
    await write("coffee.md", "# Brewing\n\nGood coffee needs fresh beans.");
    const { search } = await connect();
    const result = await search("café");
    expect(ids(result)).toStrictEqual(["doc:coffee.md"]);
    expect(result.structuredContent?.["notes"]).toStrictEqual(["\"cafe\" também foi buscado como coffee — a palavra que a pasta usa."]);
  });

  it("centres the snippet on the match, not on the start of the file", async () => {
    await write("long.md", `# Long\n\n${long(300)} the zebrafish swims here ${long(300)}`);
    const { search } = await connect({ snippetChars: 120 });
    const result = await search("zebrafish");
    const snippet = (result.structuredContent?.["snippets"] as { id: string; snippet: string }[])[0]?.snippet ?? "";
    expect(snippet).toContain("zebrafish");
    expect(snippet.startsWith("…")).toBe(true);
    expect(snippet.endsWith("…")).toBe(true);
    expect(snippet.length).toBeLessThanOrEqual(120 + 20);
  });

  it("normalises a text for a snippet only when the index's words are not in it, and then once, across the servers HTTP makes per request", async () => {
    // The query's word is in this text: the snippet is centred on it, and the text is not normalised.
    await write("cafe.md", `# Grüße\n\n${long(50)} um chá coado ${long(50)}`);
    // Here it is only in the file's name: the snippet falls back on the vocabulary's patterns, in the text normalised.
    await write("coado.txt", `Só o nome diz. ${long(50)}`);
    const vocabulary = createVocabulary({ sourceName: "a pasta", entries: [] });
    const normalised: string[] = [];
    const counting = { ...vocabulary, normalize: (text: string) => (normalised.push(text), vocabulary.normalize(text)) };
    const folder = await openFolder({ root, vocabulary: counting });
    await folder.ready;
    for (let request = 0; request < 3; request += 1) {
      const { search } = await connectInMemory({ name: "test", version: "0.0.0", folder, vocabulary: counting }, clients);
      const result = await search("coado");
      const snippets = result.structuredContent?.["snippets"] as { id: string; snippet: string }[];
      expect(snippets.find(({ id }) => id === "doc:cafe.md")?.snippet).toContain("um chá coado");
      expect(snippets.find(({ id }) => id === "doc:coado.txt")?.snippet).toMatch(/^Só o nome diz/);
    }
    folder.close();
    expect(normalised.filter((text) => text === "á" || text === "ü")).toStrictEqual([]);
    expect(normalised.filter((text) => text === "ó")).toStrictEqual(["ó"]);
  });

  it.each([
    ["pt-BR", "Resultado truncado: mostrando 3 de 5"],
    ["en", "Truncated: showing 3 of 5"],
  ] as const)("cuts at the server's limit and says it was truncated (%s)", async (locale, message) => {
    for (let i = 0; i < 5; i += 1) await write(`n${i}.md`, `# Note ${i}\n\nalpha`);
    await write("other.md", "# Other\n\nbeta");
    const { search } = await connect({ limit: 3, locale });
    const result = await search("alpha");
    expect(ids(result)).toHaveLength(3);
    expect(summary(result)).toMatchObject({ documents: 6, matches: 5, returned: 3, truncated: true });
    expect(summary(result).message).toContain(message);
  });

  it("ranks prose with BM25 by default: the document that answers beats a query word in another file's name", async () => {
    await write("json-schema-notes.md", "# Notes\n\nA list of links.\n");
    await write("ajv.md", "# Ajv\n\nAjv validates JSON data against a JSON schema. Validate your JSON once the schema is compiled.\n");
    const { search } = await connect();
    expect(ids(await search("validate json schema"))).toStrictEqual(["doc:ajv.md", "doc:json-schema-notes.md"]);
    // The rule weighs the file name 10 and a text hit 1, so --ranking rule keeps its old order.
    const rule = await connect({ ranking: "rule" });
    expect(ids(await rule.search("validate json schema"))).toStrictEqual(["doc:json-schema-notes.md", "doc:ajv.md"]);
  });

  it("tells '0 matches among N documents' apart from 'nothing is indexed'", async () => {
    const empty = await connect({ locale: "en" });
    const nothing = await empty.search("alpha");
    expect(nothing.structuredContent?.["results"]).toStrictEqual([]);
    expect(summary(nothing)).toMatchObject({ documents: 0, matches: 0 });
    // The extensions come from the one list of formats, the binary ones included.
    expect(summary(nothing).message).toBe(
      "Nothing is indexed: the served folder holds no readable document (.md, .markdown, .txt, .rst, .adoc, .asciidoc, .org, .csv, .json, .yaml, .yml, .html, .htm, .pdf, .docx, .odt, .epub). Searching again will not help.",
    );

    await write("a.md", "# A\n\nalpha");
    const some = await connect({ locale: "en" });
    const none = await some.search("omega");
    expect(summary(none)).toMatchObject({ documents: 1, matches: 0 });
    expect(summary(none).message).toMatch(/^0 matches among 1 indexed documents/);
    expect(none.isError).toBeUndefined();
  });

  it("skips vendor and hidden folders, non-UTF-8 files and files over the size cap", async () => {
    await write("keep.md", "# Keep\n\nalpha");
    for (const vendor of ["node_modules/x.md", ".git/x.md", "dist/x.md", "build/x.md", ".venv/x.md", "venv/x.md"]) {
      await write(vendor, "# Vendor\n\nalpha");
    }
    await write("latin1.txt", Uint8Array.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x61, 0x6c, 0x70, 0x68, 0x61]));
    await write("big.md", `# Big\n\nalpha ${"x".repeat(5000)}`);
    await write("image.png", "alpha");
    const { search } = await connect({ maxFileBytes: 1000 });
    const result = await search("alpha");
    expect(ids(result)).toStrictEqual(["doc:keep.md"]);
    expect(summary(result).documents).toBe(1);
  });
});

describe("mcp-search serve: fetch", () => {
  it.each([
    ["the id", "doc:guides/brewing.md"],
    ["the bare path", "guides/brewing.md"],
    ["backslashes", "doc:guides\\brewing.md"],
    ["a leading slash", "/guides/brewing.md"],
    ["a dot segment", "doc:./guides/../guides/brewing.md"],
  ])("accepts %s", async (_name, id) => {
    await write("guides/brewing.md", "# Pour-over brewing\n\nBloom first.");
    const { fetch } = await connect();
    const result = await fetch(id);
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({
      id: "doc:guides/brewing.md",
      title: "Pour-over brewing",
      text: "# Pour-over brewing\n\nBloom first.",
      url: pathToFileURL(join(root, "guides/brewing.md")).href,
    });
  });

  it.skipIf(sep === "\\")("fetches every id search returns, a backslash in a file name included", async () => {
    await write("a\\b.md", "# Backslash\n\nzebrafish one");
    await write("a/b.md", "# Slash\n\nzebrafish two");
    await write("C:x.md", "# Colon\n\nzebrafish three");
    const { search, fetch } = await connect();
    const found = ids(await search("zebrafish"));
    expect([...found].sort()).toStrictEqual(["doc:C:x.md", "doc:a/b.md", "doc:a\\b.md"]);
    for (const id of found) expect((await fetch(id)).structuredContent?.["id"]).toBe(id);
    expect((await fetch("doc:a\\b.md")).structuredContent?.["title"]).toBe("Backslash");
    await rm(join(root, "a\\b.md"));
    expect((await fetch("doc:a\\b.md")).content[0]?.text).toMatch(/^O documento "doc:a\\\\b.md" não existe mais/);
  });

  it("accepts the file:// URI and the public url, and publishes urls under --base-url", async () => {
    await write("guias/café coado.md", "# Café coado\n\nÁgua quente.");
    const local = await connect();
    const uri = pathToFileURL(join(root, "guias/café coado.md")).href;
    expect((await local.fetch(uri)).structuredContent?.["id"]).toBe("doc:guias/café coado.md");

    const published = await connect({ baseUrl: "https://docs.example.com/base//" });
    const hit = ((await published.search("coado")).structuredContent?.["results"] as { url: string }[])[0];
    expect(hit?.url).toBe("https://docs.example.com/base/guias/caf%C3%A9%20coado.md");
    expect((await published.fetch(hit?.url ?? "")).structuredContent?.["title"]).toBe("Café coado");
    for (const cited of [
      "HTTPS://Docs.Example.COM/base/guias/caf%C3%A9%20coado.md",
      "http://docs.example.com/base/guias/caf%C3%A9%20coado.md",
      "docs.example.com/base/guias/caf%C3%A9%20coado.md",
      "https://www.docs.example.com/base/guias/caf%C3%A9%20coado.md",
    ]) {
      expect((await published.fetch(cited)).structuredContent?.["id"]).toBe("doc:guias/café coado.md");
    }
  });

  it.each([
    ["notes.md", "# From the heading\n\ntext", "From the heading"],
    ["page.html", "<html><head><title>The HTML title</title></head><body><p>Hello &amp; welcome</p></body></html>", "The HTML title"],
    ["heading.html", "<title>Title tag</title><h1>The <em>h1</em></h1><p>x</p>", "The h1"],
    ["plain.txt", "no heading at all", "plain.txt"],
    ["setext.rst", "Cupping\n=======\n\nSlurp.", "Cupping"],
  ])("titles %s by heading, else HTML title, else file name", async (name, text, title) => {
    await write(name, text);
    const { fetch } = await connect();
    expect((await fetch(name)).structuredContent?.["title"]).toBe(title);
  });

  it("renders HTML as readable Markdown without scripts or styles", async () => {
    await write("page.html", "<head><style>p{}</style><script>alert(1)</script></head><h2>Steps</h2><ul><li>Grind</li><li>Pour</li></ul>");
    const { fetch } = await connect();
    expect((await fetch("page.html")).structuredContent?.["text"]).toBe("## Steps\n\n- Grind\n- Pour");
  });

  it("pages a long document and says how to get the rest", async () => {
    const text = `# Long\n\n${long(400)}`;
    await write("long.md", text);
    const { fetch } = await connect({ maxChars: 1000, locale: "en" });
    const first = await fetch("doc:long.md");
    const firstText = first.structuredContent?.["text"] as string;
    expect(firstText).toContain('[Truncated: page 1 of 4. To read the rest, call fetch with the id "doc:long.md#2".]');
    expect(first.structuredContent?.["metadata"]).toMatchObject({ page: 1, pages: 4, truncated: true, next: "doc:long.md#2" });

    const pages = [firstText];
    for (const page of [2, 3, 4]) {
      const result = await fetch(`doc:long.md#${page}`);
      expect(result.structuredContent?.["id"]).toBe(`doc:long.md#${page}`);
      pages.push(result.structuredContent?.["text"] as string);
    }
    expect(pages[3]).toMatch(/\[Page 4 of 4: end of the document\.\]$/);
    const bodies = pages.map((page) => page.replace(/\n\n\[(Truncated|Page)[^\]]*\]$/, ""));
    expect(bodies.join(" ").replace(/\s+/g, " ")).toBe(text.replace(/\s+/g, " "));
    for (const body of bodies) expect(body.length).toBeLessThanOrEqual(1000);

    const past = await fetch("doc:long.md#9");
    expect(past.isError).toBe(true);
    expect(past.content[0]?.text).toContain("the document has 4 pages");
  });

  it("answers an unknown id with an error that points to search", async () => {
    await write("a.md", "# A");
    const { fetch } = await connect({ locale: "en" });
    const result = await fetch("doc:nope.md");
    expect(result).toMatchObject({ isError: true, content: [{ type: "text", text: 'No document has the id "doc:nope.md". Use an id returned by the search tool.' }] });
  });
});

describe("mcp-search serve: changes on disk", () => {
  it("re-reads an edited file, an added file and a deleted file on the next call", async () => {
    await write("a.md", "# A\n\nalpha");
    await write("b.md", "# B\n\nbeta");
    const { search, folder } = await connect();
    const before = folder.current;

    await write("a.md", "# A\n\ngamma gamma");
    await touch("a.md", 1);
    expect(ids(await search("gamma"))).toStrictEqual(["doc:a.md"]);
    expect(ids(await search("alpha"))).toStrictEqual([]);
    expect(folder.current.documents.get("b.md")).toBe(before.documents.get("b.md"));

    await write("c.md", "# C\n\ngamma");
    expect(ids(await search("gamma"))).toStrictEqual(["doc:a.md", "doc:c.md"]);

    await rm(join(root, "a.md"));
    expect(ids(await search("gamma"))).toStrictEqual(["doc:c.md"]);
  });

  it("keeps the same snapshot when nothing changed (no rebuild per call)", async () => {
    await write("a.md", "# A\n\nalpha");
    const { search, folder } = await connect();
    const before = folder.current;
    await search("alpha");
    await search("alpha");
    expect(folder.current).toBe(before);
  });

  it.each([
    ["deleted", async () => rm(join(root, "a.md"))],
    ["moved", async () => rename(join(root, "a.md"), join(root, "moved.md"))],
  ])("answers a stale id (%s) with an error that says to search again", async (_how, change) => {
    await write("a.md", "# A\n\nalpha");
    const { fetch, search } = await connect();
    expect((await fetch("doc:a.md")).isError).toBeUndefined();
    await change();
    const result = await fetch("doc:a.md");
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toBe(
      'O documento "doc:a.md" não existe mais: foi movido, renomeado ou apagado. Busque de novo com a ferramenta search para obter ids atuais.',
    );
    expect((await search("alpha")).isError).toBeUndefined();
  });

  it("answers a page id made stale by an edit that shortened the document", async () => {
    await write("long.md", `# Long\n\n${long(400)}`);
    const { fetch } = await connect({ maxChars: 1000 });
    expect((await fetch("doc:long.md#3")).isError).toBeUndefined();
    await write("long.md", "# Long\n\nnow short");
    await touch("long.md", 2);
    const stale = await fetch("doc:long.md#3");
    expect(stale.isError).toBe(true);
    expect(stale.content[0]?.text).toContain('Leia "doc:long.md" ou busque de novo');
  });
});

describe("mcp-search serve: containment", () => {
  it("never indexes or reads a file through a symlink that points outside the root", async () => {
    await write("inside.md", "# Inside\n\nzebrafish");
    await symlink(join(outside, "passwords.md"), join(root, "leak.md"));
    await symlink(outside, join(root, "linked-folder"));
    await symlink(join(root, "inside.md"), join(root, "alias.md"));
    const { search, fetch } = await connect();
    const result = await search("hunter2 zebrafish");
    expect(ids(result).sort()).toStrictEqual(["doc:alias.md", "doc:inside.md"]);
    expect(JSON.stringify(result)).not.toContain("hunter2");
    for (const id of ["doc:leak.md", "leak.md", "doc:linked-folder/passwords.md"]) {
      const refused = await fetch(id);
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused)).not.toContain("hunter2");
    }
  });

  it.each([
    ["a parent-directory id", "doc:../secret/passwords.md", "aponta para fora da pasta"],
    ["a bare parent path", "../secret/passwords.md", "aponta para fora da pasta"],
    ["deep parents", "doc:a/../../../secret/passwords.md", "aponta para fora da pasta"],
    ["backslash parents", "..\\secret\\passwords.md", "aponta para fora da pasta"],
    ["a NUL byte", "doc:inside.md\u0000.png", "contém um byte nulo"],
    ["a file URI outside the root", "", "aponta para fora da pasta"],
    ["a drive letter", "C:\\secret\\passwords.md", "aponta para fora da pasta"],
  ])("refuses %s", async (_name, id, why) => {
    await write("inside.md", "# Inside");
    const { fetch } = await connect();
    const asked = id === "" ? pathToFileURL(join(outside, "passwords.md")).href : id;
    const result = await fetch(asked);
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toContain(why);
    expect(JSON.stringify(result)).not.toContain("hunter2");
  });

  it("reads an absolute-looking path relative to the root", async () => {
    await mkdir(join(root, "etc"));
    await write("etc/passwd.md", "# Not the system file");
    const { fetch } = await connect();
    expect((await fetch("/etc/passwd.md")).structuredContent?.["title"]).toBe("Not the system file");
    expect((await fetch(join(outside, "passwords.md"))).isError).toBe(true);
  });
});
