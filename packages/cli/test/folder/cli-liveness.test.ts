/**
 * The built bin on a folder large enough that indexing takes a few seconds: it answers
 * `initialize` and `tools/list` before indexing ends, writes progress lines, and a search during
 * indexing answers with what is indexed so far, saying so. Then the snapshot: a warm start gives
 * the same results as a cold one, and a corrupt snapshot falls back to a full index.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StdioBin } from "../_cli-spawn.js";

const WORDS = ("coffee grinder kettle filter bloom extraction roast origin acidity body aroma brew water " +
  "temperature ratio burr espresso crema channel tamp puck dose yield shot siphon press steep cup taste " +
  "bean harvest altitude process washed natural honey ferment dry cherry pulp sorting storage fresh").split(" ");

/** Sentences of 40 words, some with a number: the stock each file's prose is drawn from. */
const SENTENCES = (() => {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  return Array.from({ length: 97 }, () =>
    Array.from({ length: 40 }, () => `${WORDS[next() % WORDS.length]}${next() % 7 === 0 ? ` ${next() % 97}` : ""}`).join(" "),
  );
})();

/**
 * A deterministic prose folder: `files` Markdown files of about `words` words each, in 40
 * folders. Each file strings together sentences of the stock in its own order, so files differ
 * while building the folder costs little beside the server's indexing of it.
 */
function makeFolder(files: number, words: number): string {
  const root = mkdtempSync(join(tmpdir(), "mcp-search-live-"));
  for (let part = 0; part < Math.min(files, 40); part++) mkdirSync(join(root, `part-${part}`));
  for (let f = 0; f < files; f++) {
    const body = Array.from({ length: Math.ceil(words / 40) }, (_, s) => SENTENCES[(f * 31 + s * (f % 13 + 1)) % SENTENCES.length]);
    writeFileSync(join(root, `part-${f % 40}`, `note-${f}.md`), `# Note ${f} ${WORDS[f % WORDS.length]}\n\n${body.join(". ")}\n`);
  }
  return root;
}

describe("mcp-search serve on a large folder", () => {
  const FILES = 1000;
  let root: string;
  let cache: string;
  beforeAll(() => {
    root = makeFolder(FILES, 3600);
    cache = mkdtempSync(join(tmpdir(), "mcp-search-cache-"));
  });
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
  });

  it("answers initialize and tools/list before indexing ends, reports progress, and answers a search meanwhile with what it has", async () => {
    const server = new StdioBin(["serve", root, "--locale", "en"]);
    try {
      await server.open();
      expect(server.indexed()).toBe(false);
      const tools = (await server.request("tools/list"))["result"] as { tools: { name: string }[] };
      expect(tools.tools.map((tool) => tool.name).sort()).toStrictEqual(["fetch", "search"]);
      const during = await server.search("coffee grinder");
      expect(during.summary.message).toMatch(new RegExp(`^indexing: [\\d,]+ of ${FILES.toLocaleString("en")} files; the result covers only what is indexed so far\\. `));
      expect(during.summary.documents).toBeLessThan(FILES);
      // A progress line within about a second, while indexing goes on; the rest of the indexing
      // is not waited for (the next test sees an indexing end, on a smaller folder).
      const progress = new RegExp(`^mcp-search: indexing: \\d+ of ${FILES} files, [\\d.]+ MB read$`);
      await server.untilStderr((line) => progress.test(line) || /indexed \d+ documents/.test(line));
      expect(server.stderr.some((line) => progress.test(line))).toBe(true);
    } finally {
      server.close();
    }
  }, 120_000);

  it("gives the same results from a warm start as from a cold one, and falls back to a full index on a corrupt snapshot", async () => {
    // The snapshot's rules do not depend on size: a small folder keeps three starts quick.
    const SMALL = 300;
    const small = makeFolder(SMALL, 200);
    const queries = ["coffee grinder", "roast origin 12", "washed natural honey", "Note 17"];
    const run = async () => {
      const server = new StdioBin(["serve", small, "--locale", "en", "--cache", cache]);
      try {
        await server.open();
        await server.untilIndexed();
        const results = [];
        const summaries = [];
        for (const query of queries) {
          const answer = await server.search(query);
          results.push(answer.results);
          summaries.push(answer.summary);
        }
        // The first snapshot is written once the index is compacted, in slices after indexing.
        await server.untilStderr((line) => /snapshot (written|not written):|snapshot: \d+ documents/.test(line));
        return { results, summaries, stderr: server.stderr };
      } finally {
        server.close();
      }
    };
    const cold = await run();
    // Once indexing has ended, a search covers every file and no longer says "indexing".
    for (const summary of cold.summaries) {
      expect(summary.documents).toBe(SMALL);
      expect(summary.message).not.toMatch(/^indexing/);
    }
    expect(cold.stderr.some((line) => line.includes(`snapshot written: ${SMALL} documents`))).toBe(true);
    const warm = await run();
    expect(warm.stderr.some((line) => line.includes(`snapshot: ${SMALL} documents`))).toBe(true);
    expect(warm.stderr.some((line) => /\(0 files read\)/.test(line))).toBe(true);
    expect(warm.results).toStrictEqual(cold.results);

    const [file] = readdirSync(cache).filter((name) => name.endsWith(".snapshot"));
    writeFileSync(join(cache, file as string), "not a snapshot\n");
    const broken = await run();
    expect(broken.stderr.filter((line) => /snapshot ignored/.test(line))).toHaveLength(1);
    expect(broken.stderr.some((line) => line.includes(`(${SMALL} files read)`))).toBe(true);
    expect(broken.results).toStrictEqual(cold.results);
    rmSync(small, { recursive: true, force: true });
  }, 180_000);
});
