import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from "node:fs/promises";
import { renameSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isServedPath, NODE_FILE_SYSTEM, readInside, resolveInside, type InsideFileSystem } from "../../src/folder/containment.js";
import { realpath } from "node:fs/promises";

/**
 * The containment check's after-open checks, each shown stopping a swap on its own. The file
 * system seam of `readInside` runs the swap exactly between the check (realpath and lstat) and
 * the open, so every run races the same way; the statistical race test
 * (../extra/cli-containment.test.ts, extra tier, "never returns the outside secret…") stays as a second line.
 */

const SECRET = "SECRETMARK hunter2";
let workspace: string;
let root: string;
let outside: string;

beforeEach(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), "mcp-search-seam-")));
  root = join(workspace, "docs");
  outside = join(workspace, "outside");
  await mkdir(join(root, "sub"), { recursive: true });
  await mkdir(join(outside, "sub"), { recursive: true });
  await writeFile(join(root, "sub", "a.md"), "# A\n\ninside\n");
  await writeFile(join(outside, "secret.md"), `# Secret\n\n${SECRET}\n`);
  await writeFile(join(outside, "sub", "a.md"), `# Secret\n\n${SECRET}\n`);
});

afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

/** The real file system, with `swap` run once just before the first open. */
function swappingBeforeOpen(swap: () => void, overrides: Partial<InsideFileSystem> = {}): InsideFileSystem {
  let swapped = false;
  return {
    ...NODE_FILE_SYSTEM,
    ...overrides,
    open(path, flags) {
      if (!swapped) {
        swapped = true;
        swap();
      }
      return NODE_FILE_SYSTEM.open(path, flags);
    },
  };
}

/** Replaces `path` with a symbolic link to `target`, atomically (a rename over it). */
function replaceWithLink(path: string, target: string): void {
  symlinkSync(target, `${path}.swap`);
  renameSync(`${path}.swap`, path);
}

const read = (fs: InsideFileSystem) => readInside(root, "sub/a.md", 1 << 20, fs);

describe("readInside: the after-open checks, one swap at a time", () => {
  it("reads the file when nothing is swapped", () => {
    const result = read(swappingBeforeOpen(() => undefined));
    expect(result.ok && result.bytes.toString("utf8")).toBe("# A\n\ninside\n");
  });

  it("O_NOFOLLOW: the file swapped for a link to a secret fails to open (ELOOP)", () => {
    const result = read(swappingBeforeOpen(() => replaceWithLink(join(root, "sub", "a.md"), join(outside, "secret.md"))));
    expect(result).toStrictEqual({ ok: false, why: "changed", code: "ELOOP" });
  });

  it("device and inode: a parent folder swapped for a link to an outside folder holding the same name", () => {
    // O_NOFOLLOW guards only the last part of the path; no descriptor name, so dev+ino alone decides.
    const result = read(
      swappingBeforeOpen(
        () => {
          renameSync(join(root, "sub"), join(workspace, "sub-moved"));
          symlinkSync(join(outside, "sub"), join(root, "sub"));
        },
        { descriptorPath: () => undefined },
      ),
    );
    expect(result).toStrictEqual({ ok: false, why: "changed" });
  });

  it("device and inode, without O_NOFOLLOW: the file swapped for a link to a secret opens, and is refused", () => {
    const result = read(swappingBeforeOpen(() => replaceWithLink(join(root, "sub", "a.md"), join(outside, "secret.md")), { noFollow: 0 }));
    expect(result).toStrictEqual({ ok: false, why: "changed" });
  });

  it.runIf(process.platform === "linux")("/proc/self/fd: a parent folder moved outside and linked back (the same inode) is refused by the open descriptor's name", () => {
    const result = read(
      swappingBeforeOpen(() => {
        renameSync(join(root, "sub"), join(outside, "moved"));
        symlinkSync(join(outside, "moved"), join(root, "sub"));
      }),
    );
    expect(result).toStrictEqual({ ok: false, why: "changed" });
  });

  it("without O_NOFOLLOW and without a descriptor name, dev+ino alone still refuses the swapped link", () => {
    const result = read(
      swappingBeforeOpen(() => replaceWithLink(join(root, "sub", "a.md"), join(outside, "secret.md")), { noFollow: 0, descriptorPath: () => undefined }),
    );
    expect(result).toStrictEqual({ ok: false, why: "changed" });
  });
});

describe("links to what is not served", () => {
  it.each([
    ["env.txt", ".env"],
    ["git-config.md", ".git/config"],
    ["notes.md", "sub/.secret.md"],
    ["vendored.md", "node_modules/pkg/README.md"],
    ["key.md", "id_rsa"],
  ])("%s -> %s is refused by readInside and resolveInside", async (link, target) => {
    await mkdir(join(root, target, ".."), { recursive: true });
    await writeFile(join(root, target), SECRET);
    await symlink(join(root, target), join(root, link));
    expect(readInside(root, link, 1 << 20)).toStrictEqual({ ok: false, why: "not-served" });
    expect(await resolveInside(root, link)).toBeNull();
  });

  it("still serves a link to a served file", async () => {
    await symlink(join(root, "sub", "a.md"), join(root, "alias.md"));
    expect(readInside(root, "alias.md", 1 << 20).ok).toBe(true);
    expect(await resolveInside(root, "alias.md")).toBe(join(root, "sub", "a.md"));
  });

  it.each([
    ["guides/brewing.md", true],
    ["a/b/c.TXT", true],
    ["README.markdown", true],
    [".env", false],
    [".git/config", false],
    ["docs/.secret.md", false],
    ["node_modules/pkg/README.md", false],
    ["a/vendor/b.md", false],
    ["keys/id_rsa", false],
    ["vendor.md", true], // a vendor name is a folder rule, not a file rule
  ])("isServedPath(%s) is %s", (relative, expected) => {
    expect(isServedPath(relative)).toBe(expected);
  });
});

describe("resolveInside and readInside share one resolution", () => {
  it("uses the seam's realpath for both", async () => {
    const seen: string[] = [];
    const fs: InsideFileSystem = { ...NODE_FILE_SYSTEM, realpath: (path) => (seen.push(path), NODE_FILE_SYSTEM.realpath(path)) };
    await resolveInside(root, "sub/a.md", fs);
    readInside(root, "sub/a.md", 1 << 20, fs);
    expect(seen).toStrictEqual([join(root, "sub", "a.md"), join(root, "sub", "a.md")]);
    await rename(join(root, "sub"), join(root, "gone"));
    expect(await resolveInside(root, "sub/a.md", fs)).toBeNull();
  });
});
