/**
 * What the TypeScript checker says, from ONE program, so the types of zod and the MCP SDK are
 * read and checked once:
 *
 * - the type check: the repository (every file tsconfig.json includes: both packages' src, tests
 *   and benches) and every ```ts program of the documentation (../_doc-programs.ts);
 * - the TSDoc of the public API (below).
 *
 * `npm run check:static` runs this file (vitest.static.config.ts), and so does `.ci/run`, before
 * `npm test`; `npm test` leaves it out, since it is about half of the suite's CPU time.
 * `npx tsc --noEmit` is the same type check of the repository alone.
 */
import { writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { PROGRAMS_FOLDER, compilerOptions, writePrograms } from "../_doc-programs.js";
import { ROOT } from "../_docs.js";
import { loadPublicApi } from "../_public-api.js";

/** "declared but never read" and its kin: samples may show a name they do not use. */
const UNUSED_NAME_CODES = new Set([6133, 6138, 6192, 6196, 6198, 6199, 6205]);

const config = ts.readConfigFile(join(ROOT, "tsconfig.json"), (path) => ts.sys.readFile(path));
const REPOSITORY = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT).fileNames;
const DOC_PROGRAMS = writePrograms().map((program) => program.checked);
const CANARY = join(PROGRAMS_FOLDER, "canary.mts");
writeFileSync(CANARY, 'const wrong: number = "text";\nexport { wrong };\n');
const PROGRAM = ts.createProgram([...REPOSITORY, ...DOC_PROGRAMS, CANARY], compilerOptions());

function format(diagnostic: ts.Diagnostic): string {
  const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
  if (diagnostic.file === undefined) return text;
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
  return `${relative(ROOT, diagnostic.file.fileName)}:${line + 1}:${character + 1} ${text}`;
}

describe("the type check", () => {
  it("passes on the repository and on every documentation program, and catches a planted error", () => {
    expect(REPOSITORY.length).toBeGreaterThan(100);
    expect(DOC_PROGRAMS.length).toBeGreaterThan(15);
    const samples = new Set([...DOC_PROGRAMS, CANARY].map((file) => ts.sys.resolvePath(file)));
    const diagnostics = ts
      .getPreEmitDiagnostics(PROGRAM)
      .filter((diagnostic) => !(diagnostic.file !== undefined && samples.has(ts.sys.resolvePath(diagnostic.file.fileName)) && UNUSED_NAME_CODES.has(diagnostic.code)))
      .map(format);
    // The checker really runs: the canary's one error is found, and nothing else is.
    expect(diagnostics).toStrictEqual([`${relative(ROOT, CANARY)}:1:7 Type 'string' is not assignable to type 'number'.`]);
  }, 120_000); // About 10 s of one core on an idle machine: the largest single test of the suite.
});

// Every public name carries TSDoc; functions and the main option types (`…Options`) carry an
// @example that teaches, and every optional field of an exported `…Options` interface says its
// @default. A trivial alias needs one honest line, not an example. Read with the TypeScript
// checker from src/index.ts and src/site/index.ts, following each re-export to the declaration a
// user's editor shows. The API reference (`npm run docs`) is generated from these comments.

function publicDeclarations(): Array<{ name: string; declaration: ts.Declaration; checker: ts.TypeChecker }> {
  const { checker, exports } = loadPublicApi(PROGRAM);
  return exports.flatMap(({ name, target }) => (target.declarations ?? []).map((declaration) => ({ name, declaration, checker })));
}

/** The JSDoc tags of a declaration, with a variable's tags read from its statement. */
function tagsOf(declaration: ts.Node): string[] {
  const tags = ts.getJSDocTags(declaration).map((tag) => tag.tagName.text);
  return tags;
}

function hasDoc(declaration: ts.Node): boolean {
  return ts.getJSDocCommentsAndTags(declaration).some((node) => ts.isJSDoc(node));
}

