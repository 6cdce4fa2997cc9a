/**
 * What hostile HTTP clients can make `mcp-search serve --http` hold. Each case starts a fresh
 * built bin, samples its resident memory (VmRSS, Linux) before and while the clients hold on, and
 * prints the peak next to the caps that bound it (docs/folder-server.md, "Bounded resources"):
 *
 * - **batches**: 100 connections each post a JSON-RPC batch of fetches of 20,000-character pages
 *   and never read the replies;
 * - **pipelined**: 30 connections each send 800 pipelined `resources/read` requests for a 1 MB
 *   file of control characters (6 MB once escaped) and never read a reply (the third hostile
 *   review measured 3.8 GB and an unanswered `ping` without the per-connection limit);
 * - **held streams**: one client opens 32 `subscriptions/listen` event streams and keeps them, and
 *   20 other clients then call `tools/list` (every one of them was refused before the stream caps).
 *
 * Only 127.0.0.1 is targeted, each flood lasts 4 s, and every socket is closed at the end.
 *
 * Run: npx tsup && NODE_OPTIONS=--expose-gc npx vitest bench --run bench/http-memory.bench.ts
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, bench, describe } from "vitest";
import { HTTP_LIMITS } from "../src/transports/http-guard.js";

const BIN = process.env["MCP_SEARCH_BIN"] ?? fileURLToPath(new URL("../dist/mcp-search.js", import.meta.url));
/** The batch each connection posts: the server's cap (8); a server without a cap gets 100. */
const BATCH = Number(process.env["MCP_SEARCH_BENCH_BATCH"] ?? 8);
const DOCS = 16;
const FLOOD_MS = 4_000;

let root: string;
let child: ChildProcess | undefined;
let port = 0;

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

/** A fresh bin on the bench folder; resolves with its port once it listens. */
async function startServer(): Promise<ChildProcess> {
  const started = spawn(process.execPath, [BIN, "serve", root, "--http", "127.0.0.1:0", "--locale", "en"], { stdio: ["ignore", "ignore", "pipe"] });
  port = await new Promise<number>((resolve, reject) => {
    let stderr = "";
    started.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const match = /at http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(stderr);
      if (match?.[1] !== undefined) resolve(Number(match[1]));
    });
    started.once("exit", () => reject(new Error(stderr)));
  });
  await new Promise((resolve) => setTimeout(resolve, 500)); // the folder indexed
  return started;
}

function rawPost(body: string, headers: Record<string, string> = {}): string {
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("");
  return `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** A socket that never reads what it is sent. */
function deafSocket(bytes: string): Socket {
  const socket = connect(port, "127.0.0.1");
  socket.on("error", () => undefined);
  socket.pause();
  socket.write(bytes);
  return socket;
}

/** tools/list on a fresh connection: its status, or 0 when the connection was refused. */
function toolsList(): Promise<number> {
  return new Promise((resolve) => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    const req = request(
      { host: "127.0.0.1", port, path: "/mcp", method: "POST", agent: false, timeout: 5_000, headers: { "content-type": "application/json", accept: "application/json, text/event-stream" } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", () => resolve(0));
    req.on("timeout", () => req.destroy());
    req.end(body);
  });
}

/**
 * Runs `flood` against a fresh bin, samples RSS for FLOOD_MS, calls `during` meanwhile, and
 * prints one line: RSS before, the peak, and what `during` found.
 */
async function measure(name: string, caps: string, flood: () => Socket[], during: () => Promise<string> = async () => ""): Promise<void> {
  child = await startServer();
  const pid = child.pid as number;
  const before = rssMb(pid);
  const sockets = flood();
  let peak = before;
  const sampling = (async () => {
    for (let sample = 0; sample < FLOOD_MS / 100; sample += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      peak = Math.max(peak, rssMb(pid));
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 500));
  const found = await during();
  await sampling;
  for (const socket of sockets) socket.destroy();
  console.log(`[http-memory] ${name}: RSS ${before.toFixed(0)} MB -> peak ${peak.toFixed(0)} MB (+${(peak - before).toFixed(0)} MB); caps: ${caps}${found === "" ? "" : `; ${found}`}`);
  child.kill("SIGTERM");
  child = undefined;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "mcp-search-http-bench-"));
  const sentence = "zebrafish care, feeding, water temperature and tank mates; ";
  for (let index = 0; index < DOCS; index += 1) {
    await writeFile(join(root, `doc-${index}.md`), `# Doc ${index}\n\n${sentence.repeat(Math.ceil(20_000 / sentence.length))}\n`);
  }
  await writeFile(join(root, "controls.md"), `# Controls\n\n${"\u0001".repeat(1024 * 1024 - 20)}\n`);
  const limits = HTTP_LIMITS;

  const batch = JSON.stringify(
    Array.from({ length: BATCH }, (_, id) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "fetch", arguments: { id: `doc:doc-${id % DOCS}.md` } } })),
  );
  await measure(
    `100 connections x batch of ${BATCH} fetches (20k-char pages), replies never read`,
    `${limits.maxConnections} connections, batches of ${limits.maxBatch}, ${limits.maxInFlight} requests in flight`,
    () => Array.from({ length: 100 }, () => deafSocket(rawPost(batch))),
  );

  const read = rawPost(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "resources/read", params: { uri: "mcp-search://doc/controls.md" } }));
  await measure(
    "30 connections x 800 pipelined resources/read of 1 MB of control characters, never read",
    `one request in flight per connection, ${limits.maxInFlight} in flight, ${limits.maxQueuedBytes / 1048576} MiB of unread replies, resources/read capped at --max-chars`,
    () => Array.from({ length: 30 }, () => deafSocket(read.repeat(800))),
    async () => {
      const statuses = await Promise.all(Array.from({ length: 5 }, () => toolsList()));
      return `tools/list meanwhile: ${statuses.filter((status) => status === 200).length} of 5 answered 200`;
    },
  );

  const listen = rawPost(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "subscriptions/listen",
      params: {
        notifications: { resourcesListChanged: true },
        _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "b", version: "0" }, "io.modelcontextprotocol/clientCapabilities": {} },
      },
    }),
    { "Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "subscriptions/listen" },
  );
  await measure(
    "one client holds 32 subscriptions/listen streams",
    `${limits.maxStreams} streams, ${limits.maxStreamsPerClient} per address, ${limits.streamLifetimeMs / 60_000} min each, ${limits.maxConnections} connections (${limits.reservedConnections} reserved)`,
    () =>
      Array.from({ length: 32 }, () => {
        const socket = connect(port, "127.0.0.1");
        socket.on("error", () => undefined);
        socket.on("data", () => undefined);
        socket.write(listen);
        return socket;
      }),
    async () => {
      const statuses: number[] = [];
      for (let index = 0; index < 20; index += 1) statuses.push(await toolsList());
      return `tools/list from 20 other clients: ${statuses.filter((status) => status === 200).length} of 20 answered 200`;
    },
  );

  child = await startServer(); // for the bench below
}, 120_000);

afterAll(async () => {
  child?.kill("SIGTERM");
  await rm(root, { recursive: true, force: true });
});

describe("http memory under clients that never read", () => {
  // The measures are the log lines above; this only gives vitest a bench to run.
  bench("tools/list over HTTP after the floods", async () => {
    if ((await toolsList()) !== 200) throw new Error("tools/list was not answered");
  }, { iterations: 3, time: 0 });
});
