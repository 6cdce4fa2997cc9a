/**
 * `mcp-search serve` on a generated folder of 10k Markdown files with a realistic size mix:
 * the time to index it from cold, the heap it holds, and the p50/p99 of a search, both on the
 * index alone and as a full tool call through a real client (which includes the re-index check:
 * on an unchanged, watched folder, two turns of the event loop and no walk), and the refresh
 * after one file is edited (only that file's postings change: see scale.bench.ts for 20k files).
 *
 * Run: npx vitest bench --run bench/folder.bench.ts
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, bench, describe } from "vitest";
import { createIndex, createVocabulary, type IndexEntry } from "@sbissoli/mcp-search";
import { openFolder, type Folder } from "../src/folder/folder.js";
import { searchableText } from "../src/folder/reader.js";
import { createFolderServer } from "../src/transports/serve.js";

const FILES = 10_000;
const WORDS = [
  "coffee", "extraction", "grind", "water", "temperature", "ratio", "bloom", "filter", "espresso", "roast",
  "budget", "income", "savings", "interest", "pension", "insurance", "rendimento", "orçamento", "poupança",
  "receita", "farinha", "açúcar", "forno", "massa", "leite", "ovos", "server", "protocol", "search", "fetch",
  "index", "query", "token", "document", "folder", "snippet", "limit", "page", "vocabulary", "citation",
  "the", "of", "and", "a", "to", "in", "is", "for", "with", "on", "de", "da", "do", "que", "em", "para",
];
const QUERIES = ["coffee extraction", "rendimento da poupança", "grind size", "citation url", "orcamento", "açúcar forno", "espresso ratio temperature", "zzz no match", "token", "page limit snippet"];

/** A small deterministic generator (LCG), so every run indexes the same folder. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Sizes like a real notes folder: most files small, some medium, a few long. */
function sizeOf(next: () => number): number {
  const roll = next();
  if (roll < 0.7) return 500 + Math.floor(next() * 3500);
  if (roll < 0.95) return 4000 + Math.floor(next() * 26_000);
  return 30_000 + Math.floor(next() * 170_000);
}

function markdown(next: () => number, index: number): string {
  const pick = () => WORDS[Math.floor(next() * WORDS.length)] as string;
  const size = sizeOf(next);
  const lines = [`# Note ${index}: ${pick()} ${pick()}`, ""];
  let length = 0;
  while (length < size) {
    const sentence = Array.from({ length: 8 + Math.floor(next() * 12) }, pick).join(" ");
    lines.push(next() < 0.1 ? `\n## ${pick()}\n` : `${sentence}.`);
    length += sentence.length + 2;
  }
  return lines.join("\n");
}

/**
 * Index entries as the folder builds them (see searchableText) for prose-like text: the same size
 * mix, with words drawn from a 30,000-word vocabulary by a Zipf law, so each document keeps many
 * distinct words (the generated notes share about 60).
 */
function proseEntries(count: number, next: () => number): IndexEntry[] {
  const vocabularySize = 30_000;
  const word = () => `w${Math.min(vocabularySize - 1, Math.floor(vocabularySize ** next()) - 1).toString(36)}x`;
  return Array.from({ length: count }, (_, index) => {
    const size = sizeOf(next);
    const words: string[] = [];
    for (let length = 0; length < size; length += 6) words.push(word());
    return { id: `doc:prose-${index}.md`, title: `Prose ${index}`, url: `file:///prose-${index}.md`, keywords: [], text: searchableText(words.join(" ")) };
  });
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
}

let root: string;
let folder: Folder;
let client: Client;
const vocabulary = createVocabulary({ locale: "pt-BR", sourceName: "a pasta", entries: [{ asked: "renda", source: ["rendimento"] }] });

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "mcp-search-bench-"));
  const next = random(20_260_902);
  let bytes = 0;
  for (let batch = 0; batch < FILES; batch += 500) {
    await Promise.all(
      Array.from({ length: 500 }, async (_, offset) => {
        const index = batch + offset;
        const folderName = join(root, `area-${index % 40}`, `topic-${index % 7}`);
        await mkdir(folderName, { recursive: true });
        const text = markdown(next, index);
        bytes += Buffer.byteLength(text);
        await writeFile(join(folderName, `note-${index}.md`), text);
      }),
    );
  }
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  folder = await openFolder({ root, vocabulary });
  await folder.ready;
  const indexMs = performance.now() - started;
  global.gc?.(); // the heap the folder holds, not the garbage of reading it
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;

  const server = createFolderServer({ name: "bench", version: "0.0.0", folder, vocabulary });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  client = new Client({ name: "bench", version: "0.0.0" });
  await client.connect(clientTransport);

  const indexOnly: number[] = [];
  const toolCall: number[] = [];
  for (let round = 0; round < 20; round += 1) {
    for (const query of QUERIES) {
      let at = performance.now();
      folder.current.index.search(query);
      indexOnly.push(performance.now() - at);
      at = performance.now();
      await client.callTool({ name: "search", arguments: { query } });
      toolCall.push(performance.now() - at);
    }
  }
  // One file edited, then the next call's refresh: it re-reads that file and replaces its entry.
  const refreshes: number[] = [];
  for (let round = 0; round < 7; round += 1) {
    const before = folder.current.documents.get("area-0/topic-0/note-0.md");
    await writeFile(join(root, "area-0", "topic-0", "note-0.md"), markdown(random(round + 1), 0));
    const at = performance.now();
    await folder.refresh();
    refreshes.push(performance.now() - at);
    if (folder.current.documents.get("area-0/topic-0/note-0.md") === before) throw new Error("the edit was not picked up: the measure would be of an unchanged folder");
  }
  indexOnly.sort((a, b) => a - b);
  toolCall.sort((a, b) => a - b);
  refreshes.sort((a, b) => a - b);
  const prose = proseEntries(FILES, random(7));
  const rebuildStarted = performance.now();
  createIndex(prose);
  const proseRebuildMs = performance.now() - rebuildStarted;
  const format = (n: number) => n.toFixed(2);
  console.log(
    [
      `folder bench: ${folder.current.documents.size} Markdown files, ${(bytes / 2 ** 20).toFixed(1)} MiB`,
      `  index from cold: ${Math.round(indexMs)} ms, heap +${heapMb.toFixed(0)} MiB`,
      `  index.search    p50 ${format(percentile(indexOnly, 0.5))} ms, p99 ${format(percentile(indexOnly, 0.99))} ms`,
      `  tools/call search (change check + search + snippets) p50 ${format(percentile(toolCall, 0.5))} ms, p99 ${format(percentile(toolCall, 0.99))} ms`,
      `  refresh after editing one file (re-read it, replace its entry) p50 ${Math.round(percentile(refreshes, 0.5))} ms, max ${Math.round(refreshes.at(-1) ?? Number.NaN)} ms (of ${refreshes.length})`,
      `  the same index rebuild on 10k prose-like documents (Zipf over 30k words), in memory: ${Math.round(proseRebuildMs)} ms`,
    ].join("\n"),
  );
}, 600_000);

afterAll(async () => {
  await client?.close();
  folder?.close();
  await rm(root, { recursive: true, force: true });
});

describe("mcp-search serve on 10k Markdown files", () => {
  bench("index.search (one query of the set)", () => {
    for (const query of QUERIES) folder.current.index.search(query);
  });

  bench("tools/call search through a real client", async () => {
    await client.callTool({ name: "search", arguments: { query: "coffee extraction" } });
  }, { iterations: 20, time: 0 });
});
