/**
 * Shared by the documentation tests: the public API of src/index.ts and src/site/index.ts as the TypeScript checker
 * sees it, built once per test file. Not a test file itself.
 */
import { fileURLToPath } from "node:url";
import ts from "typescript";

/** The package's entries: the main one and the `./site` subpath. */
const ENTRIES = ["../src/index.ts", "../src/site/index.ts"].map((path) => fileURLToPath(new URL(path, import.meta.url)));

export interface PublicApi {
  readonly checker: ts.TypeChecker;
  /** Each export of src/index.ts with the symbol it re-exports (aliases followed). */
  readonly exports: ReadonlyArray<{ readonly name: string; readonly target: ts.Symbol }>;
}

let cached: PublicApi | undefined;

/** Loads src/index.ts with the checker (about two seconds), once. */
export function loadPublicApi(): PublicApi {
  if (cached !== undefined) return cached;
  const program = ts.createProgram(ENTRIES, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const exports = ENTRIES.flatMap((entry) => checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(entry)!)!)).map((symbol) => ({
    name: symbol.name,
    target: symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol,
  }));
  cached = { checker, exports };
  return cached;
}
