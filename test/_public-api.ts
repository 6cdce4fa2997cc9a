/**
 * Shared by the documentation tests: the public API of src/index.ts as the TypeScript checker
 * sees it, built once per test file. Not a test file itself.
 */
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ENTRY = fileURLToPath(new URL("../src/index.ts", import.meta.url));

export interface PublicApi {
  readonly checker: ts.TypeChecker;
  /** Each export of src/index.ts with the symbol it re-exports (aliases followed). */
  readonly exports: ReadonlyArray<{ readonly name: string; readonly target: ts.Symbol }>;
}

let cached: PublicApi | undefined;

/** Loads src/index.ts with the checker (about two seconds), once. */
export function loadPublicApi(): PublicApi {
  if (cached !== undefined) return cached;
  const program = ts.createProgram([ENTRY], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(ENTRY)!)!;
  const exports = checker.getExportsOfModule(moduleSymbol).map((symbol) => ({
    name: symbol.name,
    target: symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol,
  }));
  cached = { checker, exports };
  return cached;
}
