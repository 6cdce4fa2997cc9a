import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const MEMORY_MODULE = fileURLToPath(new URL("../../src/folder/memory.js", import.meta.url));

describe("releaseMemory", () => {
  it("collects the garbage an indexing leaves, so its buffers go back to the system", () => {
    // In a fresh process, as the server runs: vitest's worker keeps its own references around.
    const script = `const { releaseMemory } = await import(${JSON.stringify(MEMORY_MODULE)});
      const buffers = []; for (let i = 0; i < 500; i++) buffers.push(new Uint8Array(100_000).fill(1));
      buffers.length = 0; const before = process.memoryUsage().arrayBuffers;
      releaseMemory();
      // V8's sweepers hand the dead buffers back on their own threads, just after the collection.
      for (let waited = 0; before - process.memoryUsage().arrayBuffers < 40 * 2 ** 20 && waited < 2000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      console.log(before - process.memoryUsage().arrayBuffers);`;
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(Number(run.stdout)).toBeGreaterThan(40 * 2 ** 20);
  });

  it("writes nothing to a fresh process's stderr", () => {
    // A fresh process: setting a V8 flag at run time must not print anything.
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", `const { releaseMemory } = await import(${JSON.stringify(MEMORY_MODULE)}); releaseMemory(); releaseMemory();`], { encoding: "utf8" });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
  });
});
