import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// Every ```ts block of both READMEs is type-checked and run, so the samples never rot. The blocks
// of one `##` section form ONE program, in order (a later block may use what an earlier one
// declared); their imports are merged at the top, so each block may show its own. Blocks fenced
// as anything else (sh, json, text) are exempt. The package's import is rewritten to the local
// src; the programs (.mts: always ESM, top-level await allowed) live in node_modules/.cache
// (gitignored), so the MCP SDK, zod and the rest resolve exactly as they do for the tests.

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const OUT = join(ROOT, "node_modules", ".cache", "readme-snippets");
const READMES = ["README.md", "README.pt-BR.md"] as const;
const CHECKED_LANGUAGES = new Set(["ts", "typescript"]);

interface ReadmeProgram {
  readonly readme: string;
  readonly section: string;
  readonly file: string;
  readonly source: string;
}

/** The ```ts blocks of a Markdown text, grouped by `##` section, each group joined in order. */
export function extractPrograms(markdown: string): Array<{ section: string; source: string }> {
  const sections = new Map<string, string[]>();
  let section = "(top)";
  let fence: { language: string; lines: string[] } | undefined;
  for (const line of markdown.split("\n")) {
    if (fence !== undefined) {
      if (line.trimEnd() === "```") {
        if (CHECKED_LANGUAGES.has(fence.language)) {
          sections.set(section, [...(sections.get(section) ?? []), fence.lines.join("\n")]);
        }
        fence = undefined;
      } else {
        fence.lines.push(line);
      }
      continue;
    }
    const opening = /^```(\S*)/.exec(line);
    if (opening !== null) fence = { language: opening[1] ?? "", lines: [] };
    else if (line.startsWith("## ")) section = line.slice(3).trim();
  }
  return [...sections].map(([name, blocks]) => ({ section: name, source: joinBlocks(blocks) }));
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

function writePrograms(): ReadmeProgram[] {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const entry = relative(OUT, join(ROOT, "src", "index.js")).split("\\").join("/");
  return READMES.flatMap((readme) =>
    extractPrograms(readFileSync(join(ROOT, readme), "utf8")).map(({ section, source }) => {
      const file = join(OUT, `${slug(readme)}--${slug(section)}.mts`);
      const rewritten = source.replaceAll(/(["'])@sbissoli\/mcp-search\1/g, JSON.stringify(entry));
      writeFileSync(file, `${rewritten}\n\nexport {};\n`);
      return { readme, section, file, source: rewritten };
    }),
  );
}

/** Type-checks files with the repository's tsconfig (unused names allowed in samples). */
function typeCheck(files: readonly string[]): string[] {
  const config = ts.readConfigFile(join(ROOT, "tsconfig.json"), (path) => ts.sys.readFile(path));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const options = { ...parsed.options, noEmit: true, noUnusedLocals: false, noUnusedParameters: false };
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

const run = promisify(execFile);
const programs = writePrograms();

describe("README samples", () => {
  it("finds the usage program in both READMEs", () => {
    const sections = programs.map((program) => `${program.readme} > ${program.section}`);
    expect(sections).toContain("README.md > Usage");
    expect(sections).toContain("README.pt-BR.md > Uso");
    for (const program of programs) expect(program.source).not.toContain("@sbissoli/mcp-search");
  });

  it("type-checks every ts program with the repository's strict tsconfig", () => {
    const canary = join(OUT, "canary.mts");
    writeFileSync(canary, 'const wrong: number = "text";\nexport { wrong };\n');
    const diagnostics = typeCheck([...programs.map((program) => program.file), canary]);
    // The checker really runs: the canary's one error is found, and nothing else is.
    expect(diagnostics).toStrictEqual([
      "canary.mts:1:7 Type 'string' is not assignable to type 'number'.",
    ]);
  });

  it.each(programs.map((program) => [`${program.readme} > ${program.section}`, program] as const))(
    "runs %s",
    async (_name, program) => {
      const { stdout } = await run(process.execPath, ["--import", "tsx", program.file], {
        cwd: ROOT,
        timeout: 20_000,
      });
      expect(typeof stdout).toBe("string");
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
      "text",
      "```typescript",
      "const b = a;",
      "```",
      "## Two",
      "```json",
      "{}",
      "```",
    ].join("\n");
    expect(extractPrograms(markdown)).toStrictEqual([
      { section: "(top)", source: "const top = 1;" },
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
