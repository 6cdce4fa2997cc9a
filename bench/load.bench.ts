/**
 * Load: one McpServer, 10,000 concurrent `tools/call` in memory and 1,000 over stdio (the echo
 * server spawned from the built package), mixed search and fetch, two kinds in five failing on
 * purpose. Every answer must be the one to its own request, or the run throws. After the runs,
 * with `--expose-gc` (set by `npm run bench`), the heap must come back near its baseline.
 * Calls per second = hz × calls per iteration; the teardown prints it.
 */
import { bench, describe } from "vitest";
import { connectInMemory, connectStdio, fireConcurrently } from "../test/_load.js";

const IN_MEMORY_CALLS = 10_000;
const STDIO_CALLS = 1_000;
const gc = (globalThis as { gc?: () => void }).gc;

function heapAfterGc(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

const measured: { label: string; calls: number; ms: number }[] = [];
let run = 0;

async function measure(label: string, connect: typeof connectInMemory, calls: number): Promise<void> {
  const { client, close } = await connect();
  try {
    const started = performance.now();
    const { correct, wrong } = await fireConcurrently(client, `${label}-${run++}`, calls);
    measured.push({ label, calls, ms: performance.now() - started });
    if (correct !== calls) throw new Error(`${label}: ${wrong.length} wrong answers, e.g. ${wrong[0]}`);
  } finally {
    await close();
  }
}

const baseline = heapAfterGc();

describe("load: concurrent tools/call on one McpServer", () => {
  bench(`${IN_MEMORY_CALLS.toLocaleString("en")} calls in memory`, () => measure("in memory", connectInMemory, IN_MEMORY_CALLS), {
    iterations: 5,
    warmupIterations: 1,
  });
  bench(`${STDIO_CALLS.toLocaleString("en")} calls over stdio`, () => measure("stdio", connectStdio, STDIO_CALLS), {
    iterations: 3,
    warmupIterations: 1,
    teardown: (_task, mode) => {
      if (mode === "run") report();
    },
  });
});

/** Prints calls per second and the heap against its baseline; throws if the heap stayed up. */
function report(): void {
  for (const label of ["in memory", "stdio"]) {
    const runs = measured.filter((entry) => entry.label === label);
    const calls = runs.reduce((sum, entry) => sum + entry.calls, 0);
    const ms = runs.reduce((sum, entry) => sum + entry.ms, 0);
    process.stderr.write(`load ${label}: ${calls} calls, all correct, ${Math.round((calls / ms) * 1000)} calls/s\n`);
  }
  const after = heapAfterGc();
  const grown = (after - baseline) / 1024 / 1024;
  process.stderr.write(`load heap: baseline ${(baseline / 1024 / 1024).toFixed(1)} MB, after ${(after / 1024 / 1024).toFixed(1)} MB (${grown >= 0 ? "+" : ""}${grown.toFixed(1)} MB)${gc === undefined ? " — run with --expose-gc for a real figure" : ""}\n`);
  if (gc !== undefined && grown > 32) throw new Error(`the heap did not return to its baseline: +${grown.toFixed(1)} MB`);
}
