/**
 * The folder server's index against a fresh build, on real folders at the scale where its
 * postings' pool, block chains and resizable buffers fill as they do for users (issue 30: a
 * folder of 1,348 npm READMEs lost its whole index to a posting that ran past its block).
 *
 * Each folder is indexed by the folder server's own path (`openFolder`: walk, read, `add`,
 * `replace`, `remove`, automatic and explicit compaction), then every query of a fixed set is
 * compared with a fresh `createIndex` over the same entries in the same tie order: the top 10 ids
 * in order, and how many documents match at all. It runs in the extra tier (`npm run test:extra`):
 * it reads and indexes about 40 MB of text several times.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative as relativePath } from "node:path";
import { fileURLToPath } from "node:url";
import { createIndex, createVocabulary, type IndexEntry, type IndexRanking } from "@sbissoli/mcp-search";
import { afterAll, describe, expect, it } from "vitest";
import { openFolder, type Folder } from "../../src/folder/folder.js";
import { documentEntry } from "../../src/folder/reader.js";
import { ELD_DETECTOR } from "../../src/folder/detector.js";
import { SNOWBALL_STEMMERS } from "../../src/folder/stemmers.js";

const REPO = fileURLToPath(new URL("../../../../", import.meta.url));
const REPRO_ARCHIVE = join(REPO, "../shared/repro/posting-cut-short/readmes.tar.xz");
const vocabulary = createVocabulary({ locale: "en", sourceName: "the folder", entries: [] });
const workspaces: string[] = [];

afterAll(() => {
  for (const root of workspaces) rmSync(root, { recursive: true, force: true });
});

function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), "mcp-search-differential-"));
  workspaces.push(root);
  return root;
}

/** Every file under `root`, as "/"-separated relative paths in code-unit order. */
function filesUnder(root: string): string[] {
  const out: string[] = [];
  const pending = [root];
  for (let folder = pending.pop(); folder !== undefined; folder = pending.pop()) {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else if (entry.isFile()) out.push(relativePath(root, path).split("\\").join("/"));
    }
  }
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The folder's documents in the tie order it gave them: the order of `order` (kept up to date
 * by the caller as the folder applies its changes), each read again from disk.
 */
function freshIndex(folder: Folder, order: readonly string[], ranking: IndexRanking): ReturnType<typeof createIndex> {
  const entries: IndexEntry[] = order.map((relative) => {
    const document = folder.current.documents.get(relative);
    if (document === undefined) throw new Error(`the folder lost ${relative}`);
    const source = readFileSync(join(folder.root, relative), "utf8");
    return documentEntry(relative, source, { url: document.url, linksResolve: false, ranking, vocabulary }).entry;
  });
  // The folder's own analysis: BM25 with Snowball's stemmers and eld, English when detection is unsure.
  return createIndex(entries, ranking === "bm25" ? { ranking, stemmers: SNOWBALL_STEMMERS, detector: ELD_DETECTOR } : { ranking });
}

/** The query set: fixed words and phrases, and the first heading of every 25th document. */
function queriesFor(folder: Folder): string[] {
  const titles = [...folder.current.documents.values()].map((document) => document.title).sort().filter((_, i) => i % 25 === 0);
  return [
    "install", "license", "typescript", "stream", "error handling", "parse json", "command line", "promise",
    "zip", "browser support", "api", "usage example", "node", "test", "config file", "cache", "unicode", "regular expression",
    ...titles,
  ];
}

/** Every query's top 10 and match count, from the folder's index and from a fresh build. */
function expectSameAnswers(folder: Folder, order: readonly string[], ranking: IndexRanking): void {
  expect(folder.current.documents.size).toBe(order.length);
  const fresh = freshIndex(folder, order, ranking);
  const served = folder.current.index;
  const answer = (index: typeof fresh, query: string) => ({
    query,
    top: index.search(query, { limit: 10 }).map((hit) => hit.id),
    matches: index.search(query, { limit: order.length }).length,
  });
  const queries = queriesFor(folder);
  expect(queries.map((query) => answer(served, query))).toStrictEqual(queries.map((query) => answer(fresh, query)));
}

/** Applies one refresh's changes to the tie order as the folder does: drops first, then new files at the end in code-unit order. */
function reorder(order: string[], now: readonly string[]): string[] {
  const present = new Set(now);
  const kept = order.filter((relative) => present.has(relative));
  const known = new Set(kept);
  return [...kept, ...now.filter((relative) => !known.has(relative))];
}

