/**
 * The document formats (issue 33) on real files: manual pages rendered to PDF by groff
 * (`man -Tpdf`, Debian's groff and manpages) and a DOCX made by pandoc from the same text.
 * Printed as a table:
 * - pages per second and peak resident memory of PDF extraction (unpdf, in this thread and in the
 *   served bin's worker) and DOCX extraction (mammoth), each file in a fresh child for the memory;
 * - the longest event-loop stall of the served bin while it reads a 522-page PDF, and then a DOCX,
 *   and the slowest search answer sent every 50 ms meanwhile: the measure that put the readers in
 *   a worker thread;
 * - the time to the first search answer and to the full index on a folder of 200 PDFs;
 * - the restart time to a complete answer with `--cache` (snapshot and extracted texts);
 * - the hostile files of issue 41, built in memory (no groff or pandoc needed): the peak resident
 *   memory of a process whose formats worker reads the worst of them, and the served bin's
 *   longest event-loop stall while it reads them all beside a note.
 *
 * Needs groff and pandoc (`apt-get install groff pandoc qpdf`) and a build first (any test run).
 * Run: `npx vitest bench --run packages/cli/bench/formats.bench.ts`.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, bench, describe } from "vitest";
import { readDocx } from "../src/formats/docx.js";
import { readPdf } from "../src/formats/pdf.js";
import { StdioBin } from "../test/_cli-spawn.js";
import { docxOf, docxWithEmptyEntries, epubOf, odtOf, paragraph } from "../test/formats/_hostile-zips.js";

const STALL_MONITOR = fileURLToPath(new URL("./_stall-monitor.mjs", import.meta.url));
const PAGES = ["ls", "grep", "tar", "find", "sed", "cp", "chmod", "ssh", "curl", "less", "ps", "diff", "sort", "xargs", "gzip", "dd", "du", "date", "make", "man"];
const LIMITS = { maxTextChars: 16 * 1024 * 1024, maxUnzippedBytes: 64 * 1024 * 1024 };
const FOLDER_PDFS = 200;

const work = mkdtempSync(join(tmpdir(), "mcp-search-formats-bench-"));
const has = (command: string) => spawnSync("sh", ["-c", `command -v ${command}`]).status === 0;
const ready = has("groff") && has("pandoc") && has("qpdf") && spawnSync("sh", ["-c", "man -Tpdf ls > /dev/null"]).status === 0;

function render(page: string): string {
  const file = join(work, `${page}.pdf`);
  writeFileSync(file, execFileSync("man", ["-Tpdf", page], { maxBuffer: 64 * 1024 * 1024 }));
  return file;
}

/** Peak resident memory (MB) of a fresh Node child that runs `code` (an ES module body). */
function peakRssMb(code: string): number {
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", `${code}\nprocess.stdout.write(String(process.resourceUsage().maxRSS / 1024));`], { cwd: fileURLToPath(new URL("..", import.meta.url)) });
  return Number(out.toString());
}

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await run();
  return [value, performance.now() - started];
}

/**
 * Serves a folder of `file` and a short note with the built bin, under the stall monitor, and
 * searches every 50 ms until the file is indexed: the longest event-loop stall and the slowest
 * search meanwhile.
 */
