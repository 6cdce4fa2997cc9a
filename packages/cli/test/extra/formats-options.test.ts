import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, fetchText, FIXTURES, search, untilIndexed } from "../formats/_formats-client.js";

/**
 * The document formats' options through the BUILT bin (extra tier: five servers, each reading a
 * PDF): the first search answered at once while a PDF is read, a page cited under --base-url,
 * the text cap, and --cache keeping extracted texts and skip reasons across a restart. The
 * formats themselves are tested in ../cli-formats.test.ts.
 */

let workspace: string;

beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), "mcp-search-formats-options-"));
});

afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

describe("mcp-search serve: formats under --base-url, --max-file-bytes and --cache", () => {
  // A smaller folder of one PDF and one DOCX: each test starts its own server.
  let small: string;
  beforeAll(async () => {
    small = join(workspace, "small");
    await cp(join(FIXTURES, "ls.pdf"), join(small, "ls.pdf"));
    await cp(join(FIXTURES, "guide.docx"), join(small, "guide.docx"));
  });

  it("answers the first search at once while a PDF is read, saying so", async () => {
    const served = await connect(["serve", small, "--locale", "en"]);
    try {
      await search("kettle", served.client);
      const done = await untilIndexed(served.client);
      expect(done.summary.documents).toBe(2);
      // Two files only, yet indexed in the background, as a large folder is.
      expect(served.stderr()).toMatch(/indexing 2 files/);
    } finally {
      await served.client.close();
    }
  });

  it("cites a PDF page under --base-url", async () => {
    const served = await connect(["serve", small, "--locale", "en", "--base-url", "https://docs.example.com/manuals/"]);
    try {
      await untilIndexed(served.client);
      const hit = (await search("full documentation online", served.client)).results.find((result) => result.id === "doc:ls.pdf");
      expect(hit?.url).toMatch(/^https:\/\/docs\.example\.com\/manuals\/ls\.pdf#page=[2-4]$/);
    } finally {
      await served.client.close();
    }
  });

  it("cuts a document's text at the size cap, says so, and counts it", async () => {
    const served = await connect(["serve", small, "--locale", "en", "--max-file-bytes", "2000"]);
    try {
      const found = await untilIndexed(served.client);
      expect(served.stderr()).toMatch(/truncated ls\.pdf: its text is over the 2000-character cap/);
      expect(found.summary.unreadable).toBe(1);
      expect((await fetchText("doc:ls.pdf", served.client)).text.length).toBeLessThanOrEqual(2000);
    } finally {
      await served.client.close();
    }
  });

  it("keeps extracted text beside the index: a restart extracts no unchanged file again, and names a skipped one again", async () => {
    const cached = join(workspace, "cached");
    await cp(small, cached, { recursive: true });
    await cp(join(FIXTURES, "scan.pdf"), join(cached, "scan.pdf"));
    const cache = join(workspace, "cache");
    const first = await connect(["serve", cached, "--locale", "en", "--cache", cache]);
    expect((await untilIndexed(first.client)).summary.unreadable).toBe(1);
    await first.client.close();
    const kept = (await readdir(cache)).filter((name) => name.startsWith("texts-"));
    expect(kept).toHaveLength(1);
    // The PDF's text, the DOCX's, and why the scan gave none.
    expect((await readdir(join(cache, kept[0] as string))).length).toBe(3);
    const again = await connect(["serve", cached, "--locale", "en", "--cache", cache]);
    try {
      await untilIndexed(again.client);
      const found = await search("full documentation online", again.client);
      expect(found.results.find((result) => result.id === "doc:ls.pdf")?.url).toMatch(/#page=[2-4]$/);
      // Only the skipped scan is looked at again, and its reason comes from the cache.
      expect(again.stderr()).toMatch(/\(0 files read\)/);
      expect(again.stderr()).toMatch(/skipped scan\.pdf: it has no text layer/);
      expect(found.summary.unreadable).toBe(1);
    } finally {
      await again.client.close();
    }
  });
});

