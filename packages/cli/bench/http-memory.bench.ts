/**
 * What hostile HTTP clients can make `mcp-search serve --http` hold: 100 connections each post a
 * JSON-RPC batch of fetches of 20,000-character pages and never read the replies. The built bin's
 * resident memory (VmRSS, Linux) is sampled before and while they wait; the peak growth is the
 * number. Only 127.0.0.1 is targeted, and every socket is closed at the end.
 *
 * Run: npx tsup && npx vitest bench --run bench/http-memory.bench.ts
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, bench, describe } from "vitest";

const BIN = process.env["MCP_SEARCH_BIN"] ?? fileURLToPath(new URL("../dist/mcp-search.js", import.meta.url));
const CONNECTIONS = 100;
/** The batch each connection posts: the server's cap (8); a server without a cap gets 100. */
const BATCH = Number(process.env["MCP_SEARCH_BENCH_BATCH"] ?? 8);
const DOCS = 16;

let root: string;
let child: ChildProcess;
let port = 0;

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

function batchBody(): string {
  const calls = Array.from({ length: BATCH }, (_, id) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "fetch", arguments: { id: `doc:doc-${id % DOCS}.md` } },
  }));
  return JSON.stringify(calls);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "mcp-search-http-bench-"));
  const sentence = "zebrafish care, feeding, water temperature and tank mates; ";
  for (let index = 0; index < DOCS; index += 1) {
    await writeFile(join(root, `doc-${index}.md`), `# Doc ${index}\n\n${sentence.repeat(Math.ceil(20_000 / sentence.length))}\n`);
  }
  child = spawn(process.execPath, [BIN, "serve", root, "--http", "127.0.0.1:0", "--locale", "en"], { stdio: ["ignore", "ignore", "pipe"] });
  port = await new Promise<number>((resolve, reject) => {
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const match = /at http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(stderr);
      if (match?.[1] !== undefined) resolve(Number(match[1]));
    });
    child.once("exit", () => reject(new Error(stderr)));
  });
  const pid = child.pid as number;
  await new Promise((resolve) => setTimeout(resolve, 500));
  const before = rssMb(pid);
  const body = batchBody();
  const sockets: Socket[] = [];
  for (let index = 0; index < CONNECTIONS; index += 1) {
    const socket = connect(port, "127.0.0.1");
    socket.on("error", () => undefined);
    socket.pause(); // never read the reply
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    sockets.push(socket);
  }
  let peak = before;
  for (let sample = 0; sample < 40; sample += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    peak = Math.max(peak, rssMb(pid));
  }
  for (const socket of sockets) socket.destroy();
  console.log(
    `[http-memory] ${CONNECTIONS} connections x batch of ${BATCH} fetches (20k-char pages), replies never read: ` +
      `RSS ${before.toFixed(0)} MB -> peak ${peak.toFixed(0)} MB (+${(peak - before).toFixed(0)} MB)`,
  );
}, 60_000);

afterAll(async () => {
  child.kill("SIGTERM");
  await rm(root, { recursive: true, force: true });
});

describe("http memory under clients that never read", () => {
  // The measure is the log line above; this only gives vitest a bench to run.
  bench("tools/list over HTTP after the flood", async () => {
    await new Promise<void>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1");
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
      socket.on("error", reject);
      socket.on("data", () => undefined);
      socket.on("end", () => resolve());
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    });
  }, { iterations: 3, time: 0 });
});
