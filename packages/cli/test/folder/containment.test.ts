import { constants, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  isServedPath,
  NODE_FILE_SYSTEM,
  readInside,
  relativeMessage,
  resolveInside,
  statInside,
  VENDOR_FOLDERS,
  type InsideFileSystem,
} from "../../src/folder/containment.js";

/**
 * The containment check of ../../src/folder/containment.ts, each decision on its own and at its
 * boundary, in process (the lexical clean-up of ids is ./ids.test.ts's). ./cli-containment-seam.test.ts shows the after-open
 * checks stopping real swaps; these cases fake one stat at a time through the same seam.
 */

let root: string;
beforeEach(() => {
  root = join(realpathSync(mkdtempSync(join(tmpdir(), "mcp-search-paths-parts-"))), "docs");
  mkdirSync(join(root, "sub"), { recursive: true });
  writeFileSync(join(root, "sub", "a.md"), "0123456789");
});
afterEach(() => {
  rmSync(join(root, ".."), { recursive: true, force: true });
});

describe("isServedPath: the hidden and vendor rules", () => {
  // Written out rather than read from VENDOR_FOLDERS, so that a name dropped from the set shows.
  const vendor = [
    "node_modules", "bower_components", "jspm_packages", "vendor", "dist", "build", "out", "target",
    "coverage", "venv", "env", "__pycache__", "site-packages", "_build", "__MACOSX",
  ];

  it("lists exactly the documented vendor folders", () => {
    expect([...VENDOR_FOLDERS]).toStrictEqual(vendor);
  });

  it.each(vendor)("serves nothing under %s/, at any depth", (name) => {
    expect(isServedPath(`${name}/a.md`)).toBe(false);
    expect(isServedPath(`docs/${name}/deep/a.md`)).toBe(false);
    expect(isServedPath(`docs/${name}.md`)).toBe(true);
  });

  it.each([
    [".a.md", false],
    ["docs/.a.md", false],
    [".hidden/a.md", false],
    ["a/.hidden/b.md", false],
    ["a.b/c.md", true],
    ["a/b.MD", true],
    ["a/b.Md", true],
    ["a/b", false],
    ["a/b.exe", false],
    ["", false],
  ])("isServedPath(%j) is %j", (relative, expected) => {
    expect(isServedPath(relative)).toBe(expected);
  });

  it.skipIf(sep === "\\")("reads a backslash as a character of a name where it is one", () => {
    expect(isServedPath("docs\\.hidden.md")).toBe(true);
    expect(isServedPath("node_modules\\a.md")).toBe(true);
  });
});

/** The real file system with `overrides`, counting the descriptors it closed. */
function faked(overrides: Partial<InsideFileSystem> = {}): InsideFileSystem & { closed: number[] } {
  const closed: number[] = [];
  return {
    ...NODE_FILE_SYSTEM,
    ...overrides,
    close(fd) {
      closed.push(fd);
      NODE_FILE_SYSTEM.close(fd);
    },
    closed,
  };
}

/** A file-system error with a code, as Node throws them. */
function errno(code: string): Error {
  return Object.assign(new Error(`${code}: failed`), { code });
}

