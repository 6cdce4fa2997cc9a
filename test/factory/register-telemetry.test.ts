import { McpServer } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import {
  CLASSE_DO_ERRO,
  McpSearchError,
  registerDeepResearchTools,
  type DeepResearchToolsOptions,
} from "../../src/index.js";
import { DOCS, HITS, baseOptions, connect, recorder, textOf } from "../_register-helpers.js";

// The factory's telemetry, strict input and set-up checks; the envelope, options and locales
// are in register.test.ts.

// ---------------------------------------------------------------- strict input

describe("registerDeepResearchTools: strict input", () => {
  it.each([
    ["pt-BR", "search", { query: "soja", limit: 5 }, /^Input validation error: .*Chave não reconhecida nos argumentos: "limit"/],
    ["pt-BR", "fetch", { id: "doc:1", extra: true }, /^Input validation error: .*Chave não reconhecida nos argumentos: "extra"/],
    ["en", "search", { query: "soja", topK: 5 }, /^Input validation error: .*Unrecognized key in the arguments: "topK"/],
    ["es", "fetch", { id: "doc:1", extra: true }, /^Input validation error: .*Clave no reconocida en los argumentos: "extra"/],
  ] as const)("%s %s: an extra key is refused, by name, as an isError result; no callback, no telemetry", async (locale, name, args, message) => {
    const calls: string[] = [];
    const { calls: recorded, record } = recorder();
    const { client } = await connect({
      locale,
      record,
      search: () => (calls.push("search"), []),
      fetch: () => (calls.push("fetch"), null),
    });
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(message);
    expect(calls).toStrictEqual([]);
    expect(recorded).toStrictEqual([]);
  });
});

// ---------------------------------------------------------------- telemetry

describe("registerDeepResearchTools: record", () => {
  it("records every call, and the errors, in order, with argument names only", async () => {
    const { calls, record } = recorder();
    const { client } = await connect({
      record,
      fetch: (id) => {
        if (id === "quota") throw Object.assign(new Error("limite"), { classe: "cota" });
        if (id === "typed") throw new RangeError("fora da faixa");
        if (id === "texted") throw new Error("tempo esgotado");
        if (id === "plain") throw new Error("???");
        return DOCS.find((doc) => doc.id === id) ?? null;
      },
      classifyThrown: (error) => (error instanceof RangeError ? "faixa" : undefined),
      classifyError: (message) => (message.includes("tempo esgotado") ? "timeout" : undefined),
    });
    await client.callTool({ name: "search", arguments: { query: "segredo do usuário" } });
    for (const id of ["doc:1", "doc:99", "quota", "typed", "texted", "plain"]) {
      await client.callTool({ name: "fetch", arguments: { id } });
    }
    const ok = { params: "id", classe: "" };
    const shape = (classe: string) => ({ params: "id", classe });
    // tool_call is recorded before the class is known: always classe "".
    expect(calls).toStrictEqual([
      ["tool_call", "search", { params: "query", classe: "" }],
      ["tool_call", "fetch", ok],
      ["tool_call", "fetch", ok],
      ["tool_error", "fetch", shape("nao_encontrado")],
      ["tool_call", "fetch", ok],
      ["tool_error", "fetch", shape("cota")],
      ["tool_call", "fetch", ok],
      ["tool_error", "fetch", shape("faixa")],
      ["tool_call", "fetch", ok],
      ["tool_error", "fetch", shape("timeout")],
      ["tool_call", "fetch", ok],
      ["tool_error", "fetch", shape("")],
    ]);
    expect(JSON.stringify(calls)).not.toContain("segredo");
  });

  it("records the issue's sequence exactly: search ok, then an unknown id, without classifyError", async () => {
    const { calls, record } = recorder();
    const { client } = await connect({ record });
    await client.callTool({ name: "search", arguments: { query: "Documento 3" } });
    const missing = await client.callTool({ name: "fetch", arguments: { id: "doc:99" } });
    expect(missing.isError).toBe(true);
    expect(calls).toStrictEqual([
      ["tool_call", "search", { params: "query", classe: "" }],
      ["tool_call", "fetch", { params: "id", classe: "" }],
      ["tool_error", "fetch", { params: "id", classe: "" }],
    ]);
  });

  it("records classe \"\" on tool_error without classifyError, even when the class is known by type", async () => {
    const { calls, record } = recorder();
    const { client } = await connect({
      record,
      fetch: (id) => {
        if (id === "quota") throw Object.assign(new Error("limite"), { classe: "cota" });
        if (id === "typed") throw new RangeError("fora da faixa");
        return { id, title: "T", url: "u", text: 42 } as never;
      },
      classifyThrown: (error) => (error instanceof RangeError ? "faixa" : undefined),
    });
    for (const id of ["quota", "typed", "bad"]) await client.callTool({ name: "fetch", arguments: { id } });
    const ok = { params: "id", classe: "" };
    expect(calls).toStrictEqual([
      ["tool_call", "fetch", ok], ["tool_error", "fetch", ok],
      ["tool_call", "fetch", ok], ["tool_error", "fetch", ok],
      ["tool_call", "fetch", ok], ["tool_error", "fetch", ok],
    ]);
  });

  it("lets the class decided by type win over classifyError on tool_error", async () => {
    const { calls, record } = recorder();
    const { client } = await connect({
      record,
      fetch: () => { throw Object.assign(new Error("tempo esgotado"), { classe: "cota" }); },
      classifyError: () => "timeout",
    });
    await client.callTool({ name: "fetch", arguments: { id: "doc:1" } });
    await client.callTool({ name: "search", arguments: { query: "x".repeat(10) } });
    expect(calls).toStrictEqual([
      ["tool_call", "fetch", { params: "id", classe: "" }],
      ["tool_error", "fetch", { params: "id", classe: "cota" }],
      ["tool_call", "search", { params: "query", classe: "" }],
    ]);
  });

  it("is called after the callback settles", async () => {
    const events: string[] = [];
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { client } = await connect({
      record: (kind) => void events.push(`record:${kind}`),
      search: async () => {
        events.push("callback:start");
        started();
        await gate;
        events.push("callback:end");
        throw new Error("late");
      },
    });
    const call = client.callTool({ name: "search", arguments: { query: "x" } });
    await running;
    expect(events).toStrictEqual(["callback:start"]); // nothing recorded while the callback runs
    release();
    await call;
    expect(events).toStrictEqual(["callback:start", "callback:end", "record:tool_call", "record:tool_error"]);
  });

  it("ignores a recorder that throws: the client still gets the result", async () => {
    const { client } = await connect({ record: () => { throw new Error("telemetria fora"); } });
    const result = await client.callTool({ name: "search", arguments: { query: "Documento 3" } });
    expect(result.structuredContent).toStrictEqual({ results: [HITS[3]] });
  });
});

