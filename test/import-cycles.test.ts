/**
 * No import cycles in the library or the CLI, type-only imports included: the graph is read with
 * the TypeScript compiler's own pre-processor (`ts.preProcessFile` lists every `import`,
 * `import type`, `export … from` and `import()`), and its strongly connected components are found
 * with Tarjan's algorithm. The CLI's imports of the library by name lead to the library's entries.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ts } from "./_typescript.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FOLDERS = ["src", "packages/cli/src"];
/** The library's public names, as the CLI imports them. */
const PACKAGE_ENTRIES: Readonly<Record<string, string>> = {
  "@sbissoli/mcp-search": "src/index.ts",
  "@sbissoli/mcp-search/site": "src/site/index.ts",
  "@sbissoli/mcp-search/site/sitemap": "src/site/sitemap.ts",
  "@sbissoli/mcp-search/site/dates": "src/site/dates.ts",
};

/**
 * The cycles left while issue 13 moves the factory, the locales and the intent feature: each
 * one is removed by that work, and this list must then be empty. A new cycle fails the test.
 */
const KNOWN_CYCLES: string[][] = [
];

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts"))
    .map((name) => join(folder, name).split("\\").join("/"));
}

/** The project files a file imports, as paths relative to the root; packages outside are left out. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), "utf8"), true, true);
  return importedFiles.flatMap(({ fileName }) => {
    const entry = PACKAGE_ENTRIES[fileName];
    if (entry !== undefined) return [entry];
    if (!fileName.startsWith(".")) return [];
    const target = relative(ROOT, resolve(ROOT, dirname(file), fileName)).split("\\").join("/");
    return [target.replace(/\.js$/, ".ts")];
  });
}

/** Builds the graph of the given files: each file to the project files it imports. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  return new Map(files.map((file) => [file, importsOf(file)]));
}

/** The cycles of a graph: each strongly connected component with more than one file, or a self-import. */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

describe("the import graph", () => {
  it("finds a cycle, type-only imports included, in a graph that has one", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts", "d.ts"]],
      ["d.ts", []],
      ["e.ts", ["e.ts"]],
    ]);
    expect(findCycles(graph)).toStrictEqual([["a.ts", "b.ts", "c.ts"], ["e.ts"]]);
    const { importedFiles } = ts.preProcessFile('import type { A } from "./a.js";\nexport type { B } from "./b.js";\nawait import("./c.js");', true, true);
    expect(importedFiles.map((file) => file.fileName)).toStrictEqual(["./a.js", "./b.js", "./c.js"]);
  });

  it("reads every file of the library and the CLI, and the CLI reaches the library by name", () => {
    const graph = importGraph(FOLDERS.flatMap(sourceFiles));
    expect(graph.get("src/index.ts")).toContain("src/factory/register.ts");
    expect([...graph.values()].flat().filter((target) => !graph.has(target))).toStrictEqual([]);
    expect([...graph.entries()].some(([file, targets]) => file.startsWith("packages/cli/") && targets.includes("src/index.ts"))).toBe(true);
  });

  it("has no cycle in src/ or packages/cli/src but the known ones, which the restructuring removes", () => {
    expect(findCycles(importGraph(FOLDERS.flatMap(sourceFiles)))).toStrictEqual(KNOWN_CYCLES);
  });
});
