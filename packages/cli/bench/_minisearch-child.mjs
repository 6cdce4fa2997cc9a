// The MiniSearch side of scale.bench.ts, in its own process so its memory is its own: walks the
// folder, reads every Markdown file, indexes title and text with MiniSearch's defaults, answers
// one search, and prints its timings and memory as one JSON line.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import MiniSearch from "minisearch";

const root = process.argv[2];
const started = performance.now();
const files = [];
const pending = [""];
while (pending.length > 0) {
  const folder = pending.pop();
  for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
    const relative = folder === "" ? entry.name : `${folder}/${entry.name}`;
    if (entry.isDirectory()) pending.push(relative);
    else if (entry.name.endsWith(".md")) files.push(relative);
  }
}
files.sort();
const index = new MiniSearch({ fields: ["title", "text"], storeFields: ["title"] });
for (const relative of files) {
  const text = readFileSync(join(root, relative), "utf8");
  index.add({ id: relative, title: text.slice(0, text.indexOf("\n")), text });
}
const indexMs = performance.now() - started;
const at = performance.now();
index.search(process.argv[3] ?? "signal handler");
const searchMs = performance.now() - at;
globalThis.gc?.();
const status = readFileSync("/proc/self/status", "utf8");
const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN);
process.stdout.write(`${JSON.stringify({ files: files.length, indexMs, searchMs, rssMb: kb("VmRSS") / 1024, peakMb: kb("VmHWM") / 1024, heapMb: process.memoryUsage().heapUsed / 2 ** 20 })}\n`);
