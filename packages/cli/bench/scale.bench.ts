/**
 * Scale and liveness of `mcp-search serve` (issue 16) against MiniSearch, on a folder of 20k
 * prose files built at bench time from real documents: the Python reference (python3-doc) and
 * the manual pages (manpages), as bench/_relevance-corpora.ts installs and renders them, cut into
 * sections and varied (paragraphs rotated per copy) up to FOLDER_BENCH_FILES files (default 20000).
 *
 * The built bin runs as a child over stdio, exactly as a host runs it; MiniSearch runs in its own
 * child (./_minisearch-child.mjs) on the same files, so each RSS is its own. Printed as a table:
 * time to `initialize`, to the first search answer, to the full index; resident memory (peak,
 * right after indexing, and after SETTLE_MS idle); the latency of the first search that reflects one edit, one new file and one
 * deletion; the search p50 and p99 over 200 section titles once the server is idle; the restart
 * time to a complete answer without and with `--cache`; and the longest
 * event-loop stall (./_stall-monitor.mjs, `perf_hooks.monitorEventLoopDelay` inside the served
 * process) while indexing, in the 6 s after it (the compaction in slices and the memory-reducing
 * collection), and around the edits, next to the slowest search answer sent every 50 ms in those 6 s.
 *
 * A second part serves a folder of PDF_BENCH_FILES (default 200) manual pages rendered to PDF by
 * groff (`apt-get install groff`), waits until every text is extracted, then sends searches and
 * fetches that each reach PDFs outside the 32 documents the server keeps loaded. It reads the
 * bytes the server process read during each call from `/proc/<pid>/io` (`rchar`: every read,
 * the requests on stdin included), so a call that reads a PDF shows it, and prints the median
 * search and fetch times. With MCP_SEARCH_BEFORE_BIN set to another build's bin (an earlier
 * commit's, built in a `git worktree`), or to several as "label=path,label=path", it measures
 * each the same way in the same run.
 *
 * SCALE_BENCH_BIN=<another build's bin> serves the Markdown part with that build instead (an
 * earlier commit's, to compare build time, memory and search time with this one's);
 * SCALE_BENCH_ARGS adds options to its command line (`--language en` leaves language detection out).
 *
 * Needs a build first (`npm run build -w @sbissoli/mcp-search-cli`, or any test run). Run:
 * `npx vitest bench --run packages/cli/bench/scale.bench.ts`; SCALE_BENCH_PARTS=pdfs (or
 * markdown) runs one part only.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, bench, describe } from "vitest";
import { ensurePackages, loadRelevanceCorpora } from "../../../bench/_relevance-corpora.js";
import { extractDocument } from "../src/formats/documents.js";
import { BIN, StdioBin } from "../test/_cli-spawn.js";

const MINISEARCH_CHILD = fileURLToPath(new URL("./_minisearch-child.mjs", import.meta.url));
const STALL_MONITOR = fileURLToPath(new URL("./_stall-monitor.mjs", import.meta.url));
/** How long after indexing the bench keeps searching and measuring: the tidy-up starts at 0.5 s. */
const AFTER_MS = 6000;
const FILES = Number(process.env["FOLDER_BENCH_FILES"] ?? 20_000);
const SECTION_CHARS = 5000;
const QUERY = "signal handler";
/** How long the server is left idle before its memory is read again. */
const SETTLE_MS = 7000;
/** How many searches, one after another, the search p50 and p99 are read from (section titles as queries). */
const TIMED_SEARCHES = 200;
/** Another build's bin to serve the Markdown part with, to compare it with this one in the same bench. */
const SCALE_BIN = process.env["SCALE_BENCH_BIN"];
const titles: string[] = [];
/** More options for the served bin of the Markdown part (`--language en`, to leave detection out). */
const EXTRA_ARGS = (process.env["SCALE_BENCH_ARGS"] ?? "").split(" ").filter((arg) => arg !== "");

