/**
 * What the formats tests share (./cli-formats.test.ts, ../extra/formats-options.test.ts): the
 * fixtures, and a real client over stdio to the BUILT bin, with its search, fetch and stderr.
 */
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { BIN, call } from "../_cli-spawn.js";

/** Real files made once with pandoc, groff, Ghostscript and qpdf (../fixtures/formats/README.md). */
export const FIXTURES = fileURLToPath(new URL("../fixtures/formats", import.meta.url));

/** A search reply as the formats tests read it. */
export interface Found {
  results: { id: string; title: string; url: string }[];
  summary: { documents: number; matches: number; unreadable: number; message: string };
  snippets: { id: string; snippet: string }[];
}

export async function search(query: string, on: Client): Promise<Found> {
  return (await call(on, "search", { query })).structuredContent as unknown as Found;
}

export async function fetchText(id: string, on: Client): Promise<{ title: string; url: string; text: string }> {
  return JSON.parse((await call(on, "fetch", { id })).content[0]?.text ?? "{}") as { title: string; url: string; text: string };
}

/** Searches until the summary no longer says that indexing is under way. */
export async function untilIndexed(on: Client): Promise<Found> {
  for (;;) {
    const found = await search("anything", on);
    if (!found.summary.message.startsWith("indexing")) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts the built bin with `args` and connects a real client; `stderr()` is what it wrote so far. */
export async function connect(args: readonly string[]): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, ...args], stderr: "pipe" });
  let log = "";
  transport.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")));
  const connected = new Client({ name: "formats-test", version: "0" });
  await connected.connect(transport);
  return { client: connected, stderr: () => log };
}