async function indexed(root: string, ranking: IndexRanking, logged: string[]): Promise<Folder> {
  const folder = await openFolder({ root, vocabulary, watch: false, ranking, log: (line) => logged.push(line) });
  await folder.ready;
  return folder;
}

describe("the folder server's index against a fresh build", () => {
  it.runIf(existsSync(REPRO_ARCHIVE)).each(["bm25", "rule"] as IndexRanking[])(
    "answers as a fresh build on the reproduction folder, 674 READMEs twice (%s)",
    async (ranking) => {
      const root = workspace();
      for (const half of ["a", "b"]) {
        mkdirSync(join(root, half));
        execFileSync("tar", ["-C", join(root, half), "--strip-components=1", "-xJf", REPRO_ARCHIVE]);
      }
      const logged: string[] = [];
      const folder = await indexed(root, ranking, logged);
      expect(logged.filter((line) => line.includes("failed"))).toStrictEqual([]);
      const order = filesUnder(root);
      expect(order.length).toBe(1348);
      expectSameAnswers(folder, order, ranking);
      folder.current.index.compact();
      expectSameAnswers(folder, order, ranking);
      folder.close();
    },
  );

  it("the archive of the reproduction is there (CI lays ../shared beside the clone)", () => {
    expect(existsSync(REPRO_ARCHIVE)).toBe(true);
  });

  it.each(["bm25", "rule"] as IndexRanking[])(
    "answers as a fresh build through adds, replacements and removals of a real corpus in two copies (%s)",
    async (ranking) => {
      // The READMEs of this repository's own dependencies: real prose no one here wrote, pinned by the lockfile.
      const readmes: string[] = [];
      const modules = join(REPO, "node_modules");
      for (const name of readdirSync(modules).sort()) {
        const scoped = name.startsWith("@") ? readdirSync(join(modules, name)).sort().map((inner) => `${name}/${inner}`) : [name];
        for (const pkg of scoped) {
          const readme = join(modules, pkg, "README.md");
          if (existsSync(readme)) readmes.push(readme);
        }
      }
      expect(readmes.length).toBeGreaterThan(200);
      const root = workspace();
      const place = (copy: string, i: number) => join(root, copy, `part-${i % 7}`, `readme-${i}.md`);
      const copyIn = (copy: string) =>
        readmes.forEach((readme, i) => {
          mkdirSync(join(root, copy, `part-${i % 7}`), { recursive: true });
          copyFileSync(readme, place(copy, i));
        });
      copyIn("first");
      const logged: string[] = [];
      const folder = await indexed(root, ranking, logged);
      let order = filesUnder(root);
      expectSameAnswers(folder, order, ranking);

      // The second copy: every term's run continues hundreds of slots later, past the pool's thresholds.
      copyIn("second");
      await folder.refresh();
      order = reorder(order, filesUnder(root));
      expectSameAnswers(folder, order, ranking);

      // Replace a third of the first copy by other READMEs, remove a quarter of the second.
      readmes.forEach((_, i) => {
        if (i % 3 === 0) writeFileSync(place("first", i), `${readFileSync(readmes[(i * 7 + 3) % readmes.length]!, "utf8")}\n\nedited ${i}\n`);
        if (i % 4 === 1) unlinkSync(place("second", i));
      });
      await folder.refresh();
      order = reorder(order, filesUnder(root));
      expectSameAnswers(folder, order, ranking);

      // Put the removed ones back, changed, and add a third copy; then compact as the server's timer does.
      readmes.forEach((readme, i) => {
        if (i % 4 === 1) writeFileSync(place("second", i), `${readFileSync(readme, "utf8")}\n\nback ${i}\n`);
      });
      copyIn("third");
      // Other real READMEs, with words new to the index, a thousand slots and more in: their
      // first postings carry large gaps and several counts, the longest postings there are.
      if (existsSync(REPRO_ARCHIVE)) {
        mkdirSync(join(root, "late"));
        execFileSync("tar", ["-C", join(root, "late"), "--strip-components=1", "-xJf", REPRO_ARCHIVE]);
      }
      await folder.refresh();
      order = reorder(order, filesUnder(root));
      expectSameAnswers(folder, order, ranking);
      folder.current.index.compact();
      expectSameAnswers(folder, order, ranking);
      expect(logged.filter((line) => line.includes("failed"))).toStrictEqual([]);
      folder.close();
    },
  );
});
