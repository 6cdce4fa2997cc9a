import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { readDocx } from "../../src/formats/docx.js";
import { docxOf, docxWithEmptyEntries, odtOf, paragraph } from "../formats/_hostile-zips.js";

const LIMITS = { maxTextChars: 1 << 20, maxUnzippedBytes: 64 << 20 };
const DIST = fileURLToPath(new URL("../../dist/", import.meta.url));
/** The built chunk whose name starts with `name-`. */
const builtChunk = (name: string) => `${DIST}${readdirSync(DIST).find((file) => new RegExp(`^${name}-[\\w-]+\\.js$`).test(file)) ?? `${name}-missing.js`}`;

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
    const docx = docxOf(paragraph("Many words in one paragraph of a long document.").repeat(600_000));
    const program = `const { readDocx } = await import(${JSON.stringify(pathToFileURL(builtChunk("docx")).href)});
      const chunks = []; for await (const chunk of process.stdin) chunks.push(chunk);
      const read = await readDocx(new Uint8Array(Buffer.concat(chunks)), ${JSON.stringify(LIMITS)});
      process.stdout.write(JSON.stringify({ chars: read.text.length, truncated: read.truncated }));`;
    const child = spawnSync(process.execPath, ["--max-old-space-size=256", "--input-type=module", "-e", program], { input: docx, encoding: "utf8", maxBuffer: 1 << 20 });
    expect(child.stderr).toBe("");
    expect(JSON.parse(child.stdout)).toStrictEqual({ chars: LIMITS.maxTextChars, truncated: true });
  });
});

/**
 * Issue 41, finding 2: a 126 kB ODT of lists nested 600,000 deep took the reader to 1.2 GB. Lists
 * deeper than 32 keep their paragraphs without the nesting, and the conversion stops past the
 * text cap. A child process with a small heap proves it; it takes seconds, hence this tier.
 */
describe("an ODT of nested lists", () => {
  it("reads an ODT of lists nested 600,000 deep (a 126 kB file) in the built bin's reader within a 192 MB heap", () => {
    // The reader before the fix took 1.2 GB for it: this heap cannot hold that.
    const odt = odtOf(`${"<text:list><text:list-item><text:p>item</text:p>".repeat(600_000)}${"</text:list-item></text:list>".repeat(600_000)}`);
    const program = `const { readOdt } = await import(${JSON.stringify(pathToFileURL(builtChunk("odt")).href)});
      const chunks = []; for await (const chunk of process.stdin) chunks.push(chunk);
      const read = await readOdt(new Uint8Array(Buffer.concat(chunks)), ${JSON.stringify(LIMITS)});
      process.stdout.write(JSON.stringify({ chars: read.text.length, truncated: read.truncated }));`;
    const child = spawnSync(process.execPath, ["--max-old-space-size=192", "--input-type=module", "-e", program], { input: odt, encoding: "utf8" });
    expect(child.stderr).toBe("");
    expect(JSON.parse(child.stdout)).toStrictEqual({ chars: LIMITS.maxTextChars, truncated: true });
  });
});
