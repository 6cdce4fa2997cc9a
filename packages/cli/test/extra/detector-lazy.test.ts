import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createVocabulary } from "@sbissoli/mcp-search";

// In the extra tier: eld costs 4 to 8 MB of heap, paid only by a folder with a document its function
// words cannot place. The tier runs its files in one module graph, so the modules are loaded
// afresh here, without the eld another file loaded.
const root = mkdtempSync(join(tmpdir(), "mcp-search-eld-lazy-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the folder server's language detector", () => {
  it("is not loaded while every document says its language by its function words, and is by the first that does not", async () => {
    vi.resetModules();
    const { eldLoaded } = await import("../../src/folder/detector.js");
    const { openFolder } = await import("../../src/folder/folder.js");
    const page = "The printer is in the office. It prints the pages that are sent to it from this network, and it is shared by the team.";
    writeFileSync(join(root, "printer.md"), `# Printer\n\n${page}\n`);
    writeFileSync(join(root, "network.md"), `# Network\n\n${page.replace("printer", "router")}\n`);
    const vocabulary = createVocabulary({ locale: "en", sourceName: "the folder", entries: [] });
    const folder = await openFolder({ root, vocabulary, watch: false });
    try {
      await folder.ready;
      expect(folder.current.index.search("printer").map((hit) => hit.id)).toContain("doc:printer.md");
      expect(eldLoaded()).toBe(false);
      writeFileSync(join(root, "nota.md"), "# Sobre\n\nconfiguración\n");
      const { index } = await folder.refresh();
      expect(eldLoaded()).toBe(true);
      expect(index.search("configuracion").map((hit) => hit.id)).toStrictEqual(["doc:nota.md"]);
    } finally {
      folder.close();
    }
  });
});