describe("readInside", () => {
  it("reads a served file with the stat of the very file read, and closes it once", () => {
    const fs = faked();
    const read = readInside(root, "sub/a.md", 1 << 20, fs);
    const stat = NODE_FILE_SYSTEM.lstat(join(root, "sub", "a.md")) as ReturnType<InsideFileSystem["fstat"]>;
    expect(read).toStrictEqual({ ok: true, bytes: Buffer.from("0123456789"), modified: stat.mtimeMs, size: 10 });
    expect(fs.closed).toHaveLength(1);
  });

  it("reads a file of exactly the cap, and refuses one byte over it", () => {
    expect(readInside(root, "sub/a.md", 10)).toMatchObject({ ok: true, size: 10 });
    const fs = faked();
    expect(readInside(root, "sub/a.md", 9, fs)).toStrictEqual({ ok: false, why: "too-large" });
    expect(fs.closed).toHaveLength(1);
  });

  it("refuses a NUL byte as outside, before the disk", () => {
    expect(readInside(root, "sub/a\0.md", 1 << 20)).toStrictEqual({ ok: false, why: "outside" });
  });

  it.each([
    ["..", "outside"],
    ["../docs-other.md", "outside"],
    [".", "not-served"],
    ["sub", "not-served"],
  ])("refuses %j as %j", (relative, why) => {
    writeFileSync(join(root, "..", "docs-other.md"), "outside");
    expect(readInside(root, relative, 1 << 20)).toStrictEqual({ ok: false, why });
  });

  it("refuses a folder with a served name as not a file", () => {
    mkdirSync(join(root, "folder.md"));
    expect(readInside(root, "folder.md", 1 << 20)).toStrictEqual({ ok: false, why: "not-file" });
  });

  it("says a missing file, or a path through a file, is missing", () => {
    expect(readInside(root, "sub/none.md", 1 << 20)).toStrictEqual({ ok: false, why: "missing", code: "ENOENT" });
    expect(readInside(root, "sub/a.md/b.md", 1 << 20)).toStrictEqual({ ok: false, why: "missing", code: "ENOTDIR" });
  });

  it.each([
    ["ELOOP", { ok: false, why: "changed", code: "ELOOP" }],
    ["EACCES", { ok: false, why: "unreadable", code: "EACCES" }],
    ["ENOENT", { ok: false, why: "missing", code: "ENOENT" }],
  ])("turns an open that fails with %s into a refusal", (code, expected) => {
    const fs = faked({
      open: () => {
        throw errno(code);
      },
    });
    expect(readInside(root, "sub/a.md", 1 << 20, fs)).toStrictEqual(expected);
    expect(fs.closed).toHaveLength(0);
  });

  it("turns an error without a code into an unreadable file", () => {
    const fs = faked({
      realpath: () => {
        throw new Error("no code");
      },
    });
    expect(readInside(root, "sub/a.md", 1 << 20, fs)).toStrictEqual({ ok: false, why: "unreadable", code: "" });
  });

  it("opens read-only, without waiting and without following a last link", () => {
    const flags: number[] = [];
    readInside(root, "sub/a.md", 1 << 20, faked({ open: (path, flag) => (flags.push(flag), NODE_FILE_SYSTEM.open(path, flag)) }));
    expect(flags).toStrictEqual([constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0)]);
  });

  /** The real fstat of a descriptor, with `change` applied. */
  const fstatWith = (change: (info: ReturnType<InsideFileSystem["fstat"]>) => Partial<ReturnType<InsideFileSystem["fstat"]>>) => (fd: number) => {
    const info = NODE_FILE_SYSTEM.fstat(fd);
    return { dev: info.dev, ino: info.ino, size: info.size, mtimeMs: info.mtimeMs, isFile: () => info.isFile(), ...change(info) };
  };

  it.each([
    ["another device", (info: { dev: number }) => ({ dev: info.dev + 1 })],
    ["another inode", (info: { ino: number }) => ({ ino: info.ino + 1 })],
    ["something not a file", () => ({ isFile: () => false })],
  ])("refuses a descriptor that names %s than the checked path, and closes it", (_kind, change) => {
    const fs = faked({ fstat: fstatWith(change) });
    expect(readInside(root, "sub/a.md", 1 << 20, fs)).toStrictEqual({ ok: false, why: "changed" });
    expect(fs.closed).toHaveLength(1);
  });

  it("refuses a descriptor whose name is outside the root, deleted or not", () => {
    expect(readInside(root, "sub/a.md", 1 << 20, faked({ descriptorPath: () => "/etc/passwd" }))).toStrictEqual({ ok: false, why: "changed" });
    expect(readInside(root, "sub/a.md", 1 << 20, faked({ descriptorPath: () => "/etc/passwd (deleted)" }))).toStrictEqual({ ok: false, why: "changed" });
    expect(readInside(root, "sub/a.md", 1 << 20, faked({ descriptorPath: () => `${root}-other/a.md` }))).toStrictEqual({ ok: false, why: "changed" });
    expect(readInside(root, "sub/a.md", 1 << 20, faked({ descriptorPath: () => `${join(root, "sub", "a.md")} (deleted)` }))).toMatchObject({ ok: true });
    expect(readInside(root, "sub/a.md", 1 << 20, faked({ descriptorPath: () => undefined }))).toMatchObject({ ok: true });
  });

  it.runIf(process.platform === "linux")("names an open descriptor by /proc/self/fd on Linux", () => {
    const fd = NODE_FILE_SYSTEM.open(join(root, "sub", "a.md"), 0);
    try {
      expect(NODE_FILE_SYSTEM.descriptorPath(fd)).toBe(join(root, "sub", "a.md"));
    } finally {
      NODE_FILE_SYSTEM.close(fd);
    }
    expect(NODE_FILE_SYSTEM.descriptorPath(1 << 30)).toBeUndefined();
  });

  it.runIf(process.platform === "linux")("closes every file it opens, read or refused", () => {
    readInside(root, "sub/a.md", 1 << 20);
    readInside(root, "sub/a.md", 1);
    // No descriptor of this process names the file any more (another file's may reuse a number).
    const named = readdirSync("/proc/self/fd").map((fd) => NODE_FILE_SYSTEM.descriptorPath(Number(fd)));
    expect(named).not.toContain(join(root, "sub", "a.md"));
  });

  it("keeps what it read of a file that shrank since its stat", () => {
    let calls = 0;
    const fs = faked({ read: (fd, buffer, offset, _length, position) => (calls++ === 0 ? NODE_FILE_SYSTEM.read(fd, buffer, offset, 4, position) : 0) });
    const read = readInside(root, "sub/a.md", 1 << 20, fs);
    expect(read.ok && read.bytes.toString()).toBe("0123");
    expect(read).toMatchObject({ size: 10 });
    expect(calls).toBe(2);
  });

  it("reads on until every byte is in, in as many reads as it takes", () => {
    const lengths: number[] = [];
    const fs = faked({ read: (fd, buffer, offset, length, position) => (lengths.push(length), NODE_FILE_SYSTEM.read(fd, buffer, offset, Math.min(length, 3), position)) });
    const read = readInside(root, "sub/a.md", 1 << 20, fs);
    expect(read.ok && read.bytes.toString()).toBe("0123456789");
    expect(lengths).toStrictEqual([10, 7, 4, 1]);
  });

  it("refuses a read that throws, and still closes the file", () => {
    const fs = faked({
      read: () => {
        throw errno("EIO");
      },
    });
    expect(readInside(root, "sub/a.md", 1 << 20, fs)).toStrictEqual({ ok: false, why: "unreadable", code: "EIO" });
    expect(fs.closed).toHaveLength(1);
  });
});