/** The real documents as text sections of about SECTION_CHARS characters, each with a title. */
function sections(): { title: string; paragraphs: string[] }[] {
  const out: { title: string; paragraphs: string[] }[] = [];
  for (const corpus of loadRelevanceCorpora()) {
    const files: string[] = [];
    const pending = [corpus.root];
    while (pending.length > 0) {
      const folder = pending.pop() as string;
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        const path = join(folder, entry.name);
        if (entry.isDirectory()) pending.push(path);
        else if (/\.(html|txt|md)$/.test(entry.name)) files.push(path);
      }
    }
    for (const path of files.sort()) {
      const { title, text } = extractDocument(path, readFileSync(path, "utf8"));
      let current: string[] = [];
      let length = 0;
      for (const paragraph of text.split(/\n{2,}/)) {
        current.push(paragraph);
        length += paragraph.length;
        if (length >= SECTION_CHARS) {
          out.push({ title, paragraphs: current });
          current = [];
          length = 0;
        }
      }
      if (current.length > 0) out.push({ title, paragraphs: current });
    }
  }
  return out;
}

/** FILES Markdown files in 100 folders: section i mod S, its paragraphs rotated per copy. */
function buildFolder(root: string): number {
  const all = sections();
  titles.push(...all.filter((_, i) => i % 7 === 0).slice(0, TIMED_SEARCHES).map((section) => section.title));
  let bytes = 0;
  for (let i = 0; i < FILES; i++) {
    const { title, paragraphs } = all[(i * 7919) % all.length]!;
    const copy = Math.floor(i / all.length);
    const shift = paragraphs.length === 0 ? 0 : copy % paragraphs.length;
    const body = [...paragraphs.slice(shift), ...paragraphs.slice(0, shift)].join("\n\n");
    const text = `# ${title} (${copy + 1})\n\n${body}\n`;
    const folder = join(root, `part-${i % 100}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `section-${i}.md`), text);
    bytes += Buffer.byteLength(text);
  }
  return bytes;
}

/** The built bin over stdio, with what the bench reads of it. */
class Served extends StdioBin {
  /** The ids of one search's results, how many documents it covered, and whether indexing was still going. */
  async answer(query: string): Promise<{ ids: string[]; documents: number; partial: boolean }> {
    const { results, summary } = await this.search(query);
    return { ids: results.map((hit) => hit.id), documents: summary.documents, partial: summary.message.startsWith("indexing") };
  }

  /**
   * ms from spawn to the first search answer that covers the whole folder. It waits for the
   * server's "indexed" line before searching: MiniSearch's time is its indexing alone, and a
   * search every few milliseconds during indexing would add its own cost to the server's.
   */
  async untilComplete(): Promise<number> {
    await this.untilIndexed();
    for (;;) {
      const answer = await this.answer(QUERY);
      if (!answer.partial) return performance.now() - this.started;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** The longest event-loop stall since the last call (ms), read from the stall monitor; then resets it. */
  async stall(file: string): Promise<number> {
    // The monitor writes every 100 ms: wait for a write that covers everything until now.
    await new Promise((resolve) => setTimeout(resolve, 250));
    const { maxMs } = JSON.parse(readFileSync(file, "utf8")) as { maxMs: number };
    this.child.kill("SIGUSR2");
    await new Promise((resolve) => setTimeout(resolve, 50));
    return maxMs;
  }

  /** Sends a search every 50 ms for `ms` and returns the slowest answer (ms). */
  async slowestSearch(ms: number): Promise<number> {
    let slowest = 0;
    const until = performance.now() + ms;
    while (performance.now() < until) {
      const sent = performance.now();
      await this.answer(QUERY);
      slowest = Math.max(slowest, performance.now() - sent);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return slowest;
  }

  memory(): { rss: number; peak: number } {
    const status = readFileSync(`/proc/${this.child.pid}/status`, "utf8");
    const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN) / 1024;
    return { rss: kb("VmRSS"), peak: kb("VmHWM") };
  }
}

/** ms from a change to the first search answer for which `reflects` holds. */
async function latency(served: Served, change: () => void, query: string, reflects: (ids: string[]) => boolean): Promise<number> {
  change();
  const at = performance.now();
  for (;;) {
    if (reflects((await served.answer(query)).ids)) return performance.now() - at;
    if (performance.now() - at > 60_000) return Number.NaN;
  }
}

let root = "";
let cache = "";
const rows: [string, string, string][] = [];
const PARTS = (process.env["SCALE_BENCH_PARTS"] ?? "markdown,pdfs").split(",");

beforeAll(async () => {
  if (!PARTS.includes("markdown")) return;
  const missing = ensurePackages((line) => console.log(line));
  if (missing !== undefined) {
    console.log(`scale bench skipped: ${missing}`);
    return;
  }
  if (!existsSync(BIN)) execFileSync("npm", ["run", "build", "-w", "@sbissoli/mcp-search-cli"], { stdio: "ignore" });
  root = mkdtempSync(join(tmpdir(), "mcp-search-scale-"));
  cache = mkdtempSync(join(tmpdir(), "mcp-search-scale-cache-"));
  const bytes = buildFolder(root);
  const mb = bytes / 2 ** 20;

  const mini = JSON.parse(execFileSync(process.execPath, ["--expose-gc", MINISEARCH_CHILD, root, QUERY], { encoding: "utf8", maxBuffer: 1 << 20 })) as {
    indexMs: number; searchMs: number; rssMb: number; peakMb: number; heapMb: number;
  };

  const stallFile = join(cache, "stall.json");
  const served = new Served(["serve", root, "--locale", "en", ...EXTRA_ARGS], {
    ...(SCALE_BIN === undefined ? {} : { bin: SCALE_BIN }),
    env: { ...process.env, NODE_OPTIONS: `${process.env["NODE_OPTIONS"] ?? ""} --import=${pathToFileURL(STALL_MONITOR).href}`, MCP_SEARCH_STALL_FILE: stallFile },
  });
  const initializeMs = await served.open();
  // From here on: loading the server's own modules, before initialize is answered, is not indexing.
  await served.stall(stallFile);
  await served.answer(QUERY);
  const firstAnswerMs = performance.now() - served.started;
  const completeMs = await served.untilComplete();
  const memory = served.memory();
  const indexingStallMs = await served.stall(stallFile);
  // The tidy-up (compaction in slices, then the memory-reducing collection) runs in these seconds.
  const afterSearchMs = await served.slowestSearch(AFTER_MS);
  const afterStallMs = await served.stall(stallFile);
  // V8 and the allocator hand back what the indexing freed within a few seconds of quiet.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, SETTLE_MS - AFTER_MS)));
  const settled = served.memory();
  const searchMs: number[] = [];
  for (const title of titles) {
    const sent = performance.now();
    await served.answer(title);
    searchMs.push(performance.now() - sent);
  }
  searchMs.sort((a, b) => a - b);
  const edited = "doc:part-0/section-0.md";
  const editMs = await latency(served, () => writeFileSync(join(root, "part-0", "section-0.md"), "# Edited\n\nzqxedited marker\n"), "zqxedited", (ids) => ids.includes(edited));
  const addMs = await latency(served, () => writeFileSync(join(root, "part-1", "added.md"), "# Added\n\nzqxadded marker\n"), "zqxadded", (ids) => ids.includes("doc:part-1/added.md"));
  const deleteMs = await latency(served, () => unlinkSync(join(root, "part-1", "added.md")), "zqxadded", (ids) => ids.length === 0);
  const editStallMs = await served.stall(stallFile);
  served.close();

  const coldCache = new Served(["serve", root, "--locale", "en", "--cache", cache], SCALE_BIN === undefined ? {} : { bin: SCALE_BIN });
  await coldCache.open();
  const restartColdMs = await coldCache.untilComplete();
  while (!readdirSync(cache).some((name) => name.endsWith(".snapshot"))) await new Promise((resolve) => setTimeout(resolve, 50));
  coldCache.close();
  const warm = new Served(["serve", root, "--locale", "en", "--cache", cache], SCALE_BIN === undefined ? {} : { bin: SCALE_BIN });
  await warm.open();
  const restartWarmMs = await warm.untilComplete();
  const warmMemory = warm.memory();
  warm.close();
  const snapshotMb = readdirSync(cache).reduce((sum, name) => sum + statSync(join(cache, name)).size, 0) / 2 ** 20;

  const ms = (n: number) => `${Math.round(n)} ms`;
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
  rows.push(
    ["time to initialize", ms(initializeMs), "n/a (a library)"],
    ["time to the first search answer", `${ms(firstAnswerMs)} (partial, says so)`, `${ms(mini.indexMs + mini.searchMs)} (after the full index)`],
    ["full index (walk, read, index)", `${ms(completeMs)} (${ratio(completeMs, mini.indexMs)})`, ms(mini.indexMs)],
    ["resident memory after indexing", `${memory.rss.toFixed(0)} MB (${ratio(memory.rss, mini.rssMb)})`, `${mini.rssMb.toFixed(0)} MB`],
    [`resident memory ${SETTLE_MS / 1000} s later`, `${settled.rss.toFixed(0)} MB (${ratio(settled.rss, mini.rssMb)}); target ${(0.6 * mb + 100).toFixed(0)} MB`, `${mini.rssMb.toFixed(0)} MB`],
    ["peak resident memory", `${memory.peak.toFixed(0)} MB (${ratio(memory.peak, mini.peakMb)})`, `${mini.peakMb.toFixed(0)} MB`],
    ["longest event-loop stall while indexing", `${ms(indexingStallMs)} (target at most 100 ms)`, "n/a (one blocking call)"],
    [`longest stall in the ${AFTER_MS / 1000} s after indexing (compaction, collection)`, `${ms(afterStallMs)} (target at most 100 ms)`, "n/a"],
    [`slowest search in those ${AFTER_MS / 1000} s (one every 50 ms)`, ms(afterSearchMs), "n/a"],
    [`search p50 / p99 (${titles.length} section titles, one after another, idle server)`, `${(searchMs[Math.floor(searchMs.length / 2)] ?? 0).toFixed(1)} / ${(searchMs[Math.floor(searchMs.length * 0.99)] ?? 0).toFixed(1)} ms`, "n/a"],
    ["longest stall around the edit, new file and deletion", ms(editStallMs), "n/a"],
    ["first search reflecting one edit", ms(editMs), "n/a"],
    ["first search reflecting one new file", ms(addMs), "n/a"],
    ["first search reflecting one deletion", ms(deleteMs), "n/a"],
    ["restart to a complete answer, no snapshot", ms(restartColdMs), ms(mini.indexMs)],
    ["restart to a complete answer, --cache", `${ms(restartWarmMs)} (snapshot ${snapshotMb.toFixed(0)} MB, RSS ${warmMemory.rss.toFixed(0)} MB)`, "n/a"],
  );
  const width = Math.max(...rows.map((row) => row[0].length));
  const col = Math.max(...rows.map((row) => row[1].length));
  console.log(
    [
      `scale bench${SCALE_BIN === undefined ? "" : ` (bin ${SCALE_BIN})`}: ${FILES} Markdown files, ${mb.toFixed(1)} MB of prose (python3-doc + manpages sections, varied); MiniSearch 7 defaults on title + text`,
      `| ${"measure".padEnd(width)} | ${"mcp-search serve".padEnd(col)} | MiniSearch |`,
      `| ${"-".repeat(width)} | ${"-".repeat(col)} | ---------- |`,
      ...rows.map(([name, ours, theirs]) => `| ${name.padEnd(width)} | ${ours.padEnd(col)} | ${theirs} |`),
    ].join("\n"),
  );
}, 1_800_000);

afterAll(() => {
  if (root !== "") rmSync(root, { recursive: true, force: true });
  if (cache !== "") rmSync(cache, { recursive: true, force: true });
});

const PDF_FILES = Number(process.env["PDF_BENCH_FILES"] ?? 200);
const MAN_PAGES = "/usr/share/man/man1";

/**
 * PDF_FILES manual pages of section 1, spread over the installed ones, each rendered to PDF by
 * groff as `man -Tpdf` does. Returns the PDFs' names (without ".pdf"), or why there are none.
 */
function buildPdfFolder(folder: string): string[] | string {
  if (spawnSync("groff", ["-Tpdf", "-v"]).status !== 0 || !existsSync(MAN_PAGES)) return "needs groff with its PDF device and manual pages (apt-get install groff manpages)";
  const pages = readdirSync(MAN_PAGES).filter((name) => /^[a-z][a-z0-9-]*\.1\.gz$/.test(name)).sort();
  const names: string[] = [];
  for (let i = 0; i < pages.length && names.length < PDF_FILES; i += Math.max(1, Math.floor(pages.length / (PDF_FILES * 1.5)))) {
    const page = pages[i] as string;
    const name = page.replace(/\.1\.gz$/, "");
    const pdf = spawnSync("sh", ["-c", `zcat "${MAN_PAGES}/${page}" | groff -man -Tpdf`], { maxBuffer: 64 << 20 });
    if (pdf.status !== 0 || pdf.stdout.length < 2000) continue;
    writeFileSync(join(folder, `${name}.pdf`), pdf.stdout);
    names.push(name);
  }
  return names;
}

/** The bytes the process has read so far, by every read call (`rchar` of /proc/<pid>/io). */
function bytesRead(served: StdioBin): number {
  return Number(/rchar:\s+(\d+)/.exec(readFileSync(`/proc/${served.child.pid}/io`, "utf8"))?.[1] ?? Number.NaN);
}

/** The median of some numbers. */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** What one bin did over the PDF folder: its indexing time, and each call's time and bytes read. */
interface PdfMeasures {
  readonly indexMs: number;
  readonly searchMs: number[];
  readonly searchBytes: number[];
  readonly fetchMs: number[];
  readonly fetchBytes: number[];
}

/**
 * Every bin's searches and fetches over the PDF folder. Each bin indexes the folder in turn (with
 * `--cache`, in a folder of its own); then the calls alternate between the bins, the same call to
 * each, their order swapped at every call, so that a machine busy with other work slows each bin
 * alike.
 */
async function measurePdfs(bins: readonly (string | undefined)[], folder: string, names: readonly string[]): Promise<PdfMeasures[]> {
  const caches = bins.map(() => mkdtempSync(join(tmpdir(), "mcp-search-pdf-cache-")));
  const servers: Served[] = [];
  try {
    const measures = [];
    for (const [n, bin] of bins.entries()) {
      const served = new Served(["serve", folder, "--locale", "en", "--cache", caches[n] as string], bin === undefined ? {} : { bin });
      servers.push(served);
      await served.open();
      // Every PDF's text is then extracted, kept in memory and under --cache.
      measures.push({ indexMs: await served.untilComplete(), searchMs: [] as number[], searchBytes: [] as number[], fetchMs: [] as number[], fetchBytes: [] as number[] });
    }
    const timed = async (served: Served, call: () => Promise<unknown>, ms: number[], bytes: number[]) => {
      const before = bytesRead(served);
      const sent = performance.now();
      await call();
      ms.push(performance.now() - sent);
      bytes.push(bytesRead(served) - before);
    };
    const order = (turn: number) => (turn % 2 === 0 ? [...servers.keys()] : [...servers.keys()].reverse());
    // Each search is one page's name: its results reach PDFs well beyond the 32 kept loaded.
    for (const [turn, name] of names.slice(0, 60).entries()) {
      for (const n of order(turn)) {
        const served = servers[n] as Served;
        const measure = measures[n] as (typeof measures)[number];
        await timed(served, () => served.answer(name.replace(/-/g, " ")), measure.searchMs, measure.searchBytes);
      }
    }
    // Fetched in an order no search used last, so most are outside the 32 kept loaded.
    for (const [turn, name] of [...names].reverse().slice(0, 100).entries()) {
      for (const n of order(turn)) {
        const served = servers[n] as Served;
        const measure = measures[n] as (typeof measures)[number];
        await timed(
          served,
          async () => {
            const reply = await served.request("tools/call", { name: "fetch", arguments: { id: `doc:${name}.pdf` } });
            if ((reply["result"] as { isError?: boolean } | undefined)?.isError === true) throw new Error(`fetch of ${name}.pdf failed`);
          },
          measure.fetchMs,
          measure.fetchBytes,
        );
      }
    }
    return measures;
  } finally {
    for (const served of servers) served.close();
    for (const cache of caches) rmSync(cache, { recursive: true, force: true });
  }
}

let pdfRoot = "";

beforeAll(async () => {
  if (!PARTS.includes("pdfs")) return;
  if (!existsSync(BIN)) execFileSync("npm", ["run", "build", "-w", "@sbissoli/mcp-search-cli"], { stdio: "ignore" });
  pdfRoot = mkdtempSync(join(tmpdir(), "mcp-search-scale-pdfs-"));
  const names = buildPdfFolder(pdfRoot);
  if (typeof names === "string") {
    console.log(`scale bench, PDFs: skipped: ${names}`);
    return;
  }
  const sizes = names.map((name) => statSync(join(pdfRoot, `${name}.pdf`)).size);
  const smallest = Math.min(...sizes);
  // MCP_SEARCH_BEFORE_BIN: one bin, or several as "label=path,label=path".
  const earlier = (process.env["MCP_SEARCH_BEFORE_BIN"] ?? "").split(",").filter((item) => item !== "").map((item) => (item.includes("=") ? item.split("=", 2) : ["before", item]) as [string, string]);
  const labels = [...earlier.map(([label]) => label), "this build"];
  const measured = await measurePdfs([...earlier.map(([, bin]) => bin), undefined], pdfRoot, names);
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const lines = measured.map((m, n) => {
    const searchesReading = m.searchBytes.filter((bytes) => bytes >= smallest).length;
    const fetchesReading = m.fetchBytes.filter((bytes) => bytes >= smallest).length;
    return `| ${labels[n] ?? ""} | ${Math.round(m.indexMs)} ms | ${median(m.searchMs).toFixed(1)} ms | ${kb(median(m.searchBytes))} (most ${kb(Math.max(...m.searchBytes))}) | ${searchesReading} of ${m.searchBytes.length} | ${median(m.fetchMs).toFixed(1)} ms | ${kb(median(m.fetchBytes))} (most ${kb(Math.max(...m.fetchBytes))}) | ${fetchesReading} of ${m.fetchBytes.length} |`;
  });
  console.log(
    [
      `scale bench, PDFs: ${names.length} manual pages as PDF (groff), ${(sizes.reduce((a, b) => a + b, 0) / 2 ** 20).toFixed(1)} MB, the smallest ${kb(smallest)}; texts cached (in memory and --cache)`,
      "| bin | full index | search p50 | bytes read per search, median | searches that read a PDF's worth | fetch p50 | bytes read per fetch, median | fetches that read a PDF's worth |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
      ...lines,
    ].join("\n"),
  );
}, 1_800_000);

afterAll(() => {
  if (pdfRoot !== "") rmSync(pdfRoot, { recursive: true, force: true });
});

describe("mcp-search serve at scale", () => {
  bench("the measurements above (printed in beforeAll)", () => undefined, { iterations: 1, time: 0 });
});
