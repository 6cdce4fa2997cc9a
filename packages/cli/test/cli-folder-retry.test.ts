import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createVocabulary } from "@sbissoli/mcp-search";
import { openFolder } from "../src/folder.js";
import { relativeMessage } from "../src/paths.js";

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

  it.each([
    ["/srv/docs", "EACCES: permission denied, scandir '/srv/docs/private'", "EACCES: permission denied, scandir './private'"],
    ["/srv/docs", "no path here", "no path here"],
    ["/", "ENOENT: '/x'", "ENOENT: '/x'"],
  ])("relativeMessage(%j, %j) => %j", (root, message, expected) => {
    expect(relativeMessage(root, message)).toBe(expected);
  });
});
