import { cp, mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createVocabulary, type Locale } from "@sbissoli/mcp-search";
import { parseCommandLine, HELP } from "../../src/cli/args.js";
import { openFolder, type Folder } from "../../src/folder/folder.js";
import { parseResourceUri, resourceUri } from "../../src/folder/ids.js";
import { settleEvents } from "../../src/folder/watch.js";
import { announceResourceListChangesTo, cursorAfter, RESOURCE_LIST_QUIET_MS, RESOURCE_URI_TEMPLATE } from "../../src/mcp/resources.js";
import { createFolderServer, type FolderServerOptions } from "../../src/transports/serve.js";

/**
 * The folder's documents as MCP resources (issue 21), through a real Client linked in memory to
 * the real folder server: the listing and its pages, the template, reads that return what fetch
 * returns, stale and unknown uris, the list-changed notification, and `--no-resources`.
 */

const CORPUS = fileURLToPath(new URL("../../examples/corpus", import.meta.url));

let workspace: string;
let root: string;
const clients: Client[] = [];
const folders: Folder[] = [];

beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), "mcp-search-resources-"));
  root = join(workspace, "docs");
  await mkdir(root);
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  for (const folder of folders.splice(0)) folder.close();
  await rm(workspace, { recursive: true, force: true });
});

async function write(relative: string, text: string): Promise<void> {
  await mkdir(join(root, relative, ".."), { recursive: true });
  await writeFile(join(root, relative), text);
}

type ServerOptions = Partial<Omit<FolderServerOptions, "folder" | "vocabulary">> & { maxFileBytes?: number; announce?: boolean; at?: string };

/** A real Client against the folder server over `root` (or `at`), linked in memory. */
async function connect(options: ServerOptions = {}) {
  const locale: Locale = options.locale ?? "en";
  const vocabulary = createVocabulary({ locale, sourceName: "the folder", entries: [] });
  const folder = await openFolder({ root: options.at ?? root, vocabulary, maxFileBytes: options.maxFileBytes });
  folders.push(folder);
  await folder.ready;
  const server = createFolderServer({ name: "test", version: "0.0.0", vocabulary, ...options, locale, folder });
  if (options.announce === true) announceResourceListChangesTo(server, folder);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: "test-client", version: "0.0.0" });
  await client.connect(clientTransport);
  clients.push(client);
  return { client, folder };
}

/** The real timers, kept before any test fakes them: bounds on waits for real events. */
const realSetTimeout = globalThis.setTimeout;
const clearRealTimeout = globalThis.clearTimeout;

/** `promise`, or a failure saying `what` after `ms` of real time. */
function withinRealTime<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<never>((_, reject) => (timer = realSetTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms)));
  return Promise.race([promise, bound]).finally(() => clearRealTimeout(timer));
}

/** What a failed request says, or "no error" when it succeeded. */
async function failure(request: Promise<unknown>): Promise<{ code: number | undefined; message: string }> {
  try {
    await request;
  } catch (error) {
    return { code: (error as { code?: number }).code, message: (error as Error).message };
  }
  return { code: undefined, message: "no error" };
}

/**
 * One page of `resources/list`, asked as a host walking the pages asks it. (The SDK's
 * `client.listResources()` without a cursor gathers every page itself.)
 */
async function listPage(client: Client, cursor?: string): Promise<{ resources: { name: string; uri: string }[]; nextCursor?: string | undefined }> {
  return client.request({ method: "resources/list", params: cursor === undefined ? {} : { cursor } });
}

async function readText(client: Client, uri: string): Promise<string> {
  const { contents } = await client.readResource({ uri });
  return (contents[0] as { text: string }).text;
}

