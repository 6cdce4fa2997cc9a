/**
 * Callbacks that misbehave, through a real Client in memory: replies outside the contract,
 * callbacks that answer late or never, and inputs over the maximum length. Each gives an isError
 * that says what is wrong, in the locale's words, and the server keeps serving.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { McpServer } from "@modelcontextprotocol/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  CLASSE_DO_ERRO,
  MAX_REPLY_CHARS,
  MAX_ID_LENGTH,
  MAX_QUERY_LENGTH,
  McpSearchError,
  registerDeepResearchTools,
  type DeepResearchToolsOptions,
} from "../../src/index.js";
import { DOCS, HITS, baseOptions, connect, recorder, textOf } from "../_register-helpers.js";

const PT = "A ferramenta search devolveu uma resposta fora do contrato: ";
const PT_FETCH = "A ferramenta fetch devolveu uma resposta fora do contrato: ";
const circular: Record<string, unknown> = {};
circular["self"] = circular;

describe("registerDeepResearchTools: search replies outside the contract", () => {
  it.each([
    ["undefined", undefined, "a resposta deve ser uma lista de resultados ou { results } (recebido: undefined)"],
    ["null", null, "a resposta deve ser uma lista de resultados ou { results } (recebido: null)"],
    ["a string", "doc:1", "a resposta deve ser uma lista de resultados ou { results } (recebido: string)"],
    ["a number", 3, "a resposta deve ser uma lista de resultados ou { results } (recebido: number)"],
    ["{ results } that is not a list", { results: "doc:1" }, "results deve ser uma lista (recebido: string)"],
    ["{ results } missing", { hits: HITS }, "results deve ser uma lista (recebido: undefined)"],
    ["a result that is null", [HITS[0], null], "results[1] deve ser um objeto (recebido: null)"],
    ["a result that is a string", ["doc:1"], "results[0] deve ser um objeto (recebido: string)"],
    ["results[3] without url", [...HITS.slice(0, 3), { id: "x", title: "X" }], "results[3].url deve ser texto (recebido: undefined)"],
    ["a non-string title", [{ id: "x", title: 42, url: "u" }], "results[0].title deve ser texto (recebido: number)"],
    ["an empty id", [HITS[0], { id: "", title: "X", url: "u" }], "results[1].id não pode ser vazio"],
    ["a numeric id", [{ id: 7, title: "X", url: "u" }], "results[0].id deve ser texto (recebido: number)"],
    ["extras that are not an object", { results: [], extras: "p" }, "extras deve ser um objeto (recebido: string)"],
    ["extras.meta that is an array", { results: [], extras: { meta: [1] } }, "extras.meta deve ser um objeto (recebido: array)"],
    ["extras that JSON refuses", { results: [], extras: { meta: { loop: circular } } }, "extras.meta.loop não pode ser convertido em JSON ("],
    ["a throwing getter in extras.structured", { results: [], extras: { structured: { get provenance() { throw new Error("boom"); } } } }, "extras.structured.provenance não pode ser convertido em JSON (boom)"],
    ["a throwing getter nested in extras.structured", { results: [], extras: { structured: { provenance: { get source() { throw new Error("boom"); } } } } }, "extras.structured.provenance não pode ser convertido em JSON (boom)"],
  ])("%s: names the field and the position", async (_label, reply, problem) => {
    const { client } = await connect({ search: () => reply as never });
    const result = await client.callTool({ name: "search", arguments: { query: "x" } });
    expect(result.isError).toBe(true);
    expect("structuredContent" in result).toBe(false);
    expect(textOf(result).startsWith(`${PT}${problem}`)).toBe(true);
    expect(textOf(await client.callTool({ name: "fetch", arguments: { id: "doc:1" } }))).toContain('"doc:1"');
  });

  it("reads no result past the limit: a broken hit there is cut unread", async () => {
    const { client } = await connect({ limit: 2, search: () => [...HITS.slice(0, 2), null] as never });
    const result = await client.callTool({ name: "search", arguments: { query: "x" } });
    expect(result.structuredContent).toStrictEqual({ results: HITS.slice(0, 2) });
  });

  it("says it in English with locale en, and classes it resposta_invalida", async () => {
    const { calls, record } = recorder();
    const { client } = await connect({ locale: "en", record, classifyError: () => "by text", search: () => [{ id: "a", title: "A" }] as never });
    const result = await client.callTool({ name: "search", arguments: { query: "x" } });
    expect(result).toStrictEqual({
      content: [{ type: "text", text: "The search tool returned a reply outside the contract: results[0].url must be a string (received: undefined)." }],
      isError: true,
    });
    // The class decided by type wins over classifyError; tool_call never carries a class.
    expect(calls.map(([kind, , shape]) => `${kind}:${shape.classe}`)).toStrictEqual(["tool_call:", "tool_error:resposta_invalida"]);
  });

  it("checks declared extras against the extended schema in its own words, naming the path", async () => {
    const withCount = (schema: z.ZodObject) => schema.extend({ summary: z.object({ counts: z.array(z.number()) }).optional() });
    const { client } = await connect({
      extendOutputSchema: withCount,
      search: () => ({ results: [], extras: { structured: { summary: { counts: [1, "2"] } } } }),
    });
    const result = await client.callTool({ name: "search", arguments: { query: "x" } });
    expect(textOf(result)).toBe(`${PT}summary.counts[1] é inválido (Invalid input: expected number, received string).`);
  });
});

describe("registerDeepResearchTools: fetch replies outside the contract", () => {
  const doc = DOCS[1] as (typeof DOCS)[number];
  it.each([
    ["a string", "texto", "a resposta deve ser um documento, { document } ou null (recebido: string)"],
    ["an array", [doc], "a resposta deve ser um documento, { document } ou null (recebido: array)"],
    ["a document without text", { id: "doc:1", title: "T", url: "u" }, "text deve ser texto (recebido: undefined)"],
    ["{ document } without text", { document: { id: "doc:1", title: "T", url: "u" } }, "document.text deve ser texto (recebido: undefined)"],
    ["a null title", { ...doc, title: null }, "title deve ser texto (recebido: null)"],
    ["metadata that is an array", { ...doc, metadata: ["a"] }, "metadata deve ser um objeto (recebido: array)"],
    ["metadata that JSON refuses", { ...doc, metadata: { size: 10n } }, "metadata não pode ser convertido em JSON ("],
    ["another document's id", { ...DOCS[2] }, 'id é "doc:2", mas o id pedido foi "doc:1"'],
    ["{ document } with another id", { document: DOCS[2] }, 'document.id é "doc:2", mas o id pedido foi "doc:1"'],
    ["an empty id", { ...doc, id: "" }, "id não pode ser vazio"],
    ["extras.structured that is a string", { document: doc, extras: { structured: "p" } }, "extras.structured deve ser um objeto (recebido: string)"],
  ])("%s: names the field", async (_label, reply, problem) => {
    const { client } = await connect({ fetch: () => reply as never });
    const result = await client.callTool({ name: "fetch", arguments: { id: "doc:1" } });
    expect(result.isError).toBe(true);
    expect(textOf(result).startsWith(`${PT_FETCH}${problem}`)).toBe(true);
    expect((result as Record<symbol, unknown>)[CLASSE_DO_ERRO]).toBeUndefined(); // symbols do not cross the wire
  });

  it("compares the document's id with the id resolveId gave, not the raw argument", async () => {
    const { client } = await connect({ resolveId: (raw) => raw.trim().toLowerCase() });
    const read = await client.callTool({ name: "fetch", arguments: { id: "  DOC:1 " } });
    expect(read.structuredContent).toStrictEqual(doc);
    const { client: lying } = await connect({ resolveId: () => "doc:1", fetch: () => DOCS[3] ?? null });
    expect(textOf(await lying.callTool({ name: "fetch", arguments: { id: "x" } }))).toBe(
      `${PT_FETCH}id é "doc:3", mas o id pedido foi "doc:1".`,
    );
  });

  it("names a resolveId that answers something other than text or null", async () => {
    const { client } = await connect({ resolveId: () => 42 as never });
    expect(textOf(await client.callTool({ name: "fetch", arguments: { id: "doc:1" } }))).toBe(
      `${PT_FETCH}resolveId(id) deve ser texto (recebido: number).`,
    );
  });

  it("falls back to the locale's not-found message when notFound throws or answers no text", async () => {
    for (const notFound of [() => { throw new Error("x"); }, () => 42 as never]) {
      const { client } = await connect({ notFound });
      expect(textOf(await client.callTool({ name: "fetch", arguments: { id: "nada" } }))).toBe(
        'Nenhum documento tem o id "nada". Use um id devolvido pela ferramenta search.',
      );
    }
  });
});

/**
 * Awaits `work` while moving a fake clock forward in 5 ms steps, so a time limit fires exactly
 * when the clock passes it, however slow the machine: no test here races a real timer.
 */
