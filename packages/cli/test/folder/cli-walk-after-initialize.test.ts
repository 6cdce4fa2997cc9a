import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { call, connectHttp, startBin, type FolderSearch } from "../_cli-spawn.js";

/**
 * Issue 41, finding 4, against the built bin: the folder walk may hold the thread for seconds (a
 * `.gitignore` of tens of thousands of patterns compiles one regular expression each), so it
 * starts only once the transport is up: over HTTP once it listens, over stdio once it has
 * answered its first message. Before, the walk ran while the HTTP adapter loaded, before
 * `listen`: the folder had logged its whole indexing before the server said where it listens.
 * That order, not the walk's length, is what this checks, so a modest .gitignore does.
 */
const folder = mkdtempSync(join(tmpdir(), "mcp-search-walk-after-listen-"));
writeFileSync(join(folder, ".gitignore"), Array.from({ length: 5_000 }, (_, n) => `build-output-${n}/**/*.generated-${n}.tmp`).join("\n"));
writeFileSync(join(folder, "note.md"), "# Lantern\n\nA note to find.\n");
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const INDEXED = /indexed \d+ documents/;

describe("mcp-search serve: the transport before the walk", () => {
  it("listens before the folder walk, with a .gitignore of 5,000 patterns", async () => {
    const server = await startBin(["serve", folder, "--locale", "en", "--http", "127.0.0.1:0"]);
    try {
      // Wait for the indexing's own line (an event, not a poll), then compare the order of the two
      // lines: the old build logged its whole indexing before the line that says where it listens.
      if (!INDEXED.test(server.stderr())) {
        await new Promise<void>((resolve) => {
          const listen = () => {
            if (!INDEXED.test(server.stderr())) return;
            server.child.stderr?.off("data", listen);
            resolve();
          };
          server.child.stderr?.on("data", listen);
          listen();
        });
      }
      const log = server.stderr();
      expect(log.indexOf("over Streamable HTTP at")).toBeLessThan(log.search(INDEXED));
      const client = await connectHttp(server.url);
      const found = (await call(client, "search", { query: "lantern" })).structuredContent as unknown as FolderSearch;
      expect(found.results.map((result) => result.id)).toStrictEqual(["doc:note.md"]);
      await client.close();
    } finally {
      await server.stop();
    }
  });
});
