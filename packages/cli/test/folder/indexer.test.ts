import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { createVocabulary } from "@sbissoli/mcp-search";
import { afterAll, describe, expect, it } from "vitest";
import { openFolder } from "../../src/folder/folder.js";
import { createFolderServer } from "../../src/transports/serve.js";
import { connect, search } from "../formats/_formats-client.js";
import { epubOf } from "../formats/_hostile-zips.js";

/**
 * The indexer of ../../src/folder/indexer.ts: a binary document is read beside the text files
 * (issue 41, finding 4, against the built bin), and a search during a rebuild waits for the
 * rebuilt index rather than answer from the empty one.
 */
const folder = mkdtempSync(join(tmpdir(), "mcp-search-binary-lane-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("mcp-search serve: slow documents beside fast ones", () => {
  it("finds a note that sorts after a slow EPUB before the EPUB is indexed", async () => {
    // About 8 MB of XHTML: most of a second in the formats worker, its start included.
    writeFileSync(join(folder, "a-long-book.epub"), epubOf({ "long.xhtml": `<html><body>${"<p>word after word, and another word</p>".repeat(200_000)}</body></html>` }, ["c0"]));
    writeFileSync(join(folder, "z-note.md"), "# Zebra crossing\n\nStripes on the road.\n");
    const { client } = await connect(["serve", folder, "--locale", "en", "--max-file-bytes", String(16 << 20)]);
    try {
      // One search is enough: a search during the first indexing waits until the indexing starts
      // reading in lanes, and the text lane applies its first batch before anything else runs.
      const found = await search("zebra", client);
      expect(found.results.map((result) => result.id)).toStrictEqual(["doc:z-note.md"]);
      // Found while the book was still being read: the note is the only document indexed so far.
      expect(found.summary.documents).toBe(1);
      expect(found.summary.message).toMatch(/^indexing/);
    } finally {
      await client.close();
    }
  });
});

describe("FolderIndexer.rebuild", () => {
  it("a search made while the index is rebuilt waits for it, and answers from the whole rebuilt index", async () => {
    const root = mkdtempSync(join(tmpdir(), "mcp-search-rebuild-"));
    // More files than one batch: the indexing is followed by a compaction, and the rebuild reads in batches.
    for (let i = 0; i < 70; i++) writeFileSync(join(root, `note-${i}.md`), `# Note ${i}\n\nsour coffee ${i} and gamma\n`);
    const vocabulary = createVocabulary({ locale: "en", sourceName: "t", entries: [] });
    let compactionFailed = false;
    let duringRebuild: { documents: number; reply: Promise<unknown> } | undefined;
    let rebuilt: () => void = () => undefined;
    const rebuiltLine = new Promise<void>((resolve) => (rebuilt = resolve));
    let client: Client | undefined;
    const folder = await openFolder({
      root,
      vocabulary,
      watch: false,
      log: (line) => {
        if (line.startsWith("compacting the index failed")) compactionFailed = true;
        // The rebuild has cleared the index and starts reading: search now.
        if (compactionFailed && duringRebuild === undefined && /^indexing \d+ files$/.test(line)) {
          duringRebuild = { documents: folder.current.documents.size, reply: (client as Client).callTool({ name: "search", arguments: { query: "coffee 42" } }) };
        }
        if (line.startsWith("rebuilt the index")) rebuilt();
      },
    });
    await folder.ready;
    const server = createFolderServer({ name: "test", version: "0.0.0", folder, vocabulary, locale: "en" });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    client = new Client({ name: "test-client", version: "0.0.0" });
    await client.connect(clientTransport);
    try {
      // An injected fault: the index's compaction throws, as it did on a corrupt posting (issue 30).
      folder.current.index.compactStep = () => {
        throw new Error("a posting is cut short");
      };
      await rebuiltLine;
      expect(duringRebuild?.documents).toBe(0);
      const reply = (await duringRebuild?.reply) as { structuredContent: { results: { id: string }[]; summary: { documents: number; message: string } } };
      expect(reply.structuredContent.summary.documents).toBe(70);
      expect(reply.structuredContent.summary.message).not.toMatch(/^indexing/i);
      expect(reply.structuredContent.results[0]?.id).toBe("doc:note-42.md");
    } finally {
      await client.close();
      await server.close();
      folder.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
