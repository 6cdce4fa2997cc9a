/**
 * The one way the `--cache` folder's files are read and written (src/folder/cache-file.ts), at its
 * edges: the size cap, a write that fails, and a folder others could write.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkPrivateFolder, readCacheFile, writeCacheFile } from "../../src/folder/cache-file.js";

const root = mkdtempSync(join(tmpdir(), "mcp-search-cache-file-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("readCacheFile", () => {
  it("reads a file of exactly the cap, and refuses one byte more, naming both sizes", () => {
    const path = join(root, "ten.bin");
    writeFileSync(path, "0123456789");
    expect(readCacheFile(path, 10).toString()).toBe("0123456789");
    expect(() => readCacheFile(path, 9)).toThrow("it is 10 bytes, over the 9-byte cap");
  });

  it("reads an empty file as no bytes", () => {
    const path = join(root, "empty.bin");
    writeFileSync(path, "");
    expect(readCacheFile(path, 10)).toHaveLength(0);
  });
});

describe("writeCacheFile", () => {
  it("writes every part, replacing the old file", () => {
    const path = join(root, "parts.bin");
    writeFileSync(path, "old");
    writeCacheFile(path, [Buffer.from("a"), Buffer.from("bc")]);
    expect(readCacheFile(path, 10).toString()).toBe("abc");
  });

  it("leaves no temporary file behind when the rename fails, and throws", () => {
    const dir = join(root, "blocked");
    mkdirSync(join(dir, "target", "inside"), { recursive: true });
    expect(() => writeCacheFile(join(dir, "target"), [Buffer.from("x")])).toThrow();
    expect(readdirSync(dir)).toStrictEqual(["target"]);
  });
});

describe("checkPrivateFolder", () => {
  it("creates a missing folder with mode 700", () => {
    const dir = join(root, "new", "deeper");
    checkPrivateFolder(dir, "--cache", "its snapshot");
    expect(existsSync(dir)).toBe(true);
  });

  it.each([
    [0o770, "its group", "770"],
    [0o707, "others", "707"],
  ])("refuses a folder of mode %o, naming who could write it", (mode, who, written) => {
    const dir = join(root, `mode-${written}`);
    mkdirSync(dir);
    chmodSync(dir, mode);
    expect(() => checkPrivateFolder(dir, "--state", "a grant")).toThrow(`--state ${dir} is writable by ${who} (mode ${written}), who could forge a grant: run chmod 700 on it, or use a folder of your own.`);
  });
});