async function servedStall(file: string): Promise<string> {
  const folder = mkdtempSync(join(work, "served-"));
  copyFileSync(file, join(folder, basename(file)));
  writeFileSync(join(folder, "note.md"), "# Note\n\nA note beside the long manual.\n");
  const stallFile = join(folder, "..", `${basename(folder)}.stall.json`);
  const served = new StdioBin(["serve", folder, "--locale", "en", "--max-file-bytes", String(16 * 1024 * 1024)], {
    env: { ...process.env, NODE_OPTIONS: `--import=${pathToFileURL(STALL_MONITOR).href}`, MCP_SEARCH_STALL_FILE: stallFile },
  });
  await served.open();
  let slowest = 0;
  let answered = 0;
  while (!served.indexed()) {
    const [, took] = await timed(() => served.search("note"));
    slowest = Math.max(slowest, took);
    answered += 1;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const stall = (JSON.parse(readFileSync(stallFile, "utf8")) as { maxMs: number }).maxMs;
  served.close();
  return `indexed in ${ms(performance.now() - served.started)}; longest event-loop stall ${ms(stall)}; slowest of ${answered} searches ${ms(slowest)}`;
}

const rows: [string, string][] = [];
/** Progress on stderr: the set-up takes minutes. */
const progress = (line: string) => process.stderr.write(`formats bench: ${line}\n`);
const ms = (value: number) => `${Math.round(value)} ms`;

let bash = "";
let bashPages = 0;
let docx = "";

beforeAll(async () => {
  await measureHostile();
  if (!ready) return;
  progress("rendering the manual pages with groff");
  const files = PAGES.map(render);
  bash = render("bash");
  // The bash(1) page as a DOCX, made by pandoc from its text.
  const text = execFileSync("sh", ["-c", "man bash | col -b"], { maxBuffer: 64 * 1024 * 1024 }).toString();
  writeFileSync(join(work, "bash.md"), `# bash\n\n${text.split("\n\n").map((block) => block.trim()).filter(Boolean).join("\n\n")}\n`);
  docx = join(work, "bash.docx");
  // CommonMark: pandoc's own Markdown reader takes gigabytes on the manual's stars and brackets.
  execFileSync("pandoc", ["-f", "commonmark", join(work, "bash.md"), "-o", docx]);

  progress("extracting in this thread");
  // Speed in this thread (the fallback path) and in the worker (the served bin, below).
  const [pdf, pdfMs] = await timed(() => readPdf(new Uint8Array(readFileSync(bash)), LIMITS, 600_000));
  bashPages = pdf.pages?.length ?? 0;
  rows.push(["PDF, bash(1), in this thread", `${bashPages} pages in ${ms(pdfMs)}: ${Math.round(bashPages / (pdfMs / 1000))} pages/s`]);
  let pages = 0;
  const [, allMs] = await timed(async () => {
    for (const file of files) pages += (await readPdf(new Uint8Array(readFileSync(file)), LIMITS, 600_000)).pages?.length ?? 0;
  });
  rows.push([`PDF, ${files.length} manual pages`, `${pages} pages in ${ms(allMs)}: ${Math.round(pages / (allMs / 1000))} pages/s`]);
  const [word, docxMs] = await timed(() => readDocx(new Uint8Array(readFileSync(docx)), LIMITS));
  rows.push(["DOCX, bash(1) by pandoc", `${Math.round(word.text.length / 1024)} KB of text in ${ms(docxMs)} (the PDF: ${bashPages} pages)`]);
  const baseline = peakRssMb("");
  const pdfPeak = peakRssMb(`const { getDocumentProxy } = await import("unpdf"); const { readFileSync } = await import("node:fs"); const pdf = await getDocumentProxy(new Uint8Array(readFileSync(${JSON.stringify(bash)}))); for (let n = 1; n <= pdf.numPages; n++) await (await pdf.getPage(n)).getTextContent();`);
  const docxPeak = peakRssMb(`const { default: mammoth } = await import("mammoth"); const { readFileSync } = await import("node:fs"); await mammoth.convertToHtml({ buffer: readFileSync(${JSON.stringify(docx)}) });`);
  rows.push(["peak RSS, bare Node", `${Math.round(baseline)} MB`]);
  rows.push(["peak RSS, unpdf on bash(1)", `${Math.round(pdfPeak)} MB (+${Math.round(pdfPeak - baseline)} MB)`]);
  rows.push(["peak RSS, mammoth on bash.docx", `${Math.round(docxPeak)} MB (+${Math.round(docxPeak - baseline)} MB)`]);

  progress("a 522-page PDF in the served bin");
  // A 522-page PDF (bash(1) six times over), and the DOCX alone: searches every 50 ms while the
  // server reads it, in its formats worker.
  const long = join(work, "long", "long.pdf");
  mkdirSync(join(work, "long"));
  execFileSync("qpdf", ["--empty", "--pages", ...Array.from({ length: 6 }, () => bash), "--", long]);
  rows.push(["522-page PDF in the served bin", await servedStall(long)]);
  progress("the DOCX in the served bin");
  rows.push(["bash.docx in the served bin", await servedStall(docx)]);

  progress(`a folder of ${FOLDER_PDFS} PDFs`);
  // A folder of 200 PDFs: the manual pages, copied under distinct names.
  const folder = join(work, "pdfs");
  mkdirSync(folder);
  for (let n = 0; n < FOLDER_PDFS; n += 1) copyFileSync(files[n % files.length] as string, join(folder, `${String(n).padStart(3, "0")}-${PAGES[n % PAGES.length]}.pdf`));
  const cache = join(work, "cache");
  mkdirSync(cache, { mode: 0o700 });
  const cold = new StdioBin(["serve", folder, "--locale", "en", "--cache", cache]);
  await cold.open();
  await cold.search("directory");
  const firstAnswer = performance.now() - cold.started;
  await cold.untilIndexed();
  const fullIndex = performance.now() - cold.started;
  // The snapshot is written once the compaction is done.
  while (!cold.stderr.some((line) => line.includes("snapshot"))) await new Promise((resolve) => setTimeout(resolve, 100));
  cold.close();
  rows.push([`${FOLDER_PDFS} PDFs, cold`, `first search answered at ${ms(firstAnswer)}, full index at ${ms(fullIndex)}`]);
  const warm = new StdioBin(["serve", folder, "--locale", "en", "--cache", cache]);
  await warm.open();
  await warm.untilIndexed();
  const found = await warm.search("directory");
  const restart = performance.now() - warm.started;
  warm.close();
  rows.push([`${FOLDER_PDFS} PDFs, restart with --cache`, `complete answer (${found.results.length} results) at ${ms(restart)}`]);
  console.log(`\nformats bench (this machine)\n${rows.map(([what, value]) => `  ${what.padEnd(38)} ${value}`).join("\n")}\n`);
}, 900_000);

/** The hostile files of issue 41, by name: each the smallest that reproduced one finding. */
function hostileFiles(): Record<string, Uint8Array> {
  const chapter = `<html><body>${"<p>A chapter of two megabytes, listed again and again.</p>".repeat(36_000)}</body></html>`;
  return {
    // A DOCX that unzips to about 50 MB of paragraphs (under the 64 MiB cap).
    "large.docx": docxOf(paragraph("Many words in one paragraph of a long document.").repeat(600_000)),
    "nested-lists.odt": odtOf(`${"<text:list><text:list-item><text:p>item</text:p>".repeat(600_000)}${"</text:list-item></text:list>".repeat(600_000)}`),
    "unclosed-headings.odt": odtOf(`<text:p>Before</text:p>${"<text:h>x".repeat(200_000)}`),
    "spine-60000.epub": epubOf({ "one.xhtml": chapter }, Array.from({ length: 60_000 }, () => "c0")),
    "empty-entries.docx": docxWithEmptyEntries("Among many empty entries", 200_000),
  };
}

/**
 * The hostile files through the built bin's formats worker, one fresh process each: the peak
 * resident memory of the process (the worker's thread included) and how each ended.
 */
function hostilePeaks(folder: string): [string, string][] {
  const dist = fileURLToPath(new URL("../dist/", import.meta.url));
  const chunk = readdirSync(dist).find((name) => /^extract-[\w-]+\.js$/.test(name));
  const baseline = peakRssMb("");
  return readdirSync(folder).filter((name) => name !== "note.md").map((name) => {
    const format = name.split(".").pop() as string;
    const program = `const { readBinary } = await import(${JSON.stringify(pathToFileURL(join(dist, chunk as string)).href)}); const { readFileSync } = await import("node:fs");
      const started = performance.now(); let how;
      try { const read = await readBinary(${JSON.stringify(format)}, new Uint8Array(readFileSync(${JSON.stringify(join(folder, name))})), ${JSON.stringify({ maxTextChars: 1 << 20, maxUnzippedBytes: 64 << 20 })}, 30000); how = read.text.length + " characters"; } catch (error) { how = error.message; }
      console.error(how + " in " + Math.round(performance.now() - started) + " ms");`;
    // A file, not --input-type: the worker inherits the process's flags, and refuses that one.
    const script = join(work, `${name}.mjs`);
    writeFileSync(script, `${program}\nprocess.stdout.write(String(process.resourceUsage().maxRSS / 1024));`);
    const child = spawnSync(process.execPath, [script], { encoding: "utf8" });
    return [`peak RSS, worker reads ${name}`, `${Math.round(Number(child.stdout))} MB (+${Math.round(Number(child.stdout) - baseline)} MB): ${child.stderr.trim()}`] as [string, string];
  });
}

/** The hostile files of issue 41 in the built bin's worker, then in the served bin: printed as a table. */
async function measureHostile(): Promise<void> {
  const hostile: [string, string][] = [];
  const folder = join(work, "hostile");
  mkdirSync(folder);
  for (const [name, bytes] of Object.entries(hostileFiles())) writeFileSync(join(folder, name), bytes);
  progress("the hostile files, each in the built bin's worker");
  hostile.push(...hostilePeaks(folder));
  progress("the hostile files in the served bin");
  const stallFile = join(work, "hostile.stall.json");
  writeFileSync(join(folder, "note.md"), "# Note\n\nA note beside the hostile files.\n");
  const served = new StdioBin(["serve", folder, "--locale", "en"], {
    env: { ...process.env, NODE_OPTIONS: `--import=${pathToFileURL(STALL_MONITOR).href}`, MCP_SEARCH_STALL_FILE: stallFile },
  });
  await served.open();
  let slowest = 0;
  let answered = 0;
  let noteAt = 0;
  while (!served.indexed()) {
    const [found, took] = await timed(() => served.search("note"));
    if (noteAt === 0 && found.results.length > 0) noteAt = performance.now() - served.started;
    slowest = Math.max(slowest, took);
    answered += 1;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const stall = (JSON.parse(readFileSync(stallFile, "utf8")) as { maxMs: number }).maxMs;
  const skipped = served.stderr.filter((line) => line.includes("skipped")).map((line) => line.replace(/^mcp-search: skipped /, ""));
  served.close();
  hostile.push(["hostile folder in the served bin", `indexed in ${ms(performance.now() - served.started)} (skipped: ${skipped.join("; ") || "none"}); note found at ${ms(noteAt)}; longest event-loop stall ${ms(stall)}; slowest of ${answered} searches ${ms(slowest)}`]);
  console.log(`\nformats bench, hostile files (this machine)\n${hostile.map(([what, value]) => `  ${what.padEnd(48)} ${value}`).join("\n")}\n`);
}

describe("formats: hostile files (issue 41)", () => {
  bench("hostile: readOdt of 200,000 unclosed headings", async () => {
    const { readOdt } = await import("../src/formats/odt.js");
    await readOdt(odtOf(`<text:p>Before</text:p>${"<text:h>x".repeat(200_000)}`), { maxTextChars: 1 << 20, maxUnzippedBytes: 64 << 20 });
  }, { iterations: 3, time: 0 });
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.skipIf(!ready)("formats: extraction in this thread", () => {
  bench("readPdf bash(1)", async () => {
    await readPdf(new Uint8Array(readFileSync(bash)), LIMITS, 600_000);
  }, { iterations: 3, time: 0 });
  bench("readDocx bash(1)", async () => {
    await readDocx(new Uint8Array(readFileSync(docx)), LIMITS);
  }, { iterations: 3, time: 0 });
});
