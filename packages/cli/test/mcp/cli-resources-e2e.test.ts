import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, connectHttp, startBin } from "../_cli-spawn.js";

/**
 * The resources of `mcp-search serve`, through the BUILT bin and a real client, over stdio (as
 * Claude Desktop starts it) and over Streamable HTTP: listing page by page with the default page
 * size (the example folder and 520 small notes make two pages), reading a Markdown and an HTML
 * document, and the list-changed notification after an edit.
 */

const CORPUS = fileURLToPath(new URL("../../examples/corpus", import.meta.url));
const NOTES = 520;
const PAGE = 500;

let workspace: string;
let root: string;

beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), "mcp-search-resources-e2e-"));
  root = join(workspace, "docs");
  await cp(CORPUS, root, { recursive: true });
  await mkdir(join(root, "notes", "many"), { recursive: true });
  await Promise.all(
    Array.from({ length: NOTES }, (_, n) => writeFile(join(root, "notes", "many", `note-${String(n).padStart(3, "0")}.md`), `# Note ${n}\n\nA small note.\n`)),
  );
});

afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

interface Page {
  resources: { uri: string; name: string; mimeType?: string | undefined }[];
  nextCursor?: string | undefined;
}

/** Walks `resources/list` page by page, as a host does, and returns each page. */
async function walkPages(client: Client): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | undefined;
  do {
    const page: Page = await client.request({ method: "resources/list", params: cursor === undefined ? {} : { cursor } });
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor !== undefined && pages.length < 10);
  return pages;
}

/** Waits until the server has indexed every file (the first pages may come during indexing). */
async function untilListed(client: Client, count: number): Promise<void> {
  for (let tries = 0; tries < 200; tries += 1) {
    if ((await client.listResources()).resources.length === count) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The checks both transports must pass: pages, reads equal to fetch, the HTML as Markdown. */
async function listPageAndRead(client: Client): Promise<void> {
  const documents = 35 + NOTES;
  await untilListed(client, documents);
  const pages = await walkPages(client);
  expect(pages.map((page) => page.resources.length)).toStrictEqual([PAGE, documents - PAGE]);
  const names = pages.flatMap((page) => page.resources.map((resource) => resource.name));
  expect(new Set(names).size).toBe(documents);
  expect(names).toStrictEqual([...names].sort());
  for (const name of ["guides/pour-over.md", "guides/aeropress.html", "reference/roast-levels.json"]) {
    const uri = `mcp-search://doc/${name}`;
    const listed = pages.flatMap((page) => page.resources).find((resource) => resource.uri === uri);
    const { contents } = await client.readResource({ uri });
    const fetched = (await client.callTool({ name: "fetch", arguments: { id: `doc:${name}` } })).structuredContent as { text: string };
    expect(contents).toStrictEqual([{ uri, mimeType: listed?.mimeType, text: fetched.text }]);
  }
  expect(pages[0]?.resources.find((resource) => resource.name === "guides/aeropress.html")?.mimeType).toBe("text/markdown");
  await expect(client.readResource({ uri: "mcp-search://doc/../outside.md" })).rejects.toThrow(/refused: it points outside the served folder/);
}

/** Counts `notifications/resources/list_changed` on `client`; `first` settles with the first one. */
function countNotifications(client: Client): { count: () => number; first: Promise<void> } {
  let count = 0;
  let arrived: () => void = () => undefined;
  const first = new Promise<void>((resolve) => (arrived = resolve));
  client.setNotificationHandler("notifications/resources/list_changed", () => {
    count += 1;
    arrived();
  });
  return { count: () => count, first };
}

/**
 * Edits two files at once, waits for the notification (up to 10 s), then makes one request: a
 * duplicate of the notification, sent with it, arrives before that reply. The bin runs in a child,
 * where no fake clock reaches, so this waits on the events rather than for a quiet time; that a
 * burst gets one notification after its quiet period is pinned on a fake clock in
 * resources.test.ts.
 */
async function editAndSettle(client: Client, notifications: ReturnType<typeof countNotifications>, stamp: string): Promise<number> {
  await Promise.all([
    writeFile(join(root, "notes", "many", "note-000.md"), `# Note 0\n\nEdited ${stamp}.\n`),
    writeFile(join(root, "notes", "many", "note-001.md"), `# Note 1\n\nEdited ${stamp}.\n`),
  ]);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("no notifications/resources/list_changed within 10 s")), 10_000)));
  await Promise.race([notifications.first, bound]).finally(() => clearTimeout(timer));
  await client.listTools();
  return notifications.count();
}

describe("mcp-search serve: resources over stdio", () => {
  it("lists, pages through and reads the folder's documents, and announces an edit once", async () => {
    const client = new Client({ name: "desktop-like", version: "0.0.0" });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, "serve", root, "--locale", "en"], stderr: "pipe" }));
    try {
      expect(client.getServerCapabilities()?.resources).toStrictEqual({ listChanged: true });
      await listPageAndRead(client);
      const notifications = countNotifications(client);
      expect(await editAndSettle(client, notifications, "over stdio")).toBe(1);
    } finally {
      await client.close();
    }
  }, 30_000);
});

describe("mcp-search serve --http: resources over Streamable HTTP", () => {
  it("lists, pages through and reads the folder's documents, and announces an edit once to a listening client", async () => {
    const server = await startBin(["serve", root, "--http", "127.0.0.1:0", "--locale", "en"]);
    try {
      const client = await connectHttp(server.url);
      await listPageAndRead(client);
      await client.close();
      // Notifications over stateless HTTP travel on a subscriptions/listen stream (protocol 2026-07-28).
      const listener = new Client({ name: "listener", version: "0.0.0" }, { versionNegotiation: { mode: "auto" } });
      const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
      await listener.connect(new StreamableHTTPClientTransport(server.url));
      const notifications = countNotifications(listener);
      const subscription = await listener.listen({ resourcesListChanged: true });
      expect(await editAndSettle(listener, notifications, "over HTTP")).toBe(1);
      await subscription.close();
      await listener.close();
      expect(server.stdout()).toBe("");
    } finally {
      await server.stop();
    }
  }, 30_000);
});