async function settleOnFakeClock<T>(work: Promise<T>): Promise<T> {
  let settled = false;
  const done = work.finally(() => (settled = true));
  for (let step = 0; !settled && step < 10_000; step++) await vi.advanceTimersByTimeAsync(5);
  return done;
}

describe("registerDeepResearchTools: timeoutMs", () => {
  const never = () => new Promise<never>(() => undefined);
  beforeEach(() => void vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] }));
  afterEach(() => void vi.useRealTimers());

  it.each([
    ["pt-BR", "search", "A ferramenta search não respondeu dentro do limite de 40 ms; tente de novo mais tarde."],
    ["pt-BR", "fetch", "A ferramenta fetch não respondeu dentro do limite de 40 ms; tente de novo mais tarde."],
    ["en", "search", "The search tool did not answer within its limit of 40 ms; try again later."],
    ["es", "fetch", "La herramienta fetch no respondió dentro del límite de 40 ms; inténtelo de nuevo más tarde."],
  ] as const)("%s: a %s callback that never answers gives an isError naming the tool and the limit", async (locale, tool, text) => {
    const { calls, record } = recorder();
    const { client } = await connect({ locale, timeoutMs: 40, search: never, fetch: never, record, classifyError: () => undefined });
    const args = tool === "search" ? { query: "x" } : { id: "doc:1" };
    expect(await settleOnFakeClock(client.callTool({ name: tool, arguments: args }))).toStrictEqual({ content: [{ type: "text", text }], isError: true });
    expect(calls.map(([kind, , shape]) => `${kind}:${shape.classe}`)).toStrictEqual(["tool_call:", "tool_error:tempo_esgotado"]);
  });

  it("counts resolveId and fetch together", async () => {
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const { client } = await connect({
      timeoutMs: 60,
      resolveId: async (raw) => (await wait(40), raw),
      fetch: async (id) => (await wait(40), DOCS.find((d) => d.id === id) ?? null),
    });
    expect(textOf(await settleOnFakeClock(client.callTool({ name: "fetch", arguments: { id: "doc:1" } })))).toContain("60 ms");
  });

  it("drops a late answer and a late rejection, with no unhandled rejection, and keeps serving", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let calls = 0;
      const { client } = await connect({
        timeoutMs: 30,
        search: async (query) => {
          calls += 1;
          if (query === "fast") return HITS.slice(0, 1);
          await gate;
          if (query === "late-reject") throw new Error("late failure");
          return HITS.slice(0, 2);
        },
      });
      const late = await settleOnFakeClock(client.callTool({ name: "search", arguments: { query: "late" } }));
      const rejected = await settleOnFakeClock(client.callTool({ name: "search", arguments: { query: "late-reject" } }));
      expect([late.isError, rejected.isError]).toStrictEqual([true, true]);
      release();
      await vi.advanceTimersByTimeAsync(20);
      const fast = await settleOnFakeClock(client.callTool({ name: "search", arguments: { query: "fast" } }));
      expect(fast.structuredContent).toStrictEqual({ results: HITS.slice(0, 1) });
      expect(calls).toBe(3);
      expect(unhandled).toStrictEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("never keeps the process alive: a server whose callback never answers exits when closed", async () => {
    // A child with a 1-hour limit and a callback that never answers: it must exit on its own
    // once the client and server close, which a pending, referenced timer would prevent.
    const script = `
      import { Client } from "@modelcontextprotocol/client";
      import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
      import { registerDeepResearchTools } from "./dist/index.js";
      const server = new McpServer({ name: "s", version: "1" });
      let called;
      const searching = new Promise((resolve) => (called = resolve));
      const search = () => (called(), new Promise(() => {}));
      registerDeepResearchTools(server, { search, fetch: () => null, corpus: "c", timeoutMs: 3600000 });
      const [a, b] = InMemoryTransport.createLinkedPair();
      await server.connect(b);
      const client = new Client({ name: "c", version: "1" });
      await client.connect(a);
      void client.callTool({ name: "search", arguments: { query: "x" } }, { timeout: 3600000 }).catch(() => {});
      await searching; // the callback runs, under its 1-hour timer
      await client.close();
      await server.close();
      console.log("closed");
    `;
    const root = fileURLToPath(new URL("../..", import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], { cwd: root, timeout: 20_000 });
    expect(stdout.trim()).toBe("closed");
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31, "1000"])("refuses timeoutMs %s at set-up", (timeoutMs) => {
    const options = { ...baseOptions, timeoutMs } as unknown as DeepResearchToolsOptions;
    expect(() => registerDeepResearchTools(new McpServer({ name: "s", version: "1" }), options)).toThrow(McpSearchError);
    expect(() => registerDeepResearchTools(new McpServer({ name: "s", version: "1" }), options)).toThrow(/`timeoutMs` must be an integer from 1 to 2147483647/);
  });
});

