/** The sequencer's list of slow files names files that exist, each once. */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SLOWEST_FILES } from "./sequencer.js";

describe("SLOWEST_FILES", () => {
  it("names test files of the suite, each once", () => {
    for (const file of SLOWEST_FILES) {
      expect(file).toMatch(/^(test|packages\/cli\/test)\/.+\.test\.ts$/);
      expect(existsSync(fileURLToPath(new URL(`../${file}`, import.meta.url))), file).toBe(true);
    }
    expect(new Set(SLOWEST_FILES).size).toBe(SLOWEST_FILES.length);
  });
});
