import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StdioBin } from "../_cli-spawn.js";

/**
 * The walk's ignore rules through the BUILT bin: the served folder's `.gitignore` files with the
 * cases of git's own documentation (gitignore(5): negation, a leading `/`, a trailing `/`, `**`,
 * a deeper file's rules over a shallower one's, no re-including a file of an excluded folder),
 * and `--exclude`/`--include`.
 */

let workspace: string;

async function write(root: string, files: Record<string, string>): Promise<void> {
  for (const [relative, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, relative)), { recursive: true });
    await writeFile(join(root, relative), text);
  }
}

/** The ids a search for "marker" finds: every file below holds the word. */
async function served(bin: StdioBin): Promise<string[]> {
  const found = await bin.search("marker");
  return found.results.map((result) => result.id).sort();
}

beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), "mcp-search-ignore-"));
});

afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

describe("mcp-search serve: .gitignore", () => {
  let root: string;
  let bin: StdioBin;

  beforeAll(async () => {
    root = join(workspace, "git");
    const files = [
      "notes-a.md", "notes-keep.md", "sub/notes-b.md", "sub/notes-sub.md", "TODO.md", "sub/TODO.md",
      "frotz.md/inside.md", "frotz.md/keep.md", "sub/frotz.md", "a/b/private/secret.md", "private.md",
      "logs/debug.md", "logs/x/y/debug.md", "logs/info.md", "readme.md",
    ];
    await write(root, Object.fromEntries(files.map((file) => [file, `# ${file}\n\nmarker text.\n`])));
    await write(root, {
      ".gitignore": [
        "# negation: every notes-*.md but one",
        "notes-*.md",
        "!notes-keep.md",
        "# a leading slash anchors to this folder",
        "/TODO.md",
        "# a trailing slash matches folders only",
        "frotz.md/",
        "!frotz.md/keep.md",
        "# ** matches any number of folders",
        "**/private/",
        "logs/**/debug.md",
        "",
      ].join("\n"),
      // A deeper .gitignore wins over the root's.
      "sub/.gitignore": "!notes-sub.md\n",
    });
    bin = new StdioBin(["serve", root, "--locale", "en", "--limit", "100"]);
    await bin.open();
  });

  afterAll(() => bin.close());

  it("applies negation, a leading /, a trailing /, ** and nested files as git does", async () => {
    expect(await served(bin)).toStrictEqual([
      "doc:logs/info.md", // logs/**/debug.md leaves out logs/debug.md and logs/x/y/debug.md
      "doc:notes-keep.md", // !notes-keep.md
      "doc:private.md", // **/private/ names folders only
      "doc:readme.md",
      "doc:sub/TODO.md", // /TODO.md is the root's only
      "doc:sub/frotz.md", // frotz.md/ names folders only; !frotz.md/keep.md cannot re-include inside it
      "doc:sub/notes-sub.md", // sub/.gitignore re-includes it
    ]);
  });

  it("applies an edited .gitignore on the next call", async () => {
    await writeFile(join(root, ".gitignore"), "notes-*.md\n");
    // The very next call: a refresh takes every change made before it (the folder's contract).
    const ids = await served(bin);
    expect(ids).toContain("doc:TODO.md");
    expect(ids).toContain("doc:logs/debug.md");
    expect(ids).not.toContain("doc:notes-keep.md");
  });
});

describe("mcp-search serve: --exclude and --include", () => {
  it("leaves out what --exclude matches and serves only what --include matches", async () => {
    const root = join(workspace, "flags");
    await write(root, {
      "drafts/a.md": "marker",
      "b.md": "marker",
      "c.txt": "marker",
      "old/d.md": "marker",
      "e.tmp.md": "marker",
    });
    const bin = new StdioBin(["serve", root, "--locale", "en", "--exclude", "drafts/", "--exclude", "*.tmp.md", "--include", "*.md"]);
    try {
      await bin.open();
      expect(await served(bin)).toStrictEqual(["doc:b.md", "doc:old/d.md"]);
    } finally {
      bin.close();
    }
  });
});
