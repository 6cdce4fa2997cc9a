import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams, type SpawnOptions } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

/** The BUILT bin (global setup runs tsup first), spawned exactly as a user would run it. */
export const BIN = fileURLToPath(new URL("../dist/mcp-search.js", import.meta.url));

/** The uid and gid of "nobody": as root, file permissions only bite a process run as someone else. */
export const NOBODY = { uid: 65534, gid: 65534 };

/** True when this process runs as root, so permission tests must run the bin as {@link NOBODY}. */
export const AS_ROOT = process.getuid?.() === 0;

/**
 * A running `mcp-search serve` over HTTP: its URL, everything it wrote to stderr so far, and how
 * to stop it.
 */
export interface SpawnedServer {
  readonly child: ChildProcess;
  readonly url: URL;
  stderr(): string;
  stdout(): string;
  stop(): Promise<void>;
}

/**
 * Starts the built bin with `args` and reads the HTTP URL it prints on stderr. Rejects with the
 * whole stderr if the process exits first, or after `timeoutMs`.
 */
export async function startBin(args: readonly string[], options: SpawnOptions & { timeoutMs?: number } = {}): Promise<SpawnedServer> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "pipe", "pipe"], ...options });
  let stderr = "";
  let stdout = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  const url = await new Promise<URL>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mcp-search did not start in time: ${stderr}`)), options.timeoutMs ?? 10_000);
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const match = /over Streamable HTTP at (http:\/\/\S+\/mcp)/.exec(stderr);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(new URL(match[1]));
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`mcp-search exited with ${String(code)}: ${stderr}`));
    });
  });
  return {
    child,
    url,
    stderr: () => stderr,
    stdout: () => stdout,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** A real MCP client connected to a spawned server. */
export async function connectHttp(url: URL, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "cli-test", version: "0.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

/** A tool call's result as the tests read it. */
export interface CallResult {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
}

/** Calls a tool and returns its result. */
export async function call(client: Client, name: "search" | "fetch", args: Record<string, unknown>): Promise<CallResult> {
  return (await client.callTool({ name, arguments: args })) as CallResult;
}

/** What the folder server's `search` puts in `structuredContent`, as far as these tests read it. */
export interface FolderSearch {
  readonly results: { readonly id: string }[];
  readonly summary: { readonly documents: number; readonly message: string };
}

/**
 * The built bin serving over stdio, spoken to as a host does: one JSON-RPC message a line.
 * Every stderr line is kept, and `started` is when it was spawned (`performance.now()`).
 */
export class StdioBin {
  readonly child: ChildProcessWithoutNullStreams;
  readonly started = performance.now();
  readonly stderr: string[] = [];
  private buffer = "";
  private readonly waiting = new Map<number, (message: Record<string, unknown>) => void>();
  private id = 0;

  /**
   * `env` replaces the inherited environment, as a host that starts the server with its own does;
   * `bin` is another build of the bin (a bench compares this build with an earlier one's).
   */
  constructor(args: readonly string[], options: { readonly env?: NodeJS.ProcessEnv; readonly bin?: string } = {}) {
    const { bin = BIN, ...spawnOptions } = options;
    this.child = spawn(process.execPath, [bin, ...args], { stdio: ["pipe", "pipe", "pipe"], ...spawnOptions });
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

  /** `initialize`, then its notification; returns the ms from spawn to the answer. */
  async open(): Promise<number> {
    await this.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "stdio-bin", version: "0" } });
    const at = performance.now() - this.started;
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    return at;
  }

  async search(query: string): Promise<FolderSearch> {
    const reply = await this.request("tools/call", { name: "search", arguments: { query } });
    return (reply["result"] as { structuredContent: FolderSearch }).structuredContent;
  }

  /** True once the bin has logged the end of its indexing. */
  indexed(): boolean {
    return this.stderr.some((line) => /indexed \d+ documents/.test(line));
  }

  /** Settles at the end of the bin's indexing (see {@link untilStderr}). */
  untilIndexed(): Promise<void> {
    return this.untilStderr((line) => /indexed \d+ documents/.test(line));
  }

  /**
   * Settles once a stderr line passes `test`, at once when one already has; each stderr chunk is
   * looked at as it comes, so nothing waits longer than the line. Fails if the bin exits first.
   */
  untilStderr(test: (line: string) => boolean): Promise<void> {
    if (this.stderr.some(test)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      // Runs after the constructor's own listener has kept the chunk's lines.
      const look = () => {
        if (!this.stderr.some(test)) return;
        stop();
        resolve();
      };
      const exited = () => {
        stop();
        reject(new Error(`mcp-search exited before the awaited line; stderr:\n${this.stderr.join("\n")}`));
      };
      const stop = () => {
        this.child.stderr.off("data", look);
        this.child.off("exit", exited);
      };
      this.child.stderr.on("data", look);
      this.child.once("exit", exited);
    });
  }

  close(): void {
    this.child.kill();
  }
}
