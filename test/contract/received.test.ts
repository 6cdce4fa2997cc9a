import { describe, expect, it } from "vitest";
import { contractSchemas } from "../../src/index.js";
import { describeReceived } from "../../src/contract/received.js";

describe("describeReceived", () => {
  const rows: readonly [unknown, string][] = [
    [null, "null"],
    [undefined, "undefined"],
    [[1], "array"],
    [{}, "object"],
    [3, "number"],
    ["x", "string"],
    [true, "boolean"],
    [1n, "bigint"],
  ];
  it.each(rows)("describes %o as %j", (value, word) => {
    expect(describeReceived(value)).toBe(word);
  });

  it.each(rows.filter(([value]) => typeof value !== "string"))(
    "is the word the contract's input messages use for %o",
    (value, word) => {
      const parsed = contractSchemas("en").searchInputSchema.safeParse({ query: value });
      expect(parsed.error?.issues[0]?.message).toBe(`Field "query" is required and must be a string (received: ${word}).`);
    },
  );
});
