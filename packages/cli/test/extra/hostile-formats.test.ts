import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { readDocx } from "../../src/formats/docx.js";
import { docxOf, docxWithEmptyEntries, paragraph } from "../formats/_hostile-zips.js";

const LIMITS = { maxTextChars: 1 << 20, maxUnzippedBytes: 64 << 20 };

/**
 * Issue 41, finding 2: an 18 MB DOCX of 200,000 empty entries took 30 s of CPU (fflate's
 * streaming reader and mammoth's own unzip walked every entry, about 0.1 ms each). Its central
 * directory is now read once and only the parts mammoth reads are inflated. At 400,000 entries
 * the reader before the fix ran past npm test's 30 s time-out, kept here; the fix reads it in
 * about a second. Building the file takes seconds, hence this tier.
 */
describe("a DOCX of 400,000 empty entries", () => {
  it("is read by its central directory, the empty entries never inflated", { timeout: 30_000 }, async () => {
    const read = await readDocx(docxWithEmptyEntries("Among many empty entries", 400_000), LIMITS);
    expect(read.text).toBe("Among many empty entries");
  });
});

/**
 * Issue 41, finding 2: a 2.2 MB DOCX that unzips to 50 MB (under the 64 MiB cap) took the
 * process to 3.9 GB in mammoth. Its document part is now cut after the text cap: the built
 * bin's reader reads it within a 256 MB heap. Building the file takes seconds, hence this tier.
 */
describe("a DOCX that unzips to 50 MB", () => {
  it("is read by the built bin's reader within a 256 MB heap, its text cut at the cap", () => {
    const dist = fileURLToPath(new URL("../../dist/", import.meta.url));
    const chunk = readdirSync(dist).find((name) => /^docx-[\w-]+\.js$/.test(name)) ?? "docx-missing.js";
    const docx = docxOf(paragraph("Many words in one paragraph of a long document.").repeat(600_000));
    const program = `const { readDocx } = await import(${JSON.stringify(pathToFileURL(`${dist}${chunk}`).href)});
      const chunks = []; for await (const chunk of process.stdin) chunks.push(chunk);
      const read = await readDocx(new Uint8Array(Buffer.concat(chunks)), ${JSON.stringify(LIMITS)});
      process.stdout.write(JSON.stringify({ chars: read.text.length, truncated: read.truncated }));`;
    const child = spawnSync(process.execPath, ["--max-old-space-size=256", "--input-type=module", "-e", program], { input: docx, encoding: "utf8", maxBuffer: 1 << 20 });
    expect(child.stderr).toBe("");
    expect(JSON.parse(child.stdout)).toStrictEqual({ chars: LIMITS.maxTextChars, truncated: true });
  });
});