describe("statInside", () => {
  it("gives the size and time of the very file checked, reads not one byte of it, and closes it once", () => {
    let reads = 0;
    const fs = faked({ read: (...args) => (reads++, NODE_FILE_SYSTEM.read(...args)) });
    const stat = NODE_FILE_SYSTEM.lstat(join(root, "sub", "a.md")) as ReturnType<InsideFileSystem["fstat"]>;
    expect(statInside(root, "sub/a.md", 1 << 20, fs)).toStrictEqual({ ok: true, modified: stat.mtimeMs, size: 10 });
    expect(reads).toBe(0);
    expect(fs.closed).toHaveLength(1);
  });

  it.each([
    ["..", 1 << 20, { ok: false, why: "outside" }],
    ["sub", 1 << 20, { ok: false, why: "not-served" }],
    ["sub/none.md", 1 << 20, { ok: false, why: "missing", code: "ENOENT" }],
    ["sub/a.md", 9, { ok: false, why: "too-large" }],
    ["sub/a\0.md", 1 << 20, { ok: false, why: "outside" }],
  ])("refuses %j (cap %j) as readInside does: %j", (relative, max, refusal) => {
    expect(statInside(root, relative, max)).toStrictEqual(refusal);
    expect(readInside(root, relative, max)).toStrictEqual(refusal);
  });

  it("refuses a descriptor that names another inode than the checked path, as readInside does", () => {
    const fs = faked({ fstat: (fd) => ({ ...NODE_FILE_SYSTEM.fstat(fd), ino: -1 }) });
    expect(statInside(root, "sub/a.md", 1 << 20, fs)).toStrictEqual({ ok: false, why: "changed" });
    expect(fs.closed).toHaveLength(1);
  });
});

describe("resolveInside", () => {
  it("gives the real path of a served file, and null for the rest", async () => {
    expect(await resolveInside(root, "sub/a.md")).toBe(join(root, "sub", "a.md"));
    expect(await resolveInside(root, "sub/a\0.md")).toBeNull();
    expect(await resolveInside(root, "..")).toBeNull();
    expect(await resolveInside(root, "sub")).toBeNull();
    expect(await resolveInside(root, "sub/none.md")).toBeNull();
  });

  it("refuses a NUL byte before the disk", async () => {
    const seen: string[] = [];
    await resolveInside(root, "a\0.md", faked({ realpath: (path) => (seen.push(path), path) }));
    expect(seen).toStrictEqual([]);
  });
});

describe("relativeMessage", () => {
  it.each([
    ["/srv/docs", "EACCES: scandir '/srv/docs/private' and '/srv/docs/x'", "EACCES: scandir './private' and './x'"],
    ["/", "EACCES: scandir '/private'", "EACCES: scandir '/private'"],
  ])("relativeMessage(%j, %j) => %j", (at, message, expected) => {
    expect(relativeMessage(at, message)).toBe(expected);
  });
});
