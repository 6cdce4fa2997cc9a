import { writeFileSync } from "node:fs";
import { request } from "node:http";
import type { Server } from "node:http";
import { join } from "node:path";
import type { PassThrough } from "node:stream";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { PROGRAMS_FOLDER, compilerOptions, extractPrograms, joinBlocks, writePrograms } from "./_doc-programs.js";
import { readDoc, scanMarkdown } from "./_docs.js";
import { ts } from "./_typescript.js";

// Every ```ts program of the documentation (see ./_doc-programs.ts) runs in this process, by a
// dynamic import of its transpiled .mjs file: no process is spawned per program. A program that
// connects a StdioServerTransport gets one over in-memory streams instead of this process's
// stdio, and the test talks MCP to it as a host would. The programs are type-checked with the
// repository, in one TypeScript program, by test/static/types.test.ts (`npm run check:static`).

interface StdioPair {
  readonly input: PassThrough;
  readonly output: PassThrough;
}

declare global {
  var __docStdio: StdioPair[] | undefined;
}

/** Sends JSON-RPC messages to a stdio pair and collects the answers that carry an id. */
async function converse(pair: StdioPair, messages: readonly object[]): Promise<Array<{ id: number; result?: unknown; error?: unknown }>> {
  const expected = messages.filter((message) => "id" in message).length;
  const answers: Array<{ id: number; result?: unknown; error?: unknown }> = [];
  let buffer = "";
  const done = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`only ${answers.length} of ${expected} answers`)), 10_000);
    pair.output.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      let newline: number;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        const message = JSON.parse(line) as { id?: number; result?: unknown; error?: unknown };
        if (message.id !== undefined) answers.push(message as { id: number });
        if (answers.length === expected) {
          clearTimeout(timer);
          resolve();
        }
      }
    });
  });
  for (const message of messages) pair.input.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  await done;
  return answers.sort((a, b) => a.id - b.id);
}

const programs = writePrograms();
afterAll(() => {
  for (const pair of globalThis.__docStdio ?? []) pair.input.end();
  globalThis.__docStdio = undefined;
});

describe("documentation programs", () => {
  it("finds the programs of both READMEs and of the guides in both languages", () => {
    const found = programs.map((program) => `${program.doc} > ${program.section}`);
    expect(found).toContain("README.md > Quick start");
    expect(found).toContain("README.pt-BR.md > Início rápido");
    expect(found.some((name) => name.startsWith("docs/factory.md > "))).toBe(true);
    expect(found.some((name) => name.startsWith("docs/pt-BR/factory.md > "))).toBe(true);
    expect(programs.length).toBeGreaterThan(15);
  });

  it.each(["README.md", "README.pt-BR.md"])("%s: the quick start is plain JavaScript too, as the README says", (doc) => {
    const quickStart = programs.find((program) => program.doc === doc && /^(?:Quick start|Início rápido)$/.test(program.section));
    expect(quickStart).toBeDefined();
    const jsDiagnostics = (source: string) => {
      const file = join(PROGRAMS_FOLDER, "plain-javascript.mjs");
      writeFileSync(file, source);
      const program = ts.createProgram([file], { allowJs: true, noEmit: true, noLib: true, types: [], noResolve: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext });
      return program.getSyntacticDiagnostics(program.getSourceFile(file)).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    };
    expect(jsDiagnostics(quickStart!.source)).toStrictEqual([]);
    // The check can fail: a type annotation is not JavaScript.
    expect(jsDiagnostics("const n: number = 1;\nexport { n };\n").length).toBeGreaterThan(0);
  });

  it.each(programs.map((program) => [`${program.doc} > ${program.section}`, program] as const))(
    "runs %s in this process",
    async (_name, program) => {
      const before = globalThis.__docStdio?.length ?? 0;
      // A query of its own: another test file (test/sql/) imports some of these programs too, and
      // a module already evaluated in this worker would not run again, nor connect its transport.
      await import(/* @vite-ignore */ `${pathToFileURL(program.runnable).href}?docs-programs`);
      const connected = (globalThis.__docStdio ?? []).slice(before);
      expect(connected.length).toBe(program.source.includes("new StdioServerTransport(") ? 1 : 0);
      for (const pair of connected) {
        // A host's first words: the pasted server answers over the transport it connected.
        const [initialized, listed, searched] = await converse(pair, [
          { id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "host", version: "1.0.0" } } },
          { method: "notifications/initialized" },
          { id: 2, method: "tools/list" },
          { id: 3, method: "tools/call", params: { name: "search", arguments: { query: "soja" } } },
        ]);
        expect(initialized?.error).toBeUndefined();
        const tools = (listed?.result as { tools: Array<{ name: string }> }).tools;
        expect(tools.map((tool) => tool.name)).toStrictEqual(["search", "fetch"]);
        const hits = (searched?.result as { structuredContent: { results: Array<{ id: string }> } }).structuredContent.results;
        expect(hits.length).toBeGreaterThan(0);
      }
    },
  );
});

