import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createVocabulary } from "@sbissoli/mcp-search";
import { openFolder } from "../../src/folder/folder.js";
import { REMOVED_IDS_KEPT } from "../../src/folder/indexer.js";

/**
 * A session that deletes uniquely named files forever must not grow forever: the folder
 * remembers the last REMOVED_IDS_KEPT removed ids (to call a fetch of one "stale" rather than
 * "unknown") and forgets the oldest. In the extra tier: it indexes and deletes 10,050 files.
 */
const root = mkdtempSync(join(tmpdir(), "mcp-search-removed-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the removed ids of a folder", () => {
  it(`keeps the last ${REMOVED_IDS_KEPT} removed ids, forgetting the oldest`, async () => {
    const total = REMOVED_IDS_KEPT + 50;
    const names = Array.from({ length: total }, (_, index) => `f${String(index).padStart(5, "0")}.md`);
    for (const name of names) writeFileSync(join(root, name), `# ${name}\n`);
    const vocabulary = createVocabulary({ locale: "en", sourceName: "t", entries: [] });
    const folder = await openFolder({ root, vocabulary, watch: false });
    try {
      await folder.ready;
      expect((await folder.refresh()).documents.size).toBe(total);
      for (const name of names) rmSync(join(root, name));
      const { removed, documents } = await folder.refresh();
      expect(documents.size).toBe(0);
      expect(removed.size).toBe(REMOVED_IDS_KEPT);
      // Removed in code-unit order of their paths: the first 50 are the ones forgotten.
      expect(removed.has(`doc:${names[0]}`)).toBe(false);
      expect(removed.has(`doc:${names[total - 1]}`)).toBe(true);
    } finally {
      folder.close();
    }
  });
});
