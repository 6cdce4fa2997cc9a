import { describe, expect, it } from "vitest";
import { releaseMemory } from "../src/memory.js";

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
});
