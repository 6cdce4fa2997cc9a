import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
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
