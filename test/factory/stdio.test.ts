import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Client, type JSONRPCMessage, type Transport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterEach, describe, expect, it } from "vitest";

const FIXTURE = fileURLToPath(new URL("../fixtures/stdio-server.mjs", import.meta.url));
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const PROVENANCE = { source: "IBGE", retrievedAt: "2026-09-02T12:00:00Z" };
const TABLE = { id: "sidra:6579", title: "Tabela 6579 — População residente estimada", url: "https://sidra.ibge.gov.br/tabela/6579" };

/** The stdout lines that are not a JSON-RPC 2.0 message: anything here corrupts the protocol. */
function nonProtocolLines(lines: readonly string[]): string[] {
  return lines.filter((line) => {
    try {
      const message: unknown = JSON.parse(line);
      return (message as { jsonrpc?: unknown } | null)?.jsonrpc !== "2.0";
    } catch {
      return true;
    }
  });
}

/**
 * A stdio client transport that keeps every raw line the child wrote to stdout, so the test can
 * prove that nothing but protocol reached it.
 */
class RecordingStdioTransport implements Transport {
  readonly stdoutLines: string[] = [];
  readonly stderrChunks: string[] = [];
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  #child: ChildProcessWithoutNullStreams | undefined;
  #pending = "";

  async start(): Promise<void> {
    const child = spawn(process.execPath, [FIXTURE], { cwd: ROOT, stdio: "pipe" });
    this.#child = child;
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => this.stderrChunks.push(chunk));
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => this.#read(chunk));
    child.on("close", () => this.onclose?.());
    child.on("error", (error) => this.onerror?.(error));
  }

  #read(chunk: string): void {
    const lines = (this.#pending + chunk).split("\n");
    this.#pending = lines.pop() ?? "";
    for (const line of lines) {
      this.stdoutLines.push(line);
      if (nonProtocolLines([line]).length === 0) this.onmessage?.(JSON.parse(line) as JSONRPCMessage);
    }
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.#child?.stdin.write(`${JSON.stringify(message)}\n`);
  }

  async close(): Promise<void> {
    this.#child?.stdin.end();
    this.#child?.kill();
  }
}

function textOf(result: { content?: unknown }): string {
  return (result.content as [{ text: string }])[0].text;
}

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close()));
});

async function exercise(client: Client) {
  const { tools } = await client.listTools();
  const search = await client.callTool({ name: "search", arguments: { query: "população" } });
  const fetch = await client.callTool({ name: "fetch", arguments: { id: "sidra:6579" } });
  const unknown = await client.callTool({ name: "fetch", arguments: { id: "sidra:0" } });
  const thrown = await client.callTool({ name: "fetch", arguments: { id: "boom" } });
  const extraKey = await client.callTool({ name: "search", arguments: { query: "x", limit: 2 } });
  return { tools, search, fetch, unknown, thrown, extraKey };
}

describe("the built package over stdio", () => {
  it("lists the tools and answers both, through StdioClientTransport", async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [FIXTURE], cwd: ROOT, stderr: "pipe" });
    const stderr: string[] = [];
    transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString("utf8")));
    const errors: Error[] = [];
    transport.onerror = (error) => void errors.push(error);
    const client = new Client({ name: "stdio-test", version: "1.0.0" });
    await client.connect(transport);
    open.push(() => client.close());

    const { tools, search, fetch, unknown, thrown, extraKey } = await exercise(client);
    expect(tools.map((tool) => [tool.name, tool.title, tool.annotations])).toStrictEqual([
      ["search", "Buscar documentos", { readOnlyHint: true, destructiveHint: false, openWorldHint: false }],
      ["fetch", "Ler um documento", { readOnlyHint: true, destructiveHint: false, openWorldHint: false }],
    ]);
    expect(search).toStrictEqual({
      content: [{ type: "text", text: JSON.stringify({ results: [TABLE] }) }],
      structuredContent: { provenance: PROVENANCE, results: [TABLE] },
    });
    expect(JSON.parse(textOf(fetch))).toStrictEqual({
      ...TABLE,
      text: "# Tabela 6579\nPopulação residente estimada.",
    });
    expect(fetch._meta).toStrictEqual({ "fixture/provenance": PROVENANCE });
    expect(unknown).toStrictEqual({
      content: [{ type: "text", text: 'Nenhum documento tem o id "sidra:0". Use um id devolvido pela ferramenta search.' }],
      isError: true,
    });
    expect(thrown).toStrictEqual({
      content: [{ type: "text", text: "A ferramenta fetch falhou: database unavailable" }],
      isError: true,
    });
    expect(extraKey.isError).toBe(true);
    expect(textOf(extraKey)).toContain('"limit"');
    expect(errors).toStrictEqual([]);
    await client.close();
    // Telemetry went to stderr, one JSON line per record, after each settled call.
    const records = stderr.join("").trim().split("\n").map((line) => JSON.parse(line) as { kind: string; classe: string });
    expect(records.map((record) => `${record.kind}:${record.classe}`)).toStrictEqual([
      // tool_call never carries a class; without classifyError, tool_error does not either.
      "tool_call:", "tool_call:", "tool_call:", "tool_error:", "tool_call:", "tool_error:",
    ]);
  });

  it("writes nothing but protocol to stdout", async () => {
    const transport = new RecordingStdioTransport();
    const client = new Client({ name: "stdout-guard", version: "1.0.0" });
    await client.connect(transport);
    open.push(() => client.close());
    const { thrown } = await exercise(client);
    expect(thrown.isError).toBe(true);
    expect(transport.stdoutLines.length).toBeGreaterThanOrEqual(7);
    expect(nonProtocolLines(transport.stdoutLines)).toStrictEqual([]);
  });

  it("flags anything on stdout that is not a JSON-RPC message", () => {
    const lines = ['{"jsonrpc":"2.0","id":1,"result":{}}', "server ready", '{"level":"info"}', "", "null"];
    expect(nonProtocolLines(lines)).toStrictEqual(["server ready", '{"level":"info"}', "", "null"]);
  });
});
