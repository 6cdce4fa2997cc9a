import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { PassThrough } from "node:stream";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { ALL_DOCS, ROOT, readDoc, scanMarkdown } from "./_docs.js";

// Every ```ts block of every document (both READMEs, docs/ and docs/pt-BR/, CONTRIBUTING.md) is
// type-checked and run, so the samples never rot. The blocks of one `##` section form ONE
// program, in order (a later block may use what an earlier one declared); their imports are
// merged at the top, so each block may show its own. Blocks fenced as anything else are exempt.
//
// All programs are type-checked by ONE TypeScript program, with the repository's tsconfig (whose
// `paths` map the package's names to src/). Then each is transpiled to an .mjs file in
// node_modules/.cache (so the MCP SDK, zod and the package itself resolve as they do for a
// user: the package's name reaches the dist/ that the global setup builds) and run in this
// process by a dynamic import: no process is spawned per program. A program that connects a
// StdioServerTransport gets one over in-memory streams instead of this process's stdio, and the
// test talks MCP to it as a host would.

const OUT = join(ROOT, "node_modules", ".cache", "doc-programs");
const CHECKED_LANGUAGES = new Set(["ts", "typescript"]);
const STDIO_SPECIFIER = "@modelcontextprotocol/server/stdio";

interface DocProgram {
  readonly doc: string;
  readonly section: string;
  /** The program as written in the document, blocks joined. */
  readonly source: string;
  /** The .mts file that is type-checked. */
  readonly checked: string;
  /** The .mjs file that is run. */
  readonly runnable: string;
}

/** The ```ts blocks of a Markdown text, grouped by `##` section, each group joined in order. */
export function extractPrograms(markdown: string): Array<{ section: string; source: string }> {
  const sections = new Map<string, string[]>();
  for (const fence of scanMarkdown(markdown).fences) {
    if (!CHECKED_LANGUAGES.has(fence.language)) continue;
    sections.set(fence.section, [...(sections.get(fence.section) ?? []), fence.body]);
  }
  return [...sections].map(([section, blocks]) => ({ section, source: joinBlocks(blocks) }));
}

/** Joins the blocks of one section: their import declarations merged on top, then the bodies. */
export function joinBlocks(blocks: readonly string[]): string {
  const named = new Map<string, { defaultName?: string; elements: Set<string> }>();
  const standalone = new Set<string>();
  const bodies = blocks.map((block) => {
    const file = ts.createSourceFile("block.ts", block, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
    const imports = file.statements.filter(ts.isImportDeclaration);
    for (const declaration of imports) {
      const from = declaration.moduleSpecifier.getText(file);
      const clause = declaration.importClause;
      const bindings = clause?.namedBindings;
      if (clause === undefined || (bindings !== undefined && ts.isNamespaceImport(bindings))) {
        standalone.add(declaration.getText(file));
        continue;
      }
      const entry = named.get(from) ?? { elements: new Set<string>() };
      if (clause.name !== undefined) entry.defaultName = clause.name.text;
      for (const element of bindings?.elements ?? []) {
        const text = element.getText(file);
        entry.elements.add(clause.isTypeOnly && !element.isTypeOnly ? `type ${text}` : text);
      }
      named.set(from, entry);
    }
    let body = block;
    for (const declaration of [...imports].reverse()) {
      body = body.slice(0, declaration.getStart(file)) + body.slice(declaration.getEnd());
    }
    return body.trim();
  });
  const merged = [...named].map(([from, { defaultName, elements }]) => {
    const list = elements.size > 0 ? `{ ${[...elements].join(", ")} }` : "";
    const head = [defaultName, list].filter((part) => part !== undefined && part !== "").join(", ");
    return `import ${head} from ${from};`;
  });
  return [...standalone, ...merged, "", ...bodies].join("\n\n").replace(/\n{3,}/g, "\n\n").trim();
}

function slug(text: string): string {
  return text.normalize("NFD").replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "").toLowerCase();
}

function compilerOptions(): ts.CompilerOptions {
  const config = ts.readConfigFile(join(ROOT, "tsconfig.json"), (path) => ts.sys.readFile(path));
  return ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT).options;
}

/** A StdioServerTransport over two in-memory streams, registered for the test to drive. */
const STDIO_SHIM = `import { PassThrough } from "node:stream";
import { StdioServerTransport as Real } from "${STDIO_SPECIFIER}";
export class StdioServerTransport extends Real {
  constructor() {
    const input = new PassThrough();
    const output = new PassThrough();
    super(input, output);
    (globalThis.__docStdio ??= []).push({ input, output });
  }
}
`;

function writePrograms(): DocProgram[] {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const shim = join(OUT, "stdio-shim.mjs");
  writeFileSync(shim, STDIO_SHIM);
  const options = compilerOptions();
  return ALL_DOCS.flatMap((doc) =>
    extractPrograms(readDoc(doc)).map(({ section, source }) => {
      const base = join(OUT, `${slug(doc)}--${slug(section)}`);
      const checked = `${base}.mts`;
      writeFileSync(checked, `${source}\n\nexport {};\n`);
      const { outputText } = ts.transpileModule(source, {
        compilerOptions: { ...options, module: ts.ModuleKind.ESNext, noEmit: false, verbatimModuleSyntax: false },
        fileName: checked,
      });
      const runnable = `${base}.mjs`;
      writeFileSync(runnable, outputText.replaceAll(JSON.stringify(STDIO_SPECIFIER), JSON.stringify(pathToFileURL(shim).href)));
      return { doc, section, source, checked, runnable };
    }),
  );
}

/** Type-checks files with the repository's tsconfig (unused names allowed in samples). */
function typeCheck(files: readonly string[]): string[] {
  const options = { ...compilerOptions(), noEmit: true, noUnusedLocals: false, noUnusedParameters: false };
  const program = ts.createProgram(files, options);
  const wanted = new Set(files.map((file) => ts.sys.resolvePath(file)));
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file !== undefined && wanted.has(ts.sys.resolvePath(diagnostic.file.fileName)))
    .map((diagnostic) => {
      const { line, character } = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
      return `${relative(OUT, diagnostic.file!.fileName)}:${line + 1}:${character + 1} ${text}`;
    });
}

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

  it("type-checks every program with the repository's strict tsconfig, in one TypeScript program", () => {
    const canary = join(OUT, "canary.mts");
    writeFileSync(canary, 'const wrong: number = "text";\nexport { wrong };\n');
    const diagnostics = typeCheck([...programs.map((program) => program.checked), canary]);
    // The checker really runs: the canary's one error is found, and nothing else is.
    expect(diagnostics).toStrictEqual(["canary.mts:1:7 Type 'string' is not assignable to type 'number'."]);
  });

  it.each(["README.md", "README.pt-BR.md"])("%s: the quick start is plain JavaScript too, as the README says", (doc) => {
    const quickStart = programs.find((program) => program.doc === doc && /^(?:Quick start|Início rápido)$/.test(program.section));
    expect(quickStart).toBeDefined();
    const jsDiagnostics = (source: string) => {
      const file = join(OUT, "plain-javascript.mjs");
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
      await import(/* @vite-ignore */ pathToFileURL(program.runnable).href);
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
