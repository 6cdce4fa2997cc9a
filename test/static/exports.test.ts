/**
 * No `export` that nothing imports, in the library's src/ and the CLI's packages/cli/src/: an
 * internal name is exported only when another file (source, test or bench) imports it. The
 * public API is whatever the package's entries export (src/index.ts and the subpath entries),
 * and the CLI's entries are its bin and its formats worker; everything they re-export counts as
 * imported. Read from the syntax alone (no type checker): imports, re-exports, `import("…")` with
 * the names taken from it, and `import("…").Name` in types. `npm run check:static` runs it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import type ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT } from "../_docs.js";
import { ts as typescript } from "../_typescript.js";

/** The files whose exports are checked. */
const SOURCES = ["src", "packages/cli/src"];
/** The files that import them besides each other. */
const CONSUMERS = ["test", "bench", "packages/cli/test", "packages/cli/bench"];
/** What the packages expose: the library's entries (package.json `exports`) and the CLI's (its tsup entries). */
const ENTRIES = ["src/index.ts", "src/site/index.ts", "src/site/sitemap.ts", "src/site/dates.ts", "packages/cli/src/cli/main.ts", "packages/cli/src/formats/worker.ts"];
/**
 * Exports no file imports that stay, each with its reason:
 * - a type the declarations of an exported function name, though no source does (an inferred
 *   return type): without its export, the library's .d.ts build fails (TS4058).
 */
const KEPT: ReadonlySet<string> = new Set([
  "src/locales/types.ts: CatalogueTexts", // settings() in src/site/catalogue-lines.ts returns it
]);

/** Every name a module exports, and where each re-exported one comes from. */
interface ModuleExports {
  /** Names declared here and exported (`export function f`, `export { f }`). */
  readonly own: Set<string>;
  /** `export { a as b } from "./x.js"`: b → the file and name it re-exports. */
  readonly forwarded: Map<string, { readonly file: string; readonly name: string }>;
  /** `export * from "./x.js"`: files whose every export this one exports too. */
  readonly all: string[];
}

/** One use of a module: the names taken from it, or "*" for all of them. */
interface Use {
  readonly file: string;
  readonly name: string;
}

function typeScriptFiles(folder: string): string[] {
  const entries = readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" });
  return entries
    .filter((entry) => /\.(ts|mts)$/.test(entry) && !entry.endsWith(".d.ts") && !entry.split("/").includes("node_modules"))
    .map((entry) => join(ROOT, folder, entry));
}

/** The source file a relative specifier names (`./x.js` → `./x.ts`, `./dir` → `./dir/index.ts`), if any. */
function resolveSpecifier(from: string, specifier: string, known: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const base = resolve(dirname(from), specifier);
  const candidates = [base.replace(/\.(m?)js$/, ".$1ts"), `${base}.ts`, join(base, "index.ts"), base];
  return candidates.find((candidate) => known.has(candidate));
}

const isExported = (node: ts.Node): boolean =>
  typescript.canHaveModifiers(node) && (typescript.getModifiers(node) ?? []).some((modifier) => modifier.kind === typescript.SyntaxKind.ExportKeyword);

/** The exports of `source` and the uses it makes of other modules. */
function readModule(file: string, source: ts.SourceFile, known: ReadonlySet<string>): { exports: ModuleExports; uses: Use[] } {
  const exports: ModuleExports = { own: new Set(), forwarded: new Map(), all: [] };
  const uses: Use[] = [];
  const target = (specifier: ts.Expression | undefined) =>
    specifier !== undefined && typescript.isStringLiteral(specifier) ? resolveSpecifier(file, specifier.text, known) : undefined;

  for (const statement of source.statements) {
    if (typescript.isImportDeclaration(statement)) {
      const from = target(statement.moduleSpecifier);
      const clause = statement.importClause;
      if (from === undefined || clause === undefined) continue;
      if (clause.name !== undefined) uses.push({ file: from, name: "default" });
      const bindings = clause.namedBindings;
      if (bindings !== undefined && typescript.isNamespaceImport(bindings)) uses.push({ file: from, name: "*" });
      else for (const element of bindings?.elements ?? []) uses.push({ file: from, name: (element.propertyName ?? element.name).text });
    } else if (typescript.isExportDeclaration(statement)) {
      const from = target(statement.moduleSpecifier);
      if (statement.moduleSpecifier !== undefined && from === undefined) continue; // a package's names
      const clause = statement.exportClause;
      if (clause === undefined) exports.all.push(from as string);
      else if (typescript.isNamespaceExport(clause)) {
        exports.own.add(clause.name.text);
        uses.push({ file: from as string, name: "*" });
      } else {
        for (const element of clause.elements) {
          const name = (element.propertyName ?? element.name).text;
          if (from === undefined) exports.own.add(element.name.text);
          else exports.forwarded.set(element.name.text, { file: from, name });
        }
      }
    } else if (typescript.isExportAssignment(statement)) {
      exports.own.add("default");
    } else if (isExported(statement)) {
      if (typescript.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations) {
          if (typescript.isIdentifier(declaration.name)) exports.own.add(declaration.name.text);
        }
      } else {
        const named = statement as ts.DeclarationStatement;
        const isDefault = (typescript.getModifiers(named as ts.HasModifiers) ?? []).some((modifier) => modifier.kind === typescript.SyntaxKind.DefaultKeyword);
        if (isDefault) exports.own.add("default");
        else if (named.name !== undefined && typescript.isIdentifier(named.name)) exports.own.add(named.name.text);
      }
    }
  }

  // `import("./x.js")` in code and in types: the names read from it when they are plain to see.
  const visit = (node: ts.Node): void => {
    if (typescript.isCallExpression(node) && node.expression.kind === typescript.SyntaxKind.ImportKeyword) {
      const from = target(node.arguments[0]);
      if (from !== undefined) uses.push(...namesTaken(node).map((name) => ({ file: from, name })));
    } else if (typescript.isImportTypeNode(node) && typescript.isLiteralTypeNode(node.argument)) {
      const from = target(node.argument.literal as ts.Expression);
      if (from !== undefined) {
        const qualifier = node.qualifier;
        const first = qualifier === undefined ? "*" : typescript.isIdentifier(qualifier) ? qualifier.text : firstName(qualifier);
        uses.push({ file: from, name: first });
      }
    }
    typescript.forEachChild(node, visit);
  };
  visit(source);
  return { exports, uses };
}

