import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { releaseMemory } from "../src/memory.js";

const MEMORY_MODULE = fileURLToPath(new URL("../src/memory.ts", import.meta.url));

/** Allocates about 48 MB of buffers and drops them: garbage no collection has seen yet. */
function makeGarbage(): number {
  const buffers: Uint8Array[] = [];
  for (let i = 0; i < 500; i++) buffers.push(new Uint8Array(100_000).fill(1));
  return buffers.length;
}

describe("releaseMemory", () => {
  it("collects the garbage an indexing leaves, so its buffers go back to the system, and leaves process.emitWarning as it was", () => {
    const emitWarning = process.emitWarning;
    makeGarbage();
    const before = process.memoryUsage().arrayBuffers;
    releaseMemory();
    expect(before - process.memoryUsage().arrayBuffers).toBeGreaterThan(40 * 2 ** 20);
    expect(process.emitWarning).toBe(emitWarning);
  });

  it("writes nothing to a fresh process's stderr (Node warns once per process about the experimental call it uses)", () => {
    // A fresh process: in this one, the one-time warning may already have been spent.
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", `const { releaseMemory } = await import(${JSON.stringify(MEMORY_MODULE)}); releaseMemory(); releaseMemory();`], { encoding: "utf8" });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
  });
});