describe("resources/list", () => {
  it("lists each indexed document with its uri, relative path, title, MIME type, size and time", async () => {
    await write("guides/pour-over.md", "# Pour-over\n\nBloom the grounds.\n");
    await write("guides/aeropress.html", "<html><head><title>AeroPress</title></head><body><h1>AeroPress</h1><p>Press <b>slowly</b>.</p></body></html>");
    await write("reference/roasts.json", '{"light": 1}');
    await write("notes.txt", "Plain notes\n");
    const { client, folder } = await connect();
    const { resources, nextCursor } = await client.listResources();
    expect(nextCursor).toBeUndefined();
    expect(resources.map((resource) => [resource.uri, resource.name, resource.title, resource.mimeType])).toStrictEqual([
      ["mcp-search://doc/guides/aeropress.html", "guides/aeropress.html", "AeroPress", "text/markdown"],
      ["mcp-search://doc/guides/pour-over.md", "guides/pour-over.md", "Pour-over", "text/markdown"],
      ["mcp-search://doc/notes.txt", "notes.txt", "notes.txt", "text/plain"],
      ["mcp-search://doc/reference/roasts.json", "reference/roasts.json", "roasts.json", "text/plain"],
    ]);
    const pourOver = folder.current.documents.get("guides/pour-over.md");
    expect(resources[1]).toStrictEqual({
      uri: "mcp-search://doc/guides/pour-over.md",
      name: "guides/pour-over.md",
      title: "Pour-over",
      mimeType: "text/markdown",
      size: Buffer.byteLength("# Pour-over\n\nBloom the grounds.\n"),
      annotations: { lastModified: new Date(pourOver?.modified ?? 0).toISOString() },
    });
  });

  it("pages through the folder with the protocol's cursor, each document once, in path order", async () => {
    const names = Array.from({ length: 11 }, (_, n) => `note-${String(n).padStart(2, "0")}.md`);
    for (const name of names) await write(name, `# ${name}\n`);
    const { client } = await connect({ resourcePageSize: 4 });
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await listPage(client, cursor);
      pages.push(page.resources.map((resource) => resource.name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(pages.map((page) => page.length)).toStrictEqual([4, 4, 3]);
    expect(pages.flat()).toStrictEqual(names);
    // The SDK's client gathers every page itself when no cursor is given.
    expect((await client.listResources()).resources.map((resource) => resource.name)).toStrictEqual(names);
  });

  it("neither skips nor repeats a document when files are added and removed between pages", async () => {
    for (const name of ["b.md", "d.md", "f.md", "h.md"]) await write(name, `# ${name}\n`);
    const { client } = await connect({ resourcePageSize: 2 });
    const first = await listPage(client);
    expect(first.resources.map((resource) => resource.name)).toStrictEqual(["b.md", "d.md"]);
    await rm(join(root, "d.md")); // the cursor's own document is gone
    await write("a.md", "# a\n"); // before the cursor: not on a later page
    await write("e.md", "# e\n"); // after it: on the next page
    const second = await listPage(client, first.nextCursor);
    expect(second.resources.map((resource) => resource.name)).toStrictEqual(["e.md", "f.md"]);
    const third = await listPage(client, second.nextCursor);
    expect(third.resources.map((resource) => resource.name)).toStrictEqual(["h.md"]);
    expect(third.nextCursor).toBeUndefined();
  });

  it.each(["garbage", "", cursorAfter("a.md").slice(0, -2), Buffer.from('{"after":1}').toString("base64url"), cursorAfter("never-listed.md"), cursorAfter("../../etc/passwd")])(
    "refuses the cursor %j with an error naming it",
    async (cursor) => {
      await write("a.md", "# A\n");
      const { client } = await connect();
      const refused = await failure(listPage(client, cursor));
      expect(refused.code).toBe(-32602);
      expect(refused.message).toContain(`The cursor ${JSON.stringify(cursor)} is not valid`);
    },
  );

  it("offers one template for the same uris, titled in the server's language", async () => {
    const { client } = await connect({ locale: "pt-BR" });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toStrictEqual([
      expect.objectContaining({ uriTemplate: RESOURCE_URI_TEMPLATE, name: "document", title: "Documento da pasta" }),
    ]);
    expect(RESOURCE_URI_TEMPLATE).toBe("mcp-search://doc/{+path}");
  });
});

describe("resource uris", () => {
  it.each([
    ["guides/pour-over.md", "mcp-search://doc/guides/pour-over.md"],
    ["guias/café com leite.md", "mcp-search://doc/guias/caf%C3%A9%20com%20leite.md"],
    ["notes/#1 of 100%?.md", "mcp-search://doc/notes/%231%20of%20100%25%3F.md"],
    ["a\\b.md", "mcp-search://doc/a%5Cb.md"],
  ])("percent-encodes each segment of %j, and reads it back", (relative, uri) => {
    expect(resourceUri(relative)).toBe(uri);
    expect(new URL(uri).href).toBe(uri); // a URL parser leaves it as it is
    expect(parseResourceUri(uri, new Set([relative]))).toStrictEqual({ ok: true, relative });
  });

  it("reads the scheme and the authority without case", () => {
    expect(parseResourceUri("MCP-Search://DOC/guides/pour-over.md")).toStrictEqual({ ok: true, relative: "guides/pour-over.md" });
  });
});

describe("resources/read", () => {
  it("returns exactly the text fetch returns, for every document of the example folder", async () => {
    const { client, folder } = await connect({ at: CORPUS });
    const { resources } = await client.listResources();
    expect(resources).toHaveLength(folder.current.documents.size);
    for (const resource of resources) {
      const { contents } = await client.readResource({ uri: resource.uri });
      const fetched = await client.callTool({ name: "fetch", arguments: { id: `doc:${resource.name}` } });
      const reply = fetched.structuredContent as { text: string; metadata: { pages: number } };
      expect(reply.metadata.pages).toBe(1);
      expect(contents).toStrictEqual([{ uri: resource.uri, mimeType: resource.mimeType, text: reply.text }]);
    }
  });

  it("returns a long document capped like fetch: its first page of --max-chars, then the fetch id of page 2", async () => {
    const paragraphs = Array.from({ length: 40 }, (_, n) => `Paragraph ${n} about brewing, grinding and pouring water slowly.`);
    await write("long.md", `# Long\n\n${paragraphs.join("\n\n")}\n`);
    const { client } = await connect({ maxChars: 500 });
    const text = await readText(client, "mcp-search://doc/long.md");
    const first = (await client.callTool({ name: "fetch", arguments: { id: "doc:long.md" } })).structuredContent as { text: string; metadata: { pages: number } };
    expect(first.metadata.pages).toBeGreaterThan(3);
    expect(text).toBe(first.text);
    expect(text).toMatch(/\n\n\[Truncated: page 1 of \d+\. To read the rest, call fetch with the id "doc:long\.md#2"\.\]$/);
  });

  it("converts HTML to Markdown, as fetch does", async () => {
    await write("page.html", '<html><body><main><h1>Brew</h1><p>See <a href="https://x.org/">the guide</a>.</p><pre><code class="language-py">print(1)\n</code></pre></main></body></html>');
    const { client } = await connect();
    const { contents } = await client.readResource({ uri: "mcp-search://doc/page.html" });
    expect(contents).toStrictEqual([
      { uri: "mcp-search://doc/page.html", mimeType: "text/markdown", text: "# Brew\n\nSee [the guide](https://x.org/).\n\n```py\nprint(1)\n```" },
    ]);
  });

  it("reads a document whose name needs percent-encoding", async () => {
    await write("guias/café com leite #1.md", "# Café com leite\n\nLeite vaporizado.\n");
    const { client } = await connect();
    const [resource] = (await client.listResources()).resources;
    expect(resource?.uri).toBe("mcp-search://doc/guias/caf%C3%A9%20com%20leite%20%231.md");
    expect(await readText(client, resource?.uri ?? "")).toBe("# Café com leite\n\nLeite vaporizado.");
  });

  it("names the uri of a document moved or deleted since it was listed, and keeps serving", async () => {
    await write("a.md", "# A\n\nalpha\n");
    await write("b.md", "# B\n\nbeta\n");
    const { client } = await connect();
    const listed = (await client.listResources()).resources.map((resource) => resource.uri);
    await rm(join(root, "a.md"));
    await rename(join(root, "b.md"), join(root, "c.md"));
    for (const uri of listed) {
      const stale = await failure(client.readResource({ uri }));
      expect(stale.code).toBe(-32602);
      expect(stale.message).toContain(`The document ${JSON.stringify(uri)} no longer exists: it was moved, renamed or deleted.`);
    }
    expect(await readText(client, "mcp-search://doc/c.md")).toBe("# B\n\nbeta");
  });

  it("returns the new text of a document edited since it was listed", async () => {
    await write("a.md", "# A\n\nold\n");
    const { client } = await connect();
    await client.listResources();
    await write("a.md", "# A\n\nnew words, and longer\n");
    expect(await readText(client, "mcp-search://doc/a.md")).toBe("# A\n\nnew words, and longer");
  });

  it.each([
    ["mcp-search://doc/never.md", "No document of the folder has the uri \"mcp-search://doc/never.md\"."],
    ["mcp-search://doc/big.md", "No document of the folder has the uri \"mcp-search://doc/big.md\"."],
    ["mcp-search://doc/.hidden.md", "No document of the folder has the uri \"mcp-search://doc/.hidden.md\"."],
    ["mcp-search://doc/node_modules/x/readme.md", "No document of the folder has the uri \"mcp-search://doc/node_modules/x/readme.md\"."],
    ["doc:a.md", "The uri \"doc:a.md\" was refused: it is not a uri of this server, whose documents' uris start with mcp-search://doc/."],
    ["mcp-search://doc/", "The uri \"mcp-search://doc/\" was refused: it is empty and names no document."],
    ["mcp-search://doc/a.md?raw", "The uri \"mcp-search://doc/a.md?raw\" was refused: it is not a valid path (malformed percent-encoding or URI)."],
    ["mcp-search://doc/%E0%A4%A", "The uri \"mcp-search://doc/%E0%A4%A\" was refused: it is not a valid path (malformed percent-encoding or URI)."],
  ])("answers %s with an error that names it", async (uri, message) => {
    await write("a.md", "# A\n");
    await write("big.md", `# Big\n\n${"x".repeat(2000)}\n`);
    await write(".hidden.md", "# Hidden\n");
    await write("node_modules/x/readme.md", "# Vendor\n");
    const { client } = await connect({ maxFileBytes: 1000 });
    const refused = await failure(client.readResource({ uri }));
    expect(refused.code).toBe(-32602);
    expect(refused.message).toContain(message);
  });

  it.each([
    ["pt-BR", 'O documento "mcp-search://doc/a.md" não existe mais'],
    ["es", 'El documento "mcp-search://doc/a.md" ya no existe'],
  ] as const)("says it in %s", async (locale, message) => {
    await write("a.md", "# A\n");
    const { client } = await connect({ locale });
    await client.listResources();
    await rm(join(root, "a.md"));
    expect((await failure(client.readResource({ uri: "mcp-search://doc/a.md" }))).message).toContain(message);
  });
});

describe("refusals in Spanish", () => {
  it("say why for every reason, for resource uris and fetch ids alike", async () => {
    const { client } = await connect({ locale: "es" });
    expect((await failure(client.readResource({ uri: "mcp-search://doc/%zz" }))).message).toContain("no es una ruta válida");
    expect((await failure(client.readResource({ uri: "mcp-search://doc/." }))).message).toContain("está vacío y no nombra ningún documento");
    expect((await failure(client.readResource({ uri: "file:///etc/passwd" }))).message).toContain("no es un uri de este servidor");
    const fetched = await client.callTool({ name: "fetch", arguments: { id: "doc:" } });
    expect(JSON.stringify(fetched.content)).toContain("está vacío y no nombra ningún documento");
  });
});

describe("notifications/resources/list_changed", () => {
  // The announcer's quiet period runs on a fake clock, moved by the test; the folder's watch and
  // its reads stay real (fs events and file reads have no fake), so each step waits for the
  // events themselves: the watch's event, and the refresh the quiet period started.
  const QUIET = RESOURCE_LIST_QUIET_MS;
  beforeEach(() => void vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] }));
  afterEach(() => void vi.useRealTimers());

  /** A client that counts the notifications, and the steps that change the folder and move the clock. */
  async function listen() {
    const { client, folder } = await connect({ announce: true });
    const refreshes = vi.spyOn(folder, "refresh");
    let count = 0;
    client.setNotificationHandler("notifications/resources/list_changed", () => {
      count += 1;
    });
    return {
      client,
      refreshes,
      /** Runs `change`, then waits until the watch has told the folder (the announcer's cue). */
      change: async (change: () => Promise<unknown>) => {
        const seen = new Promise<void>((resolve) => {
          const stop = folder.onChange(() => (stop(), resolve()));
        });
        await change();
        await withinRealTime(seen, 5_000, "the folder's watch did not report the change");
        await settleEvents(); // the change's other events, already queued, are dispatched too
      },
      /** Moves the clock by `ms`, waits for any refresh that started and the notification it may send, and counts. */
      elapse: async (ms: number) => {
        await vi.advanceTimersByTimeAsync(ms);
        await Promise.allSettled(refreshes.mock.results.map((result) => result.value));
        await client.ping(); // a notification sent before the reply arrives before it
        return count;
      },
    };
  }

  it("is declared with the resources capability", async () => {
    const { client } = await connect();
    expect(client.getServerCapabilities()?.resources).toStrictEqual({ listChanged: true });
  });

  it("is sent once for an edit, when the quiet period after it runs out", async () => {
    await write("a.md", "# A\n\nfirst\n");
    const listener = await listen();
    await listener.change(() => write("a.md", "# A\n\nsecond, longer\n"));
    expect(await listener.elapse(QUIET - 1)).toBe(0);
    expect(await listener.elapse(1)).toBe(1);
    expect(await listener.elapse(3 * QUIET)).toBe(1);
  });

  it("is sent once for a burst of changes to many files, not once per file", async () => {
    for (let n = 0; n < 10; n += 1) await write(`n${n}.md`, `# ${n}\n`);
    const listener = await listen();
    // Written together, as a checkout or a sync writes them, in two halves less than a quiet period apart.
    await listener.change(() => Promise.all(Array.from({ length: 5 }, (_, n) => write(`n${n}.md`, `# ${n}\n\nedited\n`))));
    expect(await listener.elapse(QUIET - 1)).toBe(0);
    await listener.change(() =>
      Promise.all([...Array.from({ length: 5 }, (_, n) => write(`n${n + 5}.md`, `# ${n + 5}\n\nedited\n`)), write("added.md", "# Added\n"), rm(join(root, "n0.md"))]),
    );
    expect(await listener.elapse(QUIET - 1)).toBe(0); // the second half started the quiet period again
    expect(await listener.elapse(1)).toBe(1);
    expect(await listener.elapse(3 * QUIET)).toBe(1);
    expect((await listener.client.listResources()).resources.map((resource) => resource.name)).toContain("added.md");
  });

  it("is sent once more for a later burst, and never for a change no document sees", async () => {
    await write("a.md", "# A\n");
    const listener = await listen();
    await listener.change(() => Promise.all([write(".swap.md", "editor state"), write("skip.bin", "binary")]));
    expect(await listener.elapse(QUIET)).toBe(0);
    expect(listener.refreshes).toHaveBeenCalled(); // the quiet period ran out and the folder was checked
    await listener.change(() => write("b.md", "# B\n"));
    expect(await listener.elapse(QUIET)).toBe(1);
    await listener.change(() => cp(join(root, "b.md"), join(root, "c.md")));
    expect(await listener.elapse(QUIET)).toBe(2);
  });
});

describe("--no-resources", () => {
  it("turns the whole surface off", async () => {
    await write("a.md", "# A\n");
    const { client } = await connect({ resources: false });
    expect(client.getServerCapabilities()?.resources).toBeUndefined();
    for (const method of ["resources/list", "resources/templates/list", "resources/read"] as const) {
      const refused = await failure(client.request({ method, params: { uri: "mcp-search://doc/a.md" } } as never));
      expect([method, refused.code]).toStrictEqual([method, -32601]);
    }
    expect((await client.listTools()).tools.map((tool) => tool.name)).toStrictEqual(["search", "fetch"]);
  });

  it("is a flag of serve, in the help text", () => {
    const off = parseCommandLine(["serve", "docs", "--no-resources"]);
    const on = parseCommandLine(["serve", "docs"]);
    expect([off.command === "serve" && off.options.resources, on.command === "serve" && on.options.resources]).toStrictEqual([false, true]);
    expect(HELP).toContain("--no-resources");
  });
});
