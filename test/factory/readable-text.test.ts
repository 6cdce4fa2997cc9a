/**
 * `readableSearchText`: the opt-in second content block of search, after the contract's one,
 * through a real Client and a real McpServer linked in memory. Off by default (FACTS.md: one
 * block is what ChatGPT's guide shows).
 */
import { McpServer } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import { McpSearchError, registerDeepResearchTools } from "../../src/index.js";
import { baseOptions, connect, HITS, open } from "../_register-helpers.js";

afterEach(async () => {
  while (open.length > 0) await open.pop()?.();
});

interface Result {
  content: { type: string; text: string }[];
  isError?: boolean;
}

describe("registerDeepResearchTools: readableSearchText", () => {
  it("keeps one content block by default", async () => {
    const { client } = await connect();
    const result = (await client.callTool({ name: "search", arguments: { query: "x" } })) as Result;
    expect(result.content).toHaveLength(1);
  });

  it("adds the text it returns as a second block, after the contract JSON", async () => {
    const { client } = await connect({ readableSearchText: ({ results }) => results.map((hit, n) => `${n + 1}. ${hit.title}`).join("\n") });
    const result = (await client.callTool({ name: "search", arguments: { query: "*" } })) as Result;
    expect(result.content).toHaveLength(2);
    expect(JSON.parse(result.content[0]?.text ?? "")).toStrictEqual({ results: HITS.slice(0, 10) });
    expect(result.content[1]).toStrictEqual({ type: "text", text: HITS.slice(0, 10).map((hit, n) => `${n + 1}. ${hit.title}`).join("\n") });
  });

  it("adds nothing for an empty text, a function that throws, or an error result", async () => {
    for (const readableSearchText of [() => "", () => { throw new Error("boom"); }]) {
      const { client } = await connect({ readableSearchText });
      const result = (await client.callTool({ name: "search", arguments: { query: "*" } })) as Result;
      expect(result.content).toHaveLength(1);
    }
    const { client } = await connect({ readableSearchText: () => "never", search: () => { throw new Error("down"); } });
    const failed = (await client.callTool({ name: "search", arguments: { query: "x" } })) as Result;
    expect(failed.isError).toBe(true);
    expect(failed.content).toHaveLength(1);
  });

  it("refuses a value that is not a function at set-up", () => {
    const server = new McpServer({ name: "t", version: "0" });
    expect(() => registerDeepResearchTools(server, { ...baseOptions, readableSearchText: "yes" as never })).toThrow(McpSearchError);
    expect(() => registerDeepResearchTools(new McpServer({ name: "t", version: "0" }), { ...baseOptions, readableSearchText: 1 as never })).toThrow("`readableSearchText` must be a function (got number).");
  });
});
