/**
 * The query path of ../../src/mcp/tools.ts does each thing once: one refresh of the folder per
 * tool call, over a real folder and a real client linked in memory.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { createVocabulary } from "@sbissoli/mcp-search";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openFolder, type Folder } from "../../src/folder/folder.js";
import { connectInMemory } from "../_cli-memory.js";

let root: string;
const clients: Client[] = [];
const folders: Folder[] = [];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "mcp-search-tools-"));
  await writeFile(join(root, "brewing.md"), "# Brewing\n\nPour-over coffee with hot water.\n");
  await writeFile(join(root, "tea.md"), "# Tea\n\nGreen tea, steeped briefly.\n");
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  for (const folder of folders.splice(0)) folder.close();
  await rm(root, { recursive: true, force: true });
});

/** The folder served, whose refreshes are counted: the real folder, with `refresh` wrapped. */
async function countedFolder(): Promise<{ folder: Folder; refreshes: () => number }> {
  const vocabulary = createVocabulary({ locale: "en", sourceName: "the folder", entries: [] });
  const real = await openFolder({ root, vocabulary });
  folders.push(real);
  await real.ready;
  let count = 0;
  const folder = Object.create(real, {
    refresh: { value: () => ((count += 1), real.refresh()) },
  }) as Folder;
  return { folder, refreshes: () => count };
}

describe("registerFolderTools: one refresh per tool call", () => {
  it.each([
    ["its id", "doc:brewing.md"],
    ["a bare path", "brewing.md"],
    ["a file:// URI", "file-uri"],
  ])("a fetch by %s refreshes the folder once, not once to resolve the id and once to read it", async (_name, id) => {
    const { folder, refreshes } = await countedFolder();
    const vocabulary = createVocabulary({ locale: "en", sourceName: "the folder", entries: [] });
    const client = await connectInMemory({ name: "test", version: "0.0.0", vocabulary, folder, locale: "en" }, clients);
    const asked = id === "file-uri" ? new URL(`file://${join(folder.root, "brewing.md")}`).href : id;
    const before = refreshes();
    const result = await client.fetch(asked);
    expect(result.isError).not.toBe(true);
    expect((result.structuredContent as { id: string }).id).toBe("doc:brewing.md");
    expect(refreshes() - before).toBe(1);
  });

  it("a search refreshes the folder once", async () => {
    const { folder, refreshes } = await countedFolder();
    const vocabulary = createVocabulary({ locale: "en", sourceName: "the folder", entries: [] });
    const client = await connectInMemory({ name: "test", version: "0.0.0", vocabulary, folder, locale: "en" }, clients);
    const before = refreshes();
    const result = await client.search("coffee");
    expect((result.structuredContent?.["results"] as { id: string }[]).map((hit) => hit.id)).toStrictEqual(["doc:brewing.md"]);
    expect(refreshes() - before).toBe(1);
  });

  it("two fetches in a row each refresh once: a refresh is never reused by the next call", async () => {
    const { folder, refreshes } = await countedFolder();
    const vocabulary = createVocabulary({ locale: "en", sourceName: "the folder", entries: [] });
    const client = await connectInMemory({ name: "test", version: "0.0.0", vocabulary, folder, locale: "en" }, clients);
    const before = refreshes();
    await client.fetch("doc:brewing.md");
    await client.fetch("tea.md");
    expect(refreshes() - before).toBe(2);
  });
});
