/**
 * Shared by the documentation tests: every ```ts block of every document (both READMEs, docs/
 * and docs/pt-BR/, CONTRIBUTING.md), as programs. The blocks of one `##` section form ONE
 * program, in order (a later block may use what an earlier one declared); their imports are
 * merged at the top, so each block may show its own. Blocks fenced as anything else are exempt.
 *
 * Each program is written twice under node_modules/.cache (so the MCP SDK, zod and the package
 * itself resolve as they do for a user): an .mts file that test/static/types.test.ts type-checks
 * with the repository, and an .mjs file that test/docs-programs.test.ts runs in its process.
 * Not a test file itself.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { CompilerOptions } from "typescript";
import { ALL_DOCS, ROOT, readDoc, scanMarkdown } from "./_docs.js";
import { ts } from "./_typescript.js";

export const PROGRAMS_FOLDER = join(ROOT, "node_modules", ".cache", "doc-programs");
const CHECKED_LANGUAGES = new Set(["ts", "typescript"]);
export const STDIO_SPECIFIER = "@modelcontextprotocol/server/stdio";
export const OAUTH_PROVIDER_SPECIFIER = "@cloudflare/workers-oauth-provider";

export interface DocProgram {
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

export function compilerOptions(): CompilerOptions {
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

/**
 * Cloudflare's OAuth provider imports `cloudflare:workers`, a module only workerd has, for its
 * WorkerEntrypoint base class (it tells a class handler from an object one). The programs run in
 * Node, so they get a copy of the provider that imports this stand-in instead; the Worker itself
 * runs under workerd in test/extra/deployments.test.ts.
 */
const WORKER_ENTRYPOINT_SHIM = `export class WorkerEntrypoint {
  constructor(ctx, env) {
    this.ctx = ctx;
    this.env = env;
  }
}
`;

/** Writes the provider's copy that imports the stand-in, and returns its path. */
function writeOAuthProviderCopy(): string {
  const shim = join(PROGRAMS_FOLDER, "cloudflare-workers-shim.mjs");
  writeFileSync(shim, WORKER_ENTRYPOINT_SHIM);
  const original = createRequire(join(ROOT, "package.json")).resolve(OAUTH_PROVIDER_SPECIFIER);
  const copy = join(PROGRAMS_FOLDER, "workers-oauth-provider.mjs");
  const source = readFileSync(original, "utf8");
  if (!source.includes('from "cloudflare:workers"')) throw new Error(`${original} no longer imports cloudflare:workers: update ./_doc-programs.ts`);
  writeFileSync(copy, source.replaceAll('from "cloudflare:workers"', `from ${JSON.stringify(pathToFileURL(shim).href)}`));
  return copy;
}

/** Writes every program of every document, in both forms, and lists them. */
export function writePrograms(): DocProgram[] {
  // No rmSync: two test files may write the same (identical) files at once.
  mkdirSync(PROGRAMS_FOLDER, { recursive: true });
  const shim = join(PROGRAMS_FOLDER, "stdio-shim.mjs");
  writeFileSync(shim, STDIO_SHIM);
  const provider = writeOAuthProviderCopy();
  const options = compilerOptions();
  return ALL_DOCS.flatMap((doc) =>
    extractPrograms(readDoc(doc)).map(({ section, source }) => {
      const base = join(PROGRAMS_FOLDER, `${slug(doc)}--${slug(section)}`);
      const checked = `${base}.mts`;
      writeFileSync(checked, `${source}\n\nexport {};\n`);
      const { outputText } = ts.transpileModule(source, {
        compilerOptions: { ...options, module: ts.ModuleKind.ESNext, noEmit: false, verbatimModuleSyntax: false },
        fileName: checked,
      });
      const runnable = `${base}.mjs`;
      const local = outputText
        .replaceAll(JSON.stringify(STDIO_SPECIFIER), JSON.stringify(pathToFileURL(shim).href))
        .replaceAll(JSON.stringify(OAUTH_PROVIDER_SPECIFIER), JSON.stringify(pathToFileURL(provider).href));
      writeFileSync(runnable, local);
      return { doc, section, source, checked, runnable };
    }),
  );
}
