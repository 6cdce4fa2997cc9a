import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StdioBin } from "../_cli-spawn.js";

/**
 * Several folders behind one server, through the BUILT bin: each under a prefix (its name, made
 * unique), ids and resource uris that name one file, and containment per folder.
 */

let workspace: string;
let bin: StdioBin;

interface Reply {
  result?: { structuredContent?: { results?: { id: string; url: string }[] }; content?: { text: string }[]; contents?: { text: string }[]; isError?: boolean };
  error?: { message: string };
}

async function call(name: string, args: Record<string, unknown>): Promise<Reply> {
  return (await bin.request("tools/call", { name, arguments: args })) as Reply;
}

beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), "mcp-search-mounts-"));
  const files: Record<string, string> = {
    "home/notes/a.md": "# Notes A\n\nmarker from the notes folder.\n",
    "work/docs/a.md": "# Docs A\n\nmarker from the docs folder.\n",
    "work/docs/secret.md": "# Secret\n\nzanzibar, only inside docs.\n",
    "other/notes/a.md": "# Other notes A\n\nmarker from the other notes folder.\n",
  };
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(workspace, path, ".."), { recursive: true });
    await writeFile(join(workspace, path), text);
  }
  // A link from one served folder into another is outside the first: refused.
  await symlink(join(workspace, "work/docs/secret.md"), join(workspace, "home/notes/link.md"));
  bin = new StdioBin(["serve", join(workspace, "home/notes"), join(workspace, "work/docs"), join(workspace, "other/notes"), "--locale", "en", "--limit", "50"]);
  await bin.open();
});

afterAll(async () => {
  bin.close();
  await rm(workspace, { recursive: true, force: true });
});

describe("mcp-search serve <dir> <dir>…", () => {
  it("prefixes each folder's ids with its name, made unique", async () => {
    const ids = (await bin.search("marker")).results.map((result) => result.id).sort();
    expect(ids).toStrictEqual(["doc:docs/a.md", "doc:notes-2/a.md", "doc:notes/a.md"]);
    expect(bin.stderr.some((line) => line.includes(`${join(workspace, "work/docs")} as docs/`))).toBe(true);
  });

  it("fetches each file by its prefixed id and by its file:// URI", async () => {
    const docs = JSON.parse((await call("fetch", { id: "doc:docs/a.md" })).result?.content?.[0]?.text ?? "{}") as { title: string; url: string };
    expect(docs.title).toBe("Docs A");
    expect(docs.url).toBe(pathToFileURL(join(workspace, "work/docs/a.md")).href);
    const byUri = JSON.parse((await call("fetch", { id: pathToFileURL(join(workspace, "other/notes/a.md")).href })).result?.content?.[0]?.text ?? "{}") as { id: string };
    expect(byUri.id).toBe("doc:notes-2/a.md");
  });

  it("reads a resource by its prefixed uri", async () => {
    const read = (await bin.request("resources/read", { uri: "mcp-search://doc/notes/a.md" })) as Reply;
    expect(read.result?.contents?.[0]?.text).toContain("marker from the notes folder");
  });

  it("holds containment per folder: a link from one folder into another is not served", async () => {
    expect((await bin.search("zanzibar")).results.map((result) => result.id)).toStrictEqual(["doc:docs/secret.md"]);
    const fetched = await call("fetch", { id: "doc:notes/link.md" });
    expect(fetched.result?.isError).toBe(true);
  });

  it("sees an edit in any folder", async () => {
    await writeFile(join(workspace, "other/notes/new.md"), "# New\n\nfreshly written words.\n");
    // The very next call: a refresh takes every change made before it (the folder's contract).
    const ids = (await bin.search("freshly written")).results.map((result) => result.id);
    expect(ids).toStrictEqual(["doc:notes-2/new.md"]);
  });
});
