/**
 * What importing the library costs a server, measured as a user pays it: a fresh `node` process
 * that imports the BUILT main entry (dist/, resolved through the package's own name and exports
 * map; `npm run build` first), against one that imports `@modelcontextprotocol/server` alone.
 * Each sample is one whole process, start-up included, so the difference between two rows is
 * the import time of what one loads and the other does not. After vitest's table, the medians
 * are printed again with the two ratios that matter: server + library over server alone, and
 * the library's own import time (minus node's start-up) over the server's.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { afterAll, bench, describe } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
if (!existsSync(new URL("../dist/index.js", import.meta.url))) throw new Error("bench/import.bench.ts reads dist/: run `npm run build` first.");

/** Milliseconds of each sample, by row. */
const samples = new Map<string, number[]>();

/** Runs a fresh node process that imports the given packages in order, from the repository root. */
function importInFreshNode(...specifiers: string[]): void {
  const script = specifiers.map((specifier) => `await import(${JSON.stringify(specifier)});`).join("\n");
  const start = performance.now();
  execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT, stdio: "ignore" });
  const row = specifiers.join(" + ") || "node";
  samples.set(row, [...(samples.get(row) ?? []), performance.now() - start]);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

afterAll(() => {
  const m = (row: string) => median(samples.get(row) ?? [Number.NaN]);
  const node = m("node");
  const server = m("@modelcontextprotocol/server");
  const library = m("@sbissoli/mcp-search");
  const both = m("@modelcontextprotocol/server + @sbissoli/mcp-search");
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  console.log(
    [
      "import time, median of a fresh process:",
      `  node start-up alone                  ${ms(node)}`,
      `  @modelcontextprotocol/server alone   ${ms(server)} (${ms(server - node)} beyond start-up)`,
      `  @sbissoli/mcp-search alone           ${ms(library)} (${ms(library - node)} beyond start-up)`,
      `  server + @sbissoli/mcp-search        ${ms(both)} (${ms(both - node)} beyond start-up)`,
      `  ratio server + library / server alone: ${(both / server).toFixed(2)}`,
      `  ratio library / server, start-up removed: ${((library - node) / (server - node)).toFixed(2)}`,
    ].join("\n"),
  );
});

const options = { iterations: 15, warmupIterations: 2, time: 0, warmupTime: 0 };

describe("import time in a fresh node process", () => {
  bench("node alone (start-up, no import)", () => importInFreshNode(), options);
  bench("@modelcontextprotocol/server alone", () => importInFreshNode("@modelcontextprotocol/server"), options);
  bench("@sbissoli/mcp-search alone (main entry)", () => importInFreshNode("@sbissoli/mcp-search"), options);
  bench(
    "@modelcontextprotocol/server + @sbissoli/mcp-search",
    () => importInFreshNode("@modelcontextprotocol/server", "@sbissoli/mcp-search"),
    options,
  );
});
