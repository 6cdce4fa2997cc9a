import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN } from "../_cli-spawn.js";

/**
 * `mcp-search serve` over stdio, fed raw lines through the BUILT bin: a line over the SDK's
 * 10 MiB read buffer, a line that is not JSON, `params: "x"` and `arguments: null` each get one
 * JSON-RPC error, and the server keeps answering the requests after them. One process serves
 * both cases, the second after the first: it still answers after each bad line.
 */

const CORPUS = fileURLToPath(new URL("../../examples/corpus", import.meta.url));
const children: ChildProcessWithoutNullStreams[] = [];

afterAll(() => {
  for (const child of children.splice(0)) child.kill("SIGTERM");
});

interface Reply {
  id: string | number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** The bin over stdio, with every stdout line parsed and a way to wait for the reply with an id. */
function spawnStdio() {
  const child = spawn(process.execPath, [BIN, "serve", CORPUS, "--locale", "en"], { stdio: "pipe" });
  children.push(child);
  const replies: Reply[] = [];
  let stderr = "";
  let buffered = "";
  const waiters: (() => void)[] = [];
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    const lines = (buffered + chunk).split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) if (line.trim() !== "") replies.push(JSON.parse(line) as Reply);
    for (const wake of waiters.splice(0)) wake();
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.once("exit", () => {
    for (const wake of waiters.splice(0)) wake();
  });
  const send = (message: unknown) => child.stdin.write(`${typeof message === "string" ? message : JSON.stringify(message)}\n`);
  /** The first reply that matches, waiting for each stdout chunk (or the exit), for 10 s in all. */
  async function waitFor(predicate: (reply: Reply) => boolean): Promise<Reply> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const found = replies.find(predicate);
      if (found !== undefined) return found;
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no reply; exit ${String(child.exitCode)}; stderr: ${stderr}`);
      let bound: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        bound = setTimeout(resolve, deadline - Date.now() + 1);
      });
      clearTimeout(bound);
    }
  }
  return { child, send, waitFor, replies, stderr: () => stderr };
}

async function initialize(server: ReturnType<typeof spawnStdio>): Promise<void> {
  server.send({ jsonrpc: "2.0", id: "init", method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } } });
  await server.waitFor((reply) => reply.id === "init");
  server.send({ jsonrpc: "2.0", method: "notifications/initialized" });
}

describe("the stdio line guard", () => {
  let server: ReturnType<typeof spawnStdio>;

  beforeAll(async () => {
    server = spawnStdio();
    await initialize(server);
  });

  it("refuses a line over 10 MiB and keeps serving", async () => {
    server.send(`{"jsonrpc":"2.0","id":"big","method":"tools/list","params":{"pad":"${"x".repeat(10 * 1024 * 1024)}"}}`);
    server.send({ jsonrpc: "2.0", id: "after", method: "tools/list", params: {} });
    const refused = await server.waitFor((reply) => reply.id === null && /at most 10485760 bytes/.test(reply.error?.message ?? ""));
    expect(refused.error?.code).toBe(-32600);
    const after = await server.waitFor((reply) => reply.id === "after");
    expect((after.result?.["tools"] as { name: string }[]).map((tool) => tool.name)).toStrictEqual(["search", "fetch"]);
    expect(server.child.exitCode).toBeNull();
    expect(server.stderr()).toMatch(/refused a stdin line over 10485760 bytes/);
  }, 20_000);

  it("answers a line that is not JSON, params that is not an object, and arguments: null, each with one error", async () => {
    server.send("this is not json");
    server.send({ jsonrpc: "2.0", id: 7, method: "tools/list", params: "x" });
    server.send({ jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "search", arguments: null } });
    server.send({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "search", arguments: { query: "extraction" } } });
    const parse = await server.waitFor((reply) => reply.error?.code === -32700);
    expect(parse).toStrictEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: the line is not JSON." } });
    expect(await server.waitFor((reply) => reply.id === 7)).toStrictEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32600, message: "Invalid Request: params must be an object." },
    });
    const nullArguments = await server.waitFor((reply) => reply.id === 8);
    expect(nullArguments.error?.code).toBe(-32602);
    expect(nullArguments.error?.message).not.toContain("\n");
    const search = await server.waitFor((reply) => reply.id === 9);
    expect(search.result?.["isError"]).toBeFalsy();
  });

  it("answers a JSON-RPC batch line with one error, and keeps serving", async () => {
    server.send([
      { jsonrpc: "2.0", id: 10, method: "tools/list", params: {} },
      { jsonrpc: "2.0", id: 11, method: "ping" },
    ]);
    server.send({ jsonrpc: "2.0", id: 12, method: "ping" });
    expect(await server.waitFor((reply) => reply.id === null && /batch/.test(reply.error?.message ?? ""))).toStrictEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "Invalid Request: a JSON-RPC batch is not accepted over stdio; send one message a line." },
    });
    expect((await server.waitFor((reply) => reply.id === 12)).result).toStrictEqual({});
    expect(server.replies.some((reply) => reply.id === 10 || reply.id === 11)).toBe(false);
  });
});

describe("--token over stdio", () => {
  it("is an error naming --http, with exit status 2, instead of being silently ignored", () => {
    const run = spawnSync(process.execPath, [BIN, "serve", CORPUS, "--token", "0123456789abcdef"], { encoding: "utf8", input: "", timeout: 10_000 });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^mcp-search: --token applies to --http only: over stdio, the host that starts the server is its only client\./);
    expect(run.stdout).toBe("");
  });
});
