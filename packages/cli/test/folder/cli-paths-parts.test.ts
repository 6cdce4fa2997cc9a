import { constants, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  cleanRelative,
  documentId,
  isServedPath,
  NODE_FILE_SYSTEM,
  parseId,
  parseResourceUri,
  readInside,
  relativeMessage,
  resolveInside,
  resourceUri,
  VENDOR_FOLDERS,
  type InsideFileSystem,
} from "../../src/folder/paths.js";

/**
 * The containment check and the lexical clean-up of ../../src/folder/paths.ts, each decision on
 * its own and at its boundary, in process. ./cli-containment-seam.test.ts shows the after-open
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

describe("cleanRelative", () => {
  it.each([
    ["a/b.md", "separator", "a/b.md"],
    [".", "separator", null],
    ["a/..", "separator", null],
    ["a/../..", "separator", null],
    ["z:b.md", "separator", null],
    ["A:/b.md", "separator", null],
    ["1:b.md", "separator", "1:b.md"],
    ["ab:c.md", "separator", "ab:c.md"],
    ["a/C:b.md", "separator", "a/C:b.md"],
    ["a\\b.md", "literal", "a\\b.md"],
    ["C:\\b.md", "literal", "C:\\b.md"],
    ["a/\0", "literal", null],
  ] as const)("cleanRelative(%j, %j) is %j", (path, backslashes, expected) => {
    expect(cleanRelative(path, backslashes)).toBe(expected);
  });
});

describe("parseId", () => {
  const address = { root: "/srv/docs" };
  it.each([
    ["  doc:a.md  ", { ok: true, relative: "a.md", page: 1 }],
    ["doc:a.md#0", { ok: true, relative: "a.md", page: 1 }],
    ["doc:a.md#123456789", { ok: true, relative: "a.md", page: 123456789 }],
    ["doc:a.md#1234567890", { ok: true, relative: "a.md#1234567890", page: 1 }],
    ["doc:a.md#2x", { ok: true, relative: "a.md#2x", page: 1 }],
    ["doc:a.md#x2", { ok: true, relative: "a.md#x2", page: 1 }],
    ["doc:a#2/b.md", { ok: true, relative: "a#2/b.md", page: 1 }],
    ["a/b.md#4", { ok: true, relative: "a/b.md", page: 4 }],
    ["doc:..", { ok: false, why: "outside" }],
    ["doc:./..", { ok: false, why: "outside" }],
    ["doc:.", { ok: false, why: "empty" }],
    ["doc:/", { ok: false, why: "empty" }],
    ["doc:.\\", { ok: false, why: "empty" }],
    ["file://host/srv/docs/a.md", { ok: false, why: "invalid" }],
    ["file:///srv", { ok: false, why: "outside" }],
    ["file:///srv/docs-other/a.md", { ok: false, why: "outside" }],
    ["file:///srv/docs", { ok: false, why: "empty" }],
  ])("parseId(%j)", (input, expected) => {
    expect(parseId(input, address)).toStrictEqual(expected);
  });

  it.each([
    ["https://xwww.y.org/d/a.md", "https://xy.org/d/", { ok: true, relative: "https:/xwww.y.org/d/a.md", page: 1 }],
    ["https://www.x.org/d/a.md", "https://x.org/d/", { ok: true, relative: "a.md", page: 1 }],
    ["https://wwwxorg.example/d/a.md", "https://org.example/d/", { ok: true, relative: "https:/wwwxorg.example/d/a.md", page: 1 }],
    ["ftp://x.org/d/a.md", "https://x.org/d/", { ok: true, relative: "ftp:/x.org/d/a.md", page: 1 }],
    ["https://x.org/d/a.md", "ftp://x.org/d/", { ok: true, relative: "https:/x.org/d/a.md", page: 1 }],
    ["https://x.org/da.md", "https://x.org/d/", { ok: false, why: "outside" }],
  ])("parseId(%j) under --base-url %j", (input, baseUrl, expected) => {
    expect(parseId(input, { root: "/srv/docs", baseUrl })).toStrictEqual(expected);
  });

  it.skipIf(sep === "\\")("reads backslashes as separators unless the indexed path holds them", () => {
    expect(parseId("doc:a\\b.md", address, new Set(["a\\b.md"]))).toStrictEqual({ ok: true, relative: "a\\b.md", page: 1 });
    expect(parseId("doc:a\\b.md", address, new Set(["a/b.md"]))).toStrictEqual({ ok: true, relative: "a/b.md", page: 1 });
    expect(parseId("doc:a\\b.md", address)).toStrictEqual({ ok: true, relative: "a/b.md", page: 1 });
  });
});

describe("documentId and resource uris", () => {
  it.each([
    ["a.md", 1, "doc:a.md"],
    ["a.md", 2, "doc:a.md#2"],
    ["a.md", 0, "doc:a.md"],
  ])("documentId(%j, %j) is %j", (relative, page, expected) => {
    expect(documentId(relative, page)).toBe(expected);
  });

  it("numbers page 1 by default", () => {
    expect(documentId("a.md")).toBe("doc:a.md");
  });

  it("encodes each segment of a resource uri", () => {
    expect(resourceUri("guias/café com leite#1.md")).toBe("mcp-search://doc/guias/caf%C3%A9%20com%20leite%231.md");
  });

  it.each([
    ["mcp-search://doc/a/b%20c.md", { ok: true, relative: "a/b c.md" }],
    ["MCP-SEARCH://Doc/a.md", { ok: true, relative: "a.md" }],
    ["mcp-search://doc//a.md", { ok: true, relative: "a.md" }],
    ["mcp-search://doc/a%2Fb.md", { ok: true, relative: "a/b.md" }],
    ["mcp-search://doc/..%2F..%2Fetc%2Fpasswd", { ok: false, why: "outside" }],
    ["mcp-search://doc/%2e%2e/x.md", { ok: false, why: "outside" }],
    ["mcp-search://doc/a.md?x=1", { ok: false, why: "invalid" }],
    ["mcp-search://doc/a.md#2", { ok: false, why: "invalid" }],
    ["mcp-search://doc/%ZZ.md", { ok: false, why: "invalid" }],
    ["mcp-search://doc/a%00.md", { ok: false, why: "nul" }],
    ["mcp-search://doc/a\0.md", { ok: false, why: "nul" }],
    ["mcp-search://doc/", { ok: false, why: "empty" }],
    ["mcp-search://docs/a.md", { ok: false, why: "scheme" }],
    ["file:///etc/passwd", { ok: false, why: "scheme" }],
    ["x-mcp-search://doc/a.md", { ok: false, why: "scheme" }],
  ])("parseResourceUri(%j)", (uri, expected) => {
    expect(parseResourceUri(uri)).toStrictEqual(expected);
  });

  it.skipIf(sep === "\\")("keeps a backslash in a name the index holds", () => {
    expect(parseResourceUri("mcp-search://doc/a%5Cb.md", new Set(["a\\b.md"]))).toStrictEqual({ ok: true, relative: "a\\b.md" });
    expect(parseResourceUri("mcp-search://doc/a%5Cb.md")).toStrictEqual({ ok: true, relative: "a/b.md" });
  });
});
