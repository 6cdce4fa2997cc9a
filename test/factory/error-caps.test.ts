import { describe, expect, it } from "vitest";
import { capErrorText, MAX_ERROR_CHARS } from "../../src/factory/outcomes.js";
import { connect, textOf } from "../_register-helpers.js";

/**
 * Error texts are capped like replies: a thrown message, `onError`'s and `notFound`'s texts reach
 * the client cut at MAX_ERROR_CHARS, ending in "…". Before the cap, a 100-million-character
 * message made the in-memory client see "Invalid string length", and a stdio client no answer.
 */
const HUGE = "x".repeat(100_000_000);

describe("capErrorText", () => {
  it.each([
    ["a short text", "fine", "fine"],
    ["exactly the cap", "y".repeat(MAX_ERROR_CHARS), "y".repeat(MAX_ERROR_CHARS)],
    ["one over the cap", "y".repeat(MAX_ERROR_CHARS + 1), `${"y".repeat(MAX_ERROR_CHARS - 1)}…`],
    ["a surrogate pair at the cut", `${"y".repeat(MAX_ERROR_CHARS - 2)}😀zz`, `${"y".repeat(MAX_ERROR_CHARS - 2)}…`],
  ])("%s", (_name, input, expected) => {
    expect(capErrorText(input)).toBe(expected);
  });
});

describe("registerDeepResearchTools: error texts are capped", () => {
  it("cuts a thrown 100M-character message to a few KiB ending in …", async () => {
    const { client } = await connect({
      search: () => {
        throw new Error(HUGE);
      },
    });
    const result = await client.callTool({ name: "search", arguments: { query: "x" } });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text.length).toBeLessThanOrEqual(MAX_ERROR_CHARS);
    expect(text).toMatch(/x…$/);
  });

  it("cuts onError's and notFound's texts the same way", async () => {
    const { client } = await connect({
      search: () => {
        throw new Error("boom");
      },
      onError: () => HUGE,
      fetch: () => null,
      notFound: () => HUGE,
    });
    for (const [name, args] of [
      ["search", { query: "x" }],
      ["fetch", { id: "doc:none" }],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, name).toBe(true);
      expect(textOf(result), name).toBe(`${"x".repeat(MAX_ERROR_CHARS - 1)}…`);
    }
  });
});