/** A function (declared, or a const holding one) or a main options type: what needs an example. */
function needsExample({ name, declaration }: { name: string; declaration: ts.Declaration }): boolean {
  if (name.endsWith("Options")) return true;
  if (ts.isFunctionDeclaration(declaration)) return true;
  return ts.isVariableDeclaration(declaration) && declaration.initializer !== undefined && (ts.isArrowFunction(declaration.initializer) || ts.isFunctionExpression(declaration.initializer));
}

function describeDeclaration({ name, declaration }: { name: string; declaration: ts.Declaration }): string {
  return `${name} (${declaration.getSourceFile().fileName.replace(/^.*\/src\//, "src/")})`;
}

const DECLARATIONS = publicDeclarations();


describe("TSDoc of the public API", () => {
  it("follows every export of src/index.ts to its declaration", () => {
    const names = new Set(DECLARATIONS.map(({ name }) => name));
    expect(names.size).toBeGreaterThan(60);
    expect(names).toContain("normalizeText"); // re-exported twice: index.ts → rank.ts → _normalize.ts
    expect(names).toContain("SearchIndex");
  });

  it("gives every export a /** … */ comment", () => {
    const missing = DECLARATIONS.filter(({ declaration }) => !hasDoc(declaration));
    expect(missing.map(describeDeclaration)).toStrictEqual([]);
  });

  it("gives every function and every …Options type an @example", () => {
    const teaching = DECLARATIONS.filter(needsExample);
    expect(teaching.length).toBeGreaterThan(20);
    expect(teaching.filter(({ declaration }) => !tagsOf(declaration).includes("example")).map(describeDeclaration)).toStrictEqual([]);
  });

  it("gives every optional field of an exported …Options interface a @default", () => {
    const missing: string[] = [];
    for (const { name, declaration } of DECLARATIONS) {
      if (!name.endsWith("Options") || !ts.isInterfaceDeclaration(declaration)) continue;
      for (const member of declaration.members) {
        if (!ts.isPropertySignature(member) || member.questionToken === undefined) continue;
        if (!tagsOf(member).includes("default")) missing.push(`${name}.${member.name.getText()}`);
      }
    }
    expect(missing).toStrictEqual([]);
  });

  it("gives every member of an exported interface a /** … */ comment, and SearchIndex.search an @example", () => {
    const missing: string[] = [];
    for (const { name, declaration } of DECLARATIONS) {
      if (!ts.isInterfaceDeclaration(declaration)) continue;
      for (const member of declaration.members) {
        if (member.name !== undefined && !hasDoc(member)) missing.push(`${name}.${member.name.getText()}`);
      }
    }
    // What an editor shows on hover.
    expect(missing).toStrictEqual([]);
    const search = DECLARATIONS.find(({ name }) => name === "SearchIndex")?.declaration as ts.InterfaceDeclaration | undefined;
    const searchMember = search?.members.find((member) => member.name?.getText() === "search");
    expect(searchMember !== undefined && tagsOf(searchMember).includes("example")).toBe(true);
  });

  it("asks an example of functions and options types, and only a comment of an alias", () => {
    const file = ts.createSourceFile(
      "probe.ts",
      "/** Documented.\n * @example\n * one(); // => 1\n */\nexport function one() { return 1; }\n/** No example. */\nexport function two() { return 2; }\n/** An alias. */\nexport type Three = 3;\nexport type Four = 4;\n/** Options. */\nexport interface FiveOptions { five?: 5 }\n",
      ts.ScriptTarget.Latest,
      true,
    );
    const [one, two, three, four, five] = file.statements as unknown as [ts.FunctionDeclaration, ts.FunctionDeclaration, ts.TypeAliasDeclaration, ts.TypeAliasDeclaration, ts.InterfaceDeclaration];
    const verdict = (name: string, declaration: ts.Declaration) =>
      hasDoc(declaration) && (!needsExample({ name, declaration }) || tagsOf(declaration).includes("example"));
    expect([verdict("one", one), verdict("two", two), verdict("Three", three), verdict("Four", four), verdict("FiveOptions", five)]).toStrictEqual([true, false, true, false, false]);
  });
});