describe("registerDeepResearchTools: maximum input lengths", () => {
  it.each([
    ["search", "query", MAX_QUERY_LENGTH, 1024 * 1024],
    ["fetch", "id", MAX_ID_LENGTH, 100 * 1024],
    ["fetch", "id", MAX_ID_LENGTH, MAX_ID_LENGTH + 1],
  ] as const)("%s refuses a %s of %#: names the limit, before any callback runs", async (tool, field, max, length) => {
    let called = 0;
    const { client } = await connect({ search: () => (called++, []), fetch: () => (called++, null), resolveId: (raw) => (called++, raw) });
    const result = await client.callTool({ name: tool, arguments: { [field]: "a".repeat(length) } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(`O campo "${field}" tem ${length} caracteres; o máximo é ${max}.`);
    expect(called).toBe(0);
  });

  it("accepts a query and an id of exactly the maximum length", async () => {
    const { client } = await connect({ search: (query) => [{ id: "q", title: String(query.length), url: "u" }], fetch: (id) => ({ id, title: "T", text: "x", url: "u" }) });
    const searched = await client.callTool({ name: "search", arguments: { query: "a".repeat(MAX_QUERY_LENGTH) } });
    expect(searched.structuredContent).toStrictEqual({ results: [{ id: "q", title: String(MAX_QUERY_LENGTH), url: "u" }] });
    const read = await client.callTool({ name: "fetch", arguments: { id: "i".repeat(MAX_ID_LENGTH) } });
    expect(read.isError).toBeUndefined();
  });

  it("publishes both limits as maxLength in tools/list", async () => {
    const { client } = await connect();
    const [search, fetch] = (await client.listTools()).tools;
    expect(search?.inputSchema.properties?.["query"]).toMatchObject({ maxLength: MAX_QUERY_LENGTH });
    expect(fetch?.inputSchema.properties?.["id"]).toMatchObject({ maxLength: MAX_ID_LENGTH });
  });
});

describe("registerDeepResearchTools: the error path never throws", () => {
  const symbolMessage = Object.assign(new Error("x"), { message: Symbol("unprintable") });
  const throwingGetter = Object.defineProperty(new Error("x"), "message", { get() { throw new Error("no message for you"); } });
  const { proxy: revoked, revoke } = Proxy.revocable(new Error("x"), {});
  revoke();
  it.each([
    ["an Error whose message is a Symbol", symbolMessage, "A ferramenta search falhou: Symbol(unprintable)"],
    ["an Error whose message getter throws", throwingGetter, "A ferramenta search falhou: (um erro cuja mensagem não pôde ser lida)"],
    ["a revoked Proxy", revoked, "A ferramenta search falhou: (um erro cuja mensagem não pôde ser lida)"],
  ])("%s: the client gets the library's own wording naming the tool, and record gets tool_error", async (_label, thrown, text) => {
    const { calls, record } = recorder();
    const { client } = await connect({ record, search: () => { throw thrown; } });
    const result = await client.callTool({ name: "search", arguments: { query: "x" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(text);
    expect(calls).toStrictEqual([
      ["tool_call", "search", { params: "query", classe: "" }],
      ["tool_error", "search", { params: "query", classe: "" }],
    ]);
  });

  it("says it in English with locale en, even when onError and classifyThrown throw", async () => {
    const { calls, record } = recorder();
    const { client } = await connect({
      locale: "en",
      record,
      fetch: () => { throw revoked; },
      onError: () => { throw new Error("onError broke"); },
      classifyThrown: () => { throw new Error("classifier broke"); },
      classifyError: () => "classed",
    });
    const result = await client.callTool({ name: "fetch", arguments: { id: "doc:1" } });
    expect(textOf(result)).toBe("The fetch tool failed: (an error whose message could not be read)");
    expect(calls.at(-1)).toStrictEqual(["tool_error", "fetch", { params: "id", classe: "classed" }]);
  });
});

describe("registerDeepResearchTools: the cap on a reply's size", () => {
  it("is 50 MiB of JSON", () => {
    expect(MAX_REPLY_CHARS).toBe(50 * 1024 * 1024);
  });

  it("answers a fetch whose text passes the cap with an isError naming the size, and records it", async () => {
    const { calls, record } = recorder();
    const text = "a".repeat(MAX_REPLY_CHARS);
    const { client } = await connect({ record, fetch: (id) => ({ id, title: "T", url: "https://example.com", text }) });
    const result = await client.callTool({ name: "fetch", arguments: { id: "doc:1" } });
    expect(result.isError).toBe(true);
    const size = JSON.stringify({ id: "doc:1", title: "T", text, url: "https://example.com" }).length;
    expect(textOf(result)).toBe(`${PT_FETCH}a resposta tem ${size} caracteres em JSON, acima do limite de ${MAX_REPLY_CHARS}; encurte o texto.`);
    expect(result[CLASSE_DO_ERRO as never]).toBeUndefined(); // a symbol does not cross the transport
    expect(calls.at(-1)).toStrictEqual(["tool_error", "fetch", { params: "id", classe: "" }]);
  });

  it("answers a reply JavaScript cannot serialise at all (V8's string limit) with an isError naming the cap", async () => {
    // What JSON.stringify throws past V8's string length, without allocating 512 MB.
    const huge = { toJSON: () => { throw new RangeError("Invalid string length"); } };
    const { client } = await connect({ locale: "en", fetch: (id) => ({ id, title: "T", url: "u", text: "x", metadata: { huge } }) });
    const result = await client.callTool({ name: "fetch", arguments: { id: "doc:1" } });
    expect(textOf(result)).toBe(
      `The fetch tool returned a reply outside the contract: the reply is too large to serialise as JSON (the limit is ${MAX_REPLY_CHARS} characters); shorten the text.`,
    );
  });

  it("lets a reply of exactly the cap through, and refuses one character more", async () => {
    const overhead = JSON.stringify({ id: "doc:1", title: "T", text: "", url: "u" }).length;
    let extra = 0;
    const { client } = await connect({ fetch: (id) => ({ id, title: "T", url: "u", text: "a".repeat(MAX_REPLY_CHARS - overhead + extra) }) });
    const exact = await client.callTool({ name: "fetch", arguments: { id: "doc:1" } });
    expect(exact.isError).toBeUndefined();
    expect(textOf(exact).length).toBe(MAX_REPLY_CHARS);
    extra = 1;
    const over = await client.callTool({ name: "fetch", arguments: { id: "doc:1" } });
    expect(over.isError).toBe(true);
    expect(textOf(over)).toContain(`a resposta tem ${MAX_REPLY_CHARS + 1} caracteres em JSON`);
  });

  it("counts the extras too, and lets a reply half the cap through", async () => {
    const half = "a".repeat(MAX_REPLY_CHARS / 2);
    const { client } = await connect({
      fetch: (id) => ({ document: { id, title: "T", url: "u", text: half }, extras: { meta: { copy: half } } }),
      search: () => ({ results: [HITS[0]!], extras: { meta: { copy: "a".repeat(MAX_REPLY_CHARS / 2) } } }),
    });
    expect(textOf(await client.callTool({ name: "fetch", arguments: { id: "doc:1" } }))).toMatch(/a resposta tem \d+ caracteres em JSON/);
    const search = await client.callTool({ name: "search", arguments: { query: "x" } });
    expect(search.isError).toBeUndefined();
    expect(search.structuredContent).toStrictEqual({ results: [HITS[0]] });
  });
});
