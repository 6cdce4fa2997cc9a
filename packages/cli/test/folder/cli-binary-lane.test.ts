import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { connect, search } from "../formats/_formats-client.js";
import { epubOf } from "../formats/_hostile-zips.js";

/**
 * Issue 41, finding 4, against the built bin: a binary document is read beside the text files,
 * so a note that sorts after a slow EPUB is searchable while the EPUB is still being read.
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
      let found = await search("zebra", client);
      while (found.results.length === 0) found = await search("zebra", client);
      expect(found.results.map((result) => result.id)).toStrictEqual(["doc:z-note.md"]);
      // Found while the book was still being read: the note is the only document indexed so far.
      expect(found.summary.documents).toBe(1);
      expect(found.summary.message).toMatch(/^indexing/);
    } finally {
      await client.close();
    }
  });
});
