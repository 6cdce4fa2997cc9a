import { execFileSync, spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

let workspace: string;
let bin: string;
let docs: string;

/**
 * Packs the package as it would be published and installs the tarball into a fresh project,
 * from the local npm cache (`--prefer-offline`), as a user would with `npm install`.
 */
beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), "mcp-search-installed-"));
  const project = join(workspace, "project");
  docs = join(workspace, "docs");
  await mkdir(project);
  await mkdir(docs);
  await writeFile(join(docs, "brewing.md"), "# Pour-over brewing\n\nBloom the coffee for thirty seconds.");
  await writeFile(join(project, "package.json"), JSON.stringify({ name: "consumer", version: "1.0.0", private: true }));
  execFileSync(NPM, ["pack", "--silent", "--pack-destination", workspace], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
  const tarball = (await readdir(workspace)).find((name) => name.endsWith(".tgz"));
  if (tarball === undefined) throw new Error("npm pack produced no tarball");
  execFileSync(NPM, ["install", "--prefer-offline", "--no-audit", "--no-fund", "--silent", join(workspace, tarball)], {
    cwd: project,
    stdio: ["ignore", "ignore", "inherit"],
  });
  bin = join(project, "node_modules", ".bin", "mcp-search");
}, 180_000);

afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

/** The stdout lines that are not a JSON-RPC 2.0 message: anything here corrupts the protocol. */
function nonProtocolLines(stdout: string): string[] {
  return stdout
    .split("\n")
    .filter((line) => line !== "")
    .filter((line) => {
      try {
        return (JSON.parse(line) as { jsonrpc?: unknown }).jsonrpc !== "2.0";
      } catch {
        return true;
      }
    });
}

describe("the installed mcp-search bin", () => {
  it("serves search and fetch over stdio to a real client", async () => {
    const transport = new StdioClientTransport({ command: bin, args: ["serve", docs, "--locale", "en"], stderr: "pipe" });
    const client = new Client({ name: "installed-test", version: "0.0.0" });
    await client.connect(transport);
    const found = await client.callTool({ name: "search", arguments: { query: "bloom" } });
    expect((found.structuredContent as { results: { id: string }[] }).results.map((hit) => hit.id)).toStrictEqual(["doc:brewing.md"]);
    const doc = await client.callTool({ name: "fetch", arguments: { id: "doc:brewing.md" } });
    expect(doc.structuredContent).toMatchObject({ title: "Pour-over brewing", text: "# Pour-over brewing\n\nBloom the coffee for thirty seconds." });
    await client.close();
  });

  it("writes nothing but protocol to stdout, and its logs to stderr", async () => {
    const child = spawn(bin, ["serve", docs], { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const messages = [
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "search", arguments: { query: "bloom" } } },
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "fetch", arguments: { id: "doc:brewing.md" } } },
      { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "fetch", arguments: { id: "doc:../../etc/passwd" } } },
    ];
    const answered = new Promise<void>((resolve) => {
      child.stdout.on("data", () => {
        if (stdout.split("\n").filter((line) => line.includes('"id":')).length >= 4) resolve();
      });
    });
    for (const message of messages) child.stdin.write(`${JSON.stringify(message)}\n`);
    await answered;
    child.stdin.end();
    await new Promise((resolve) => child.once("exit", resolve));
    expect(nonProtocolLines(stdout)).toStrictEqual([]);
    const replies = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { id: number; result?: { isError?: boolean } })
      .sort((a, b) => a.id - b.id);
    expect(replies.map((reply) => reply.id)).toStrictEqual([1, 2, 3, 4]);
    expect(replies[3]?.result?.isError).toBe(true);
    expect(stderr).toContain("mcp-search: indexed 1 documents");
  });
});