describe("CLASSE_DO_ERRO", () => {
  it("is the registered symbol", () => {
    expect(CLASSE_DO_ERRO).toBe(Symbol.for("br.com.sidneybissoli.mcp/classe-do-erro"));
  });

  it.each([
    ["an unknown id", "doc:99", "nao_encontrado"],
    ["an error carrying classe", "quota", "cota"],
    ["classifyThrown", "typed", "faixa"],
    ["classifyError (by text, not type)", "texted", undefined],
    ["no class at all", "plain", undefined],
  ])("is set, non-enumerable, when the class was decided by type: %s", async (_label, id, expected) => {
    const server = new McpServer({ name: "s", version: "1.0.0" });
    const tools = registerDeepResearchTools(server, {
      ...baseOptions,
      fetch: (raw) => {
        if (raw === "quota") throw Object.assign(new Error("limite"), { classe: "cota" });
        if (raw === "typed") throw new RangeError("fora");
        if (raw === "texted") throw new Error("tempo esgotado");
        if (raw === "plain") throw new Error("?");
        return null;
      },
      classifyThrown: (error) => (error instanceof RangeError ? "faixa" : undefined),
      classifyError: (message) => (message.includes("tempo esgotado") ? "timeout" : undefined),
    });
    const result = (await (tools.fetch.handler as (args: unknown, ctx: unknown) => unknown)({ id }, {})) as Record<PropertyKey, unknown>;
    expect(result[CLASSE_DO_ERRO]).toBe(expected);
    expect(Object.keys(result)).toStrictEqual(["content", "isError"]);
    expect(JSON.stringify(result)).not.toContain("nao_encontrado");
  });
});

// ---------------------------------------------------------------- misuse

describe("registerDeepResearchTools: misuse", () => {
  const server = () => new McpServer({ name: "s", version: "1.0.0" });
  it.each([
    ["no search", { search: undefined }, /`search` must be a function/],
    ["no fetch", { fetch: "x" }, /`fetch` must be a function/],
    ["an empty corpus", { corpus: " " }, /`corpus` must be a non-empty phrase/],
    ["an empty richTools", { richTools: "" }, /`richTools` must be a non-empty phrase/],
    ["an unknown locale", { locale: "fr" }, /unknown `locale` "fr"/],
    ["limit -1", { limit: -1 }, /`limit` must be a whole number, 0 or more \(got -1\)/],
    ["limit 2.5", { limit: 2.5 }, /`limit`.*\(got 2\.5\)/],
    ["limit NaN", { limit: Number.NaN }, /`limit`.*\(got NaN\)/],
    ["a record that is no function", { record: {} }, /`record` must be a function/],
    ["an extendOutputSchema that returns no zod object", { extendOutputSchema: () => ({}) }, /extendOutputSchema must return a zod object/],
  ])("throws McpSearchError naming the culprit: %s", (_label, patch, message) => {
    const options = { ...baseOptions, ...patch } as unknown as DeepResearchToolsOptions;
    expect(() => registerDeepResearchTools(server(), options)).toThrow(McpSearchError);
    expect(() => registerDeepResearchTools(server(), options)).toThrow(message);
  });

  it("refuses a server that is not an McpServer", () => {
    expect(() => registerDeepResearchTools({} as McpServer, baseOptions)).toThrow(/`server` must be an McpServer/);
  });

  it("names the tool when its name is already taken on the server", () => {
    const taken = server();
    taken.registerTool("fetch", { description: "the server's own fetch" }, () => ({ content: [] }));
    expect(() => registerDeepResearchTools(taken, baseOptions)).toThrow(/could not register the "fetch" tool/);
  });
});
