/**
 * The built bin on a folder large enough that indexing takes a few seconds: it answers
 * `initialize` and `tools/list` before indexing ends, writes progress lines, and a search during
 * indexing answers with what is indexed so far, saying so. Then the snapshot: a warm start gives
 * the same results as a cold one, and a corrupt snapshot falls back to a full index.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../dist/mcp-search.js", import.meta.url));
const WORDS = ("coffee grinder kettle filter bloom extraction roast origin acidity body aroma brew water " +
  "temperature ratio burr espresso crema channel tamp puck dose yield shot siphon press steep cup taste " +
  "bean harvest altitude process washed natural honey ferment dry cherry pulp sorting storage fresh").split(" ");

/** A deterministic prose folder: `files` Markdown files of about `words` words each. */
function makeFolder(files: number, words: number): string {
  const root = mkdtempSync(join(tmpdir(), "mcp-search-live-"));
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  for (let f = 0; f < files; f++) {
    const folder = join(root, `part-${f % 40}`);
    mkdirSync(folder, { recursive: true });
    const body: string[] = [];
    for (let w = 0; w < words; w++) body.push(`${WORDS[next() % WORDS.length]}${next() % 7 === 0 ? `${f % 97}` : ""}`);
    writeFileSync(join(folder, `note-${f}.md`), `# Note ${f} ${WORDS[f % WORDS.length]}\n\n${body.join(" ")}\n`);
  }
  return root;
}

/** A spawned server with line-based JSON-RPC over its stdio, every stderr line kept. */
class Server {
  readonly child: ChildProcessWithoutNullStreams;
  readonly stderr: string[] = [];
  private buffer = "";
  private readonly waiting = new Map<number, (message: Record<string, unknown>) => void>();
  private id = 0;

  constructor(args: string[]) {
    this.child = spawn(process.execPath, [BIN, ...args], { stdio: ["pipe", "pipe", "pipe"] });
    this.child.stderr.setEncoding("utf8").on("data", (chunk: string) => this.stderr.push(...chunk.split("\n").filter(Boolean)));
    this.child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      this.buffer += chunk;
      for (let end = this.buffer.indexOf("\n"); end !== -1; end = this.buffer.indexOf("\n")) {
        const message = JSON.parse(this.buffer.slice(0, end)) as Record<string, unknown>;
        this.buffer = this.buffer.slice(end + 1);
        this.waiting.get(message["id"] as number)?.(message);
      }
    });
  }

  request(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const id = ++this.id;
    const reply = new Promise<Record<string, unknown>>((resolve) => this.waiting.set(id, resolve));
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    return reply;
  }

  notify(method: string): void {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method })}\n`);
  }

  async open(): Promise<void> {
    await this.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "live", version: "0" } });
    this.notify("notifications/initialized");
  }

  async search(query: string): Promise<{ results: { id: string }[]; summary: { documents: number; message: string } }> {
    const reply = await this.request("tools/call", { name: "search", arguments: { query } });
    return (reply["result"] as { structuredContent: never }).structuredContent;
  }

  indexed(): boolean {
    return this.stderr.some((line) => /indexed \d+ documents/.test(line));
  }

  async untilIndexed(): Promise<void> {
    while (!this.indexed()) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  close(): void {
    this.child.kill();
  }
}

describe("mcp-search serve on a large folder", () => {
  const FILES = 3000;
  let root: string;
  let cache: string;
  beforeAll(() => {
    root = makeFolder(FILES, 1200);
    cache = mkdtempSync(join(tmpdir(), "mcp-search-cache-"));
  });
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
  });

  it("answers initialize and tools/list before indexing ends, reports progress, and answers a search meanwhile with what it has", async () => {
    const server = new Server(["serve", root, "--locale", "en"]);
    try {
      await server.open();
      expect(server.indexed()).toBe(false);
      const tools = (await server.request("tools/list"))["result"] as { tools: { name: string }[] };
      expect(tools.tools.map((tool) => tool.name).sort()).toStrictEqual(["fetch", "search"]);
      const during = await server.search("coffee grinder");
      expect(during.summary.message).toMatch(/^indexing: [\d,]+ of 3,000 files; the result covers only what is indexed so far\. /);
      expect(during.summary.documents).toBeLessThan(FILES);
      await server.untilIndexed();
      expect(server.stderr.some((line) => /^mcp-search: indexing: \d+ of 3000 files, [\d.]+ MB read$/.test(line))).toBe(true);
      const after = await server.search("coffee grinder");
      expect(after.summary.documents).toBe(FILES);
      expect(after.summary.message).not.toMatch(/^indexing/);
    } finally {
      server.close();
    }
  }, 120_000);

  it("gives the same results from a warm start as from a cold one, and falls back to a full index on a corrupt snapshot", async () => {
    const queries = ["coffee grinder", "roast origin 12", "washed natural honey", "Note 17"];
    const run = async () => {
      const server = new Server(["serve", root, "--locale", "en", "--cache", cache]);
      try {
        await server.open();
        await server.untilIndexed();
        const results = [];
        for (const query of queries) results.push((await server.search(query)).results);
        return { results, stderr: server.stderr };
      } finally {
        server.close();
      }
    };
    const cold = await run();
    expect(cold.stderr.some((line) => /snapshot written: 3000 documents/.test(line))).toBe(true);
    const warm = await run();
    expect(warm.stderr.some((line) => /snapshot: 3000 documents/.test(line))).toBe(true);
    expect(warm.stderr.some((line) => /\(0 files read\)/.test(line))).toBe(true);
    expect(warm.results).toStrictEqual(cold.results);

    const [file] = readdirSync(cache).filter((name) => name.endsWith(".snapshot"));
    writeFileSync(join(cache, file as string), "not a snapshot\n");
    const broken = await run();
    expect(broken.stderr.filter((line) => /snapshot ignored/.test(line))).toHaveLength(1);
    expect(broken.stderr.some((line) => /\(3000 files read\)/.test(line))).toBe(true);
    expect(broken.results).toStrictEqual(cold.results);
  }, 180_000);
});
