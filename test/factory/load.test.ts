/**
 * A smaller load than the benchmark (bench/load.bench.ts: 10,000 in memory, 1,000 over stdio),
 * asserting correctness only: every concurrent call, mixed search and fetch, some failing, gets
 * exactly the answer to its own request. Speed is measured in the benchmark, never here.
 */
import { describe, expect, it } from "vitest";
import { connectInMemory, connectStdio, fireConcurrently, planCall } from "../_load.js";

describe("concurrent tools/call on one server", () => {
  it("plans calls whose checks refuse another call's answer", () => {
    const first = planCall("r", 0);
    const other = { structuredContent: { results: [{ id: "echo:q r-5", title: "q r-5", url: "https://example.com/echo" }] } };
    expect(first.check(other)).toBe(false);
    expect(planCall("r", 1).check({ structuredContent: { id: "doc:r-6", text: "Texto de doc:r-6" } })).toBe(false);
  });

  it("answers 2,000 concurrent calls in memory, each with its own answer", async () => {
    const { client, close } = await connectInMemory();
    try {
      expect(await fireConcurrently(client, "memory", 2_000)).toStrictEqual({ correct: 2_000, wrong: [] });
    } finally {
      await close();
    }
  });

  it("answers 300 concurrent calls over stdio, each with its own answer", async () => {
    const { client, close } = await connectStdio();
    try {
      expect(await fireConcurrently(client, "stdio", 300)).toStrictEqual({ correct: 300, wrong: [] });
    } finally {
      await close();
    }
  });
});
