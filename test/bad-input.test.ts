/**
 * The bad-input matrix (test/_bad-inputs.ts) at the MCP surface, through a real Client: in
 * memory, over stdio against the built package, and against the folder server (`mcp-search
 * serve`, built). Every row gets a normal result or an error that says what is wrong, never a
 * raw JS error nor the SDK's generic output-validation text; the next call is answered normally.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIndex } from "../src/index.js";
import { BAD_INPUTS, type BadInputRow } from "./_bad-inputs.js";
import { connect, textOf } from "./_register-helpers.js";
import { ECHO_URL, echoCallbacks } from "./fixtures/echo-callbacks.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const ECHO_SERVER = fileURLToPath(new URL("./fixtures/echo-server.mjs", import.meta.url));
const CLI = fileURLToPath(new URL("../packages/cli/dist/mcp-search.js", import.meta.url));
const RAW = /Output validation error|TypeError|Cannot read propert|undefined is not|is not a function|\n\s+at /;

interface ToolResult {
  isError?: boolean;
  content?: unknown;
  structuredContent?: Record<string, unknown>;
}

type Outcome = { readonly result: ToolResult } | { readonly protocolError: string };

async function send(client: Client, row: BadInputRow): Promise<Outcome> {
  try {
    return { result: (await client.callTool({ name: row.tool, arguments: row.arguments as Record<string, unknown> })) as ToolResult };
  } catch (error) {
    return { protocolError: (error as Error).message };
  }
}

/** The string argument of a row, when it has one. */
function argumentOf(row: BadInputRow): string {
  return (row.arguments as Record<string, string>)[row.tool === "search" ? "query" : "id"] as string;
}

/** A normal answer from the echo callbacks: it names its own request. */
function expectEcho(row: BadInputRow, result: ToolResult): void {
  const value = argumentOf(row);
  if (row.tool === "search") {
    const [first] = result.structuredContent?.["results"] as unknown[];
    expect(first).toStrictEqual({ id: `echo:${value}`, title: value, url: ECHO_URL });
  } else {
    expect(result.structuredContent?.["id"]).toBe(value);
  }
}

/** A normal answer from the folder server: results, a document, or a not-found naming the id. */
function expectFolderAnswer(row: BadInputRow, result: ToolResult): void {
  if (result.isError === true) {
    expect(row.tool).toBe("fetch");
    expect(textOf(result)).toContain(JSON.stringify(argumentOf(row)));
  } else {
    expect(result.structuredContent).toBeDefined();
  }
}

/**
 * `protocolText` replaces the table's expected protocol error: the folder server answers
 * arguments that are not an object itself, in one sentence (src/cli/message-check.ts), before
 * the SDK's multi-line validation dump.
 */
async function runMatrix(
  client: Client,
  expectAnswer: (row: BadInputRow, result: ToolResult) => void,
  next: () => Promise<void>,
  protocolText?: RegExp,
) {
  for (const row of BAD_INPUTS) {
    const outcome = await send(client, row);
    const where = `${row.tool}: ${row.label}`;
    if (row.expected.kind === "protocol") {
      expect("protocolError" in outcome ? outcome.protocolError : "no protocol error", where).toMatch(protocolText ?? row.expected.text);
    } else {
      expect("result" in outcome, `${where}: ${"protocolError" in outcome ? outcome.protocolError : ""}`).toBe(true);
      const { result } = outcome as { result: ToolResult };
      if (row.expected.kind === "error") {
        expect(result.isError, where).toBe(true);
        expect(textOf(result), where).toMatch(row.expected.text);
        expect(textOf(result), where).not.toMatch(RAW);
      } else {
        if (result.isError === true) expect(textOf(result), where).not.toMatch(RAW);
        expectAnswer(row, result);
      }
    }
    await next();
  }
}

/** The call after each row, answered normally. */
const nextEchoCall = (client: Client) => async () => {
  const result = (await client.callTool({ name: "search", arguments: { query: "população estimada" } })) as ToolResult;
  expect(result.isError).toBeUndefined();
  expect((result.structuredContent?.["results"] as { id: string }[]).map((hit) => hit.id)).toStrictEqual([
    "echo:população estimada",
    "sidra:6579",
  ]);
};

function stdioClient(args: string[]) {
  return async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args, cwd: ROOT, stderr: "pipe" });
    const client = new Client({ name: "bad-input", version: "1.0.0" });
    await client.connect(transport);
    return client;
  };
}

describe("the bad-input matrix", () => {
  it("has every kind of row the issue lists", () => {
    expect(BAD_INPUTS.length).toBeGreaterThanOrEqual(50);
    for (const tool of ["search", "fetch"]) {
      for (const kind of ["ok", "error", "protocol"]) {
        expect(BAD_INPUTS.some((row) => row.tool === tool && row.expected.kind === kind), `${tool} ${kind}`).toBe(true);
      }
    }
  });

  it("in memory: each row answered as the table says, and the next call normally", async () => {
    const { client } = await connect(echoCallbacks(createIndex));
    await runMatrix(client, expectEcho, nextEchoCall(client));
  });

  it("over stdio, against the built package", async () => {
    const client = await stdioClient([ECHO_SERVER])();
    try {
      await runMatrix(client, expectEcho, nextEchoCall(client));
    } finally {
      await client.close();
    }
  });

  describe("against the folder server (mcp-search serve, built)", () => {
    let folder: string;
    beforeAll(async () => {
      folder = await mkdtemp(join(tmpdir(), "mcp-search-bad-input-"));
      await writeFile(join(folder, "populacao.md"), "# População estimada\n\nTabela 6579 do IBGE.\n");
      await writeFile(join(folder, "constructor.md"), "# constructor\n\n__proto__ toString.\n");
    });
    afterAll(async () => {
      await rm(folder, { recursive: true, force: true });
    });

    it("answers each row as the table says, and the next call normally", async () => {
      const client = await stdioClient([CLI, "serve", folder])();
      try {
        await runMatrix(client, expectFolderAnswer, async () => {
          const result = (await client.callTool({ name: "search", arguments: { query: "população estimada" } })) as ToolResult;
          expect(result.isError).toBeUndefined();
          expect((result.structuredContent?.["results"] as { id: string }[]).map((hit) => hit.id)).toStrictEqual(["doc:populacao.md"]);
        }, /^Invalid params: arguments must be an object, such as \{"query": "…"\}\.$/);
      } finally {
        await client.close();
      }
    });
  });
});
