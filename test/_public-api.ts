/**
 * Shared by the documentation tests: the public API of every entry (src/index.ts, src/site/index.ts,
 * src/site/sitemap.ts, src/site/dates.ts) as the TypeScript checker
 * sees it, in a program that test/static/types.test.ts shares with the type check. Not a test file itself.
 */
import { fileURLToPath } from "node:url";
import ts from "typescript";

/** The package's entries: the main one, the `./site` subpath and its two parser subpaths. */
const ENTRIES = ["../src/index.ts", "../src/site/index.ts", "../src/site/sitemap.ts", "../src/site/dates.ts"].map((path) => fileURLToPath(new URL(path, import.meta.url)));

export interface PublicApi {
  readonly checker: ts.TypeChecker;
  /** Each export of src/index.ts with the symbol it re-exports (aliases followed). */
  readonly exports: ReadonlyArray<{ readonly name: string; readonly target: ts.Symbol }>;
}

/** The exports of both entries, read with the checker of `program` (which must include them). */
export function loadPublicApi(program: ts.Program): PublicApi {
  const checker = program.getTypeChecker();
  const exports = ENTRIES.flatMap((entry) => checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(entry)!)!)).map((symbol) => ({
    name: symbol.name,
    target: symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol,
  }));
  return { checker, exports };
}