function firstName(name: ts.QualifiedName): string {
  let left: ts.EntityName = name;
  while (typescript.isQualifiedName(left)) left = left.left;
  return left.text;
}

/** The names taken from a dynamic import: `const { a } = await import(…)`, `(await import(…)).a`; else "*". */
function namesTaken(call: ts.CallExpression): string[] {
  let node: ts.Node = call;
  if (typescript.isAwaitExpression(node.parent)) node = node.parent;
  while (typescript.isParenthesizedExpression(node.parent)) node = node.parent;
  const parent = node.parent;
  if (typescript.isPropertyAccessExpression(parent) && parent.expression === node) return [parent.name.text];
  if (typescript.isVariableDeclaration(parent) && typescript.isObjectBindingPattern(parent.name)) {
    const names = parent.name.elements.map((element) => {
      const property = element.propertyName ?? element.name;
      return typescript.isIdentifier(property) ? property.text : "*";
    });
    return names;
  }
  return ["*"];
}

/**
 * Every `file: name` exported from SOURCES that no other file imports and no entry re-exports;
 * `planted` adds files (relative path → text) to the tree read from disk.
 */
function unusedExports(planted: Readonly<Record<string, string>> = {}): string[] {
  const extra = new Map(Object.entries(planted).map(([path, text]) => [join(ROOT, path), text]));
  const isSource = (file: string) => SOURCES.some((folder) => file.startsWith(join(ROOT, folder, "/")));
  const sources = [...SOURCES.flatMap(typeScriptFiles), ...[...extra.keys()].filter(isSource)];
  const consumers = [...CONSUMERS.flatMap(typeScriptFiles), ...[...extra.keys()].filter((file) => !isSource(file))];
  const known = new Set([...sources, ...consumers]);
  const modules = new Map<string, ModuleExports>();
  const used = new Set<string>();
  const pending: Use[] = [];

  for (const file of known) {
    const source = typescript.createSourceFile(file, extra.get(file) ?? readFileSync(file, "utf8"), typescript.ScriptTarget.Latest, true);
    const { exports, uses } = readModule(file, source, known);
    modules.set(file, exports);
    // A file's use of its own exports is no import.
    pending.push(...uses.filter((use) => use.file !== file));
  }
  for (const entry of ENTRIES) pending.push({ file: join(ROOT, entry), name: "*" });

  const key = (file: string, name: string) => `${file}\0${name}`;
  for (let use = pending.pop(); use !== undefined; use = pending.pop()) {
    if (used.has(key(use.file, use.name))) continue;
    used.add(key(use.file, use.name));
    const module = modules.get(use.file);
    if (module === undefined) continue;
    if (use.name === "*") {
      for (const name of module.own) used.add(key(use.file, name));
      for (const [name, origin] of module.forwarded) {
        used.add(key(use.file, name));
        pending.push(origin);
      }
      for (const file of module.all) pending.push({ file, name: "*" });
      continue;
    }
    const origin = module.forwarded.get(use.name);
    if (origin !== undefined) pending.push(origin);
    else if (!module.own.has(use.name)) for (const file of module.all) pending.push({ file, name: use.name });
  }

  const unused: string[] = [];
  for (const file of sources) {
    const module = modules.get(file);
    for (const name of [...(module?.own ?? []), ...(module?.forwarded.keys() ?? [])]) {
      if (!used.has(key(file, name))) unused.push(`${relative(ROOT, file)}: ${name}`);
    }
  }
  return unused.sort();
}

describe("exports", () => {
  it("exports from src/ and packages/cli/src/ only what another file imports", () => {
    expect(unusedExports().filter((found) => !KEPT.has(found))).toStrictEqual([]);
  });

  it("finds a planted export that nothing imports, and follows imports, re-exports and import() to the others", () => {
    const found = unusedExports({
      "packages/cli/src/canary/planted.ts": [
        "export const unused = 1;",
        "export function imported() {}",
        "export function reexported() {}",
        "export function loaded() {}",
        "export interface Typed {}",
        "const local = 2;",
        "export { local };",
      ].join("\n"),
      "packages/cli/src/canary/barrel.ts": 'export { reexported as again } from "./planted.js";\n',
      "packages/cli/test/canary.test.ts": [
        'import { imported } from "../src/canary/planted.js";',
        'import { again } from "../src/canary/barrel.js";',
        'const { loaded } = await import("../src/canary/planted.js");',
        'type T = import("../src/canary/planted.js").Typed;',
      ].join("\n"),
    }).filter((name) => name.includes("/canary/"));
    expect(found).toStrictEqual(["packages/cli/src/canary/planted.ts: local", "packages/cli/src/canary/planted.ts: unused"]);
  });
});
