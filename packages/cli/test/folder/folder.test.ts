import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createVocabulary } from "@sbissoli/mcp-search";
import { openFolder } from "../../src/folder/folder.js";
import { relativeMessage } from "../../src/folder/containment.js";
import { createFolderServer } from "../../src/transports/serve.js";

/**
 * A refresh that fails is tried again by the next call, and its message names no absolute path.
 * The failure is real: the folder's own progress log throws once, in the middle of a rebuild.
 */

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "mcp-search-retry-"));
  await writeFile(join(root, "a.md"), "# A\n\nalpha\n");
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("openFolder refresh", () => {
  it("retries a refresh that threw, instead of serving the stale snapshot for good", async () => {
    let failNext = false;
    const vocabulary = createVocabulary({ locale: "en", sourceName: "t", entries: [] });
    const folder = await openFolder({
      root,
      vocabulary,
      log: (line) => {
        if (failNext && line.startsWith("indexed")) {
          failNext = false;
          throw new Error(`EIO: i/o error, read '${folder.root}/b.md'`);
        }
      },
    });
    await folder.ready;
    try {
      failNext = true;
      await writeFile(join(root, "b.md"), "# B\n\nbeta\n");
      await expect(folder.refresh()).rejects.toThrow("EIO: i/o error, read './b.md'");
      const after = await folder.refresh();
      expect([...after.documents.keys()]).toStrictEqual(["a.md", "b.md"]);
    } finally {
      folder.close();
    }
  });

  it("falls back to a rebuild in one pass when the same failure comes twice, and says so once", async () => {
    let failures = 2;
    const logged: string[] = [];
    const vocabulary = createVocabulary({ locale: "en", sourceName: "t", entries: [] });
    const folder = await openFolder({
      root,
      vocabulary,
      log: (line) => {
        logged.push(line);
        if (failures > 0 && line.startsWith("indexed")) {
          failures -= 1;
          throw new Error("a posting is cut short");
        }
      },
    });
    await folder.ready;
    try {
      await writeFile(join(root, "b.md"), "# B\n\nbeta servers running\n");
      await expect(folder.refresh()).resolves.toBe(folder.current);
      expect(logged.filter((line) => line.startsWith("indexing failed"))).toStrictEqual([
        "indexing failed: a posting is cut short; the next call tries again",
        "indexing failed again (a posting is cut short): building the index again from the files, in one pass",
      ]);
      expect(logged.at(-1)).toBe("rebuilt the index: 2 documents");
      expect(folder.current.index.search("beta").map((hit) => hit.id)).toStrictEqual(["doc:b.md"]);
      // The rebuilt index analyses as the first did: Snowball's English stemmer takes "servers
      // running" to "server run" (the library's own plural folding alone does not reach "run").
      expect(folder.current.index.search("run").map((hit) => hit.id)).toStrictEqual(["doc:b.md"]);
    } finally {
      folder.close();
    }
  });

  it("logs an error of the background compaction with the file count, builds the index again and keeps answering", async () => {
    // More files than one batch, so that the indexing is followed by a compaction in the background.
    for (let i = 0; i < 70; i++) await writeFile(join(root, `note-${i}.md`), `# Note ${i}\n\nsour coffee ${i} and gamma\n`);
    const vocabulary = createVocabulary({ locale: "en", sourceName: "t", entries: [] });
    let rebuilt: () => void = () => undefined;
    const rebuiltLine = new Promise<void>((resolve) => (rebuilt = resolve));
    const logged: string[] = [];
    const folder = await openFolder({
      root,
      vocabulary,
      watch: false,
      log: (line) => {
        logged.push(line);
        if (line.startsWith("rebuilt the index")) rebuilt();
      },
    });
    await folder.ready;
    // An injected fault: the index's compaction throws, as it did on a corrupt posting (issue 30).
    const broken = folder.current.index;
    broken.compactStep = () => {
      throw new Error("a posting is cut short");
    };
    const server = createFolderServer({ name: "test", version: "0.0.0", folder, vocabulary, locale: "en" });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    const client = new Client({ name: "test-client", version: "0.0.0" });
    await client.connect(clientTransport);
    try {
      await rebuiltLine;
      expect(logged.filter((line) => line.includes("failed"))).toStrictEqual([
        "compacting the index failed with 71 files indexed: a posting is cut short; building the index again from the files",
      ]);
      expect(folder.current.index).not.toBe(broken);
      const reply = await client.callTool({ name: "search", arguments: { query: "coffee 42" } });
      expect(reply.isError).toBeFalsy();
      expect((reply.structuredContent as { results: { id: string }[] }).results[0]?.id).toBe("doc:note-42.md");
    } finally {
      await client.close();
      await server.close();
      folder.close();
    }
  });

  it.each([
    ["/srv/docs", "EACCES: permission denied, scandir '/srv/docs/private'", "EACCES: permission denied, scandir './private'"],
    ["/srv/docs", "no path here", "no path here"],
    ["/", "ENOENT: '/x'", "ENOENT: '/x'"],
  ])("relativeMessage(%j, %j) => %j", (root, message, expected) => {
    expect(relativeMessage(root, message)).toBe(expected);
  });
});
