import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCommandLine } from "../../src/cli/args.js";

/** The BUILT bin (global setup runs tsup first), spawned exactly as a user would run it. */
const BIN = fileURLToPath(new URL("../../dist/mcp-search.js", import.meta.url));
const CORPUS = fileURLToPath(new URL("../../examples/corpus", import.meta.url));
const VOCABULARY = fileURLToPath(new URL("../../examples/vocabulary.json", import.meta.url));

let child: ChildProcess;
let url: URL;
let stdout = "";

/** Starts `mcp-search serve --http 127.0.0.1:0` and reads the chosen port from stderr. */
beforeAll(async () => {
  child = spawn(process.execPath, [BIN, "serve", CORPUS, "--http", "127.0.0.1:0", "--vocabulary", VOCABULARY, "--locale", "en", "--allowed-host", "docs.example.org"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  url = await new Promise<URL>((resolve, reject) => {
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const match = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (match?.[1] !== undefined) resolve(new URL(match[1]));
    });
    child.once("exit", (code) => reject(new Error(`mcp-search exited with ${String(code)}: ${stderr}`)));
  });
});

afterAll(() => {
  child.kill("SIGTERM");
});

function rawPost(path: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: Number(url.port), path, method: "POST", headers: { host, "content-type": "application/json", accept: "application/json, text/event-stream" } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }));
  });
}

describe("mcp-search serve --http", () => {
  it("serves search and fetch over Streamable HTTP to a real client", async () => {
    const client = new Client({ name: "http-test", version: "0.0.0" });
    await client.connect(new StreamableHTTPClientTransport(url));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toStrictEqual(["search", "fetch"]);

    const found = await client.callTool({ name: "search", arguments: { query: "extraction sour" } });
    const results = (found.structuredContent as { results: { id: string }[] }).results;
    expect(results.map((hit) => hit.id)).toContain("doc:reference/glossary.md");

    const doc = await client.callTool({ name: "fetch", arguments: { id: "doc:reference/glossary.md" } });
    expect(doc.structuredContent).toMatchObject({ id: "doc:reference/glossary.md", title: "Glossary" });

    const missing = await client.callTool({ name: "fetch", arguments: { id: "doc:../../etc/passwd" } });
    expect(missing.isError).toBe(true);
    await client.close();
  });

  it("answers only on /mcp, and refuses a Host header that is neither loopback nor allowed", async () => {
    expect(await rawPost("/other", `127.0.0.1:${url.port}`)).toBe(404);
    expect(await rawPost("/mcp", "evil.example")).toBe(403);
    expect(await rawPost("/mcp", "docs.example.org")).toBe(200);
    expect(stdout).toBe("");
  });
});

describe("mcp-search misuse", () => {
  // One spawn per way out: a command line the parser refuses (exit 2, with the pointer to --help)
  // and a folder that fails at start (exit 1).
  it.each([
    [["serve", "docs", "--bogus"], /^mcp-search: Unknown option '--bogus'.* Run "mcp-search --help" for usage\.\n$/],
    [["serve", "/nonexistent/folder/xyz"], /^mcp-search: The folder "\/nonexistent\/folder\/xyz" does not exist\.\n$/],
  ])("exits non-zero with one sentence on stderr for %j", (argv, message) => {
    const run = spawnSync(process.execPath, [BIN, ...argv], { encoding: "utf8" });
    expect(run.status).not.toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("refuses serve without a folder with the same kind of sentence, from the parser the bin runs", () => {
    expect(parseCommandLine(["serve"], {})).toStrictEqual({ command: "error", message: "serve needs a folder: mcp-search serve <dir>." });
  });

  it("loads no SDK package before it serves: the bin's static imports, through its own chunks, reach none", () => {
    const reached = new Set<string>();
    const pending = [BIN];
    for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
      for (const [, from, bare] of readFileSync(file, "utf8").matchAll(/^import\s[^;]*?from\s*"([^"]+)";|^import\s*"([^"]+)";/gms)) {
        const specifier = (from ?? bare)!;
        if (reached.has(specifier)) continue;
        reached.add(specifier);
        if (specifier.startsWith("./")) pending.push(fileURLToPath(new URL(specifier, pathToFileURL(file))));
      }
    }
    const packages = [...reached].filter((specifier) => !specifier.startsWith("./"));
    expect(packages).toContain("@sbissoli/mcp-search");
    expect(packages.filter((specifier) => specifier.startsWith("@modelcontextprotocol/"))).toStrictEqual([]);
  });

  it("prints --help and --version on stdout", () => {
    expect(spawnSync(process.execPath, [BIN, "--help"], { encoding: "utf8" }).stdout).toContain("mcp-search serve <dir>");
    expect(spawnSync(process.execPath, [BIN, "--version"], { encoding: "utf8" }).stdout).toMatch(/^\d+\.\d+\.\d+/);
  });
});