describe("the Node deployment of docs/factory.md, against DNS rebinding", () => {
  /** One POST to the server's endpoint with these headers; its status. */
  function status(endpoint: URL, headers: Record<string, string>): Promise<number> {
    return new Promise((resolve, reject) => {
      const sent = { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers };
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
      request(endpoint, { method: "POST", headers: sent }, (res) => resolve(res.resume().statusCode ?? 0)).on("error", reject).end(body);
    });
  }

  // The server block alone (its client block closes it), kept listening for this test: the
  // MCP conformance suite's dns-rebinding-protection scenario, which it once failed.
  it.each(["docs/factory.md", "docs/pt-BR/factory.md"])("%s: answers 403 to a rebound Host or Origin, and serves localhost", async (doc) => {
    const block = scanMarkdown(readDoc(doc)).fences.find((fence) => fence.language === "ts" && fence.body.includes("localhostHostValidation()"));
    expect(block).toBeDefined();
    const { outputText } = ts.transpileModule(`${block!.body}\nexport { http, endpoint };\n`, {
      compilerOptions: { ...compilerOptions(), module: ts.ModuleKind.ESNext, noEmit: false, verbatimModuleSyntax: false },
    });
    const file = join(PROGRAMS_FOLDER, `node-deployment-${doc.includes("pt-BR") ? "pt" : "en"}.mjs`);
    writeFileSync(file, outputText);
    const { http, endpoint } = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as { http: Server; endpoint: URL };
    try {
      expect(await status(endpoint, { host: "evil.example", origin: "http://evil.example" })).toBe(403);
      expect(await status(endpoint, { host: "evil.example" })).toBe(403);
      expect(await status(endpoint, { host: endpoint.host, origin: "http://evil.example" })).toBe(403);
      expect(await status(endpoint, { host: endpoint.host })).toBe(200);
      expect(await status(endpoint, { host: `localhost:${endpoint.port}`, origin: `http://localhost:${endpoint.port}` })).toBe(200);
    } finally {
      http.close();
    }
  });
});

describe("extractPrograms", () => {
  it("groups ts blocks by section, in order, and skips other languages", () => {
    const markdown = [
      "# Title",
      "```ts",
      "const top = 1;",
      "```",
      "## One",
      "```sh",
      "npm test",
      "```",
      "```ts",
      "const a = 1;",
      "```",
      "### Sub",
      "```typescript",
      "const b = a;",
      "```",
      "## Two",
      "```json",
      "{}",
      "```",
    ].join("\n");
    expect(extractPrograms(markdown)).toStrictEqual([
      { section: "Title", source: "const top = 1;" },
      { section: "One", source: "const a = 1;\n\nconst b = a;" },
    ]);
  });
});

describe("joinBlocks", () => {
  it("merges the blocks' imports on top, once each, and keeps the bodies in order", () => {
    const blocks = [
      'import { a, type B } from "m";\nimport "side";\nconst one: B = a;',
      'import assert from "node:assert/strict";\nimport { a, c } from "m";\nimport type { D } from "n";\nimport * as ns from "o";\nassert.ok(one);',
    ];
    expect(joinBlocks(blocks)).toBe(
      [
        'import "side";',
        'import * as ns from "o";',
        'import { a, type B, c } from "m";',
        'import assert from "node:assert/strict";',
        'import { type D } from "n";',
        "const one: B = a;",
        "assert.ok(one);",
      ].join("\n\n"),
    );
  });
});
