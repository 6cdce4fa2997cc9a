import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { contractSchemas } from "../../src/contract/schemas.js";
import { McpSearchError } from "../../src/errors.js";
import { callSignal, MAX_TIMEOUT_MS, requestSignal, TIMED_OUT, withDeadline } from "../../src/factory/deadline.js";
import { z } from "zod";
import { badReply, capErrorText, CLASSE_KEY, envelop, failure, MAX_ERROR_CHARS, MAX_REPLY_CHARS, notFound, timedOut, type OutcomeContext } from "../../src/factory/outcomes.js";
import { validateOptions } from "../../src/factory/options.js";
import { checkSearchReply } from "../../src/factory/replies.js";
import { localeTexts } from "../../src/locales/index.js";
import { DEFAULT_LIMIT } from "../../src/contract/limit.js";
import { baseOptions } from "../_register-helpers.js";

/**
 * The factory's caps and time limit on their own: the reply cap at its boundary
 * (../../src/factory/outcomes.ts), and the race, its timer and the signal a call's callbacks
 * receive (../../src/factory/deadline.ts), on a fake clock.
 */

describe("envelop: the cap on a reply's size", () => {
  const schemas = contractSchemas("en");
  const context: OutcomeContext = {
    options: baseOptions,
    texts: localeTexts("en"),
    timeoutMs: 1000,
    outputs: { search: schemas.searchOutputSchema, fetch: schemas.fetchDocumentSchema },
  };
  /** A fetch reply whose compact JSON is `size` characters long. */
  const documentOf = (size: number) => {
    const overhead = JSON.stringify({ id: "doc:1", title: "T", text: "", url: "u" }).length;
    return { id: "doc:1", title: "T", text: "a".repeat(size - overhead), url: "u" };
  };
  const tooLarge = (size: number) =>
    `The fetch tool returned a reply outside the contract: the reply is ${size} characters of JSON, over the limit of ${MAX_REPLY_CHARS}; shorten the text.`;

  it("is 50 MiB of JSON", () => {
    expect(MAX_REPLY_CHARS).toBe(52_428_800);
  });

  it("lets a reply of exactly the cap through, and refuses one character more, extras counted", () => {
    // Two replies of 50 MiB: the first all text block, the second shared with the extras' JSON.
    const exact = envelop(context, "fetch", documentOf(MAX_REPLY_CHARS), undefined);
    expect(exact.classe).toBe("");
    expect(exact.result.content[0]?.text.length).toBe(MAX_REPLY_CHARS);
    expect("isError" in exact.result).toBe(false);
    const meta = { copy: "b".repeat(1000) };
    const over = envelop(context, "fetch", documentOf(MAX_REPLY_CHARS - JSON.stringify({ meta }).length + 1), { meta });
    expect(over.classe).toBe("resposta_invalida");
    expect(over.result).toStrictEqual({ isError: true, content: [{ type: "text", text: tooLarge(MAX_REPLY_CHARS + 1) }] });
  });
});

describe("the outcomes of a call", () => {
  const schemas = contractSchemas("en");
  const contextOf = (options: Partial<typeof baseOptions> = {}): OutcomeContext => ({
    options: { ...baseOptions, ...options },
    texts: localeTexts("en"),
    timeoutMs: 250,
    outputs: {
      search: options.extendOutputSchema?.(schemas.searchOutputSchema) ?? schemas.searchOutputSchema,
      fetch: options.extendOutputSchema?.(schemas.fetchDocumentSchema) ?? schemas.fetchDocumentSchema,
    },
  });
  const CLASSE = Symbol.for("br.com.sidneybissoli.mcp/classe-do-erro");
  const errorOf = (text: string) => ({ isError: true, content: [{ type: "text", text }] });
  const DOCUMENT = { id: "doc:1", title: "T", text: "body", url: "u" };

  it("marks each library class on its result, under the registered symbol, not enumerable", () => {
    expect(CLASSE_KEY).toBe("br.com.sidneybissoli.mcp/classe-do-erro");
    const settled = [notFound(contextOf(), "doc:9"), timedOut(contextOf(), "search"), badReply(contextOf(), "fetch", { kind: "empty", path: "id" })];
    expect(settled.map(({ classe, result }) => [classe, (result as unknown as Record<symbol, unknown>)[CLASSE]])).toStrictEqual([
      ["nao_encontrado", "nao_encontrado"],
      ["tempo_esgotado", "tempo_esgotado"],
      ["resposta_invalida", "resposta_invalida"],
    ]);
    for (const { result } of settled) expect(Object.getOwnPropertyDescriptor(result, CLASSE)?.enumerable).toBe(false);
    expect(settled.map(({ result }) => result)).toStrictEqual([
      errorOf('No document has the id "doc:9". Use an id returned by the search tool.'),
      errorOf("The search tool did not answer within its limit of 250 ms; try again later."),
      errorOf("The fetch tool returned a reply outside the contract: id must not be empty."),
    ]);
  });

  it("says notFound's message when it gives a string, else the locale's", () => {
    expect(notFound(contextOf({ notFound: (id) => `gone: ${id}` }), "doc:9").result).toStrictEqual(errorOf("gone: doc:9"));
    expect(notFound(contextOf({ notFound: () => 5 as never }), "doc:9").result).toStrictEqual(errorOf('No document has the id "doc:9". Use an id returned by the search tool.'));
  });

  it("says onError's message when it gives a string, else the thrown message in the locale's sentence", () => {
    const boom = new Error("boom");
    expect(failure(contextOf({ onError: () => "custom" }), "search", boom).result).toStrictEqual(errorOf("custom"));
    expect(failure(contextOf({ onError: () => 5 as never }), "search", boom).result).toStrictEqual(errorOf("The search tool failed: boom"));
    const throwing = () => {
      throw new Error("onError broke");
    };
    expect(failure(contextOf({ onError: throwing }), "fetch", boom).result).toStrictEqual(errorOf("The fetch tool failed: boom"));
    expect(failure(contextOf(), "fetch", boom)).toStrictEqual({ result: errorOf("The fetch tool failed: boom"), classe: "" });
  });

  it.each([
    [0xd7ff, false],
    [0xd800, true],
    [0xdbff, true],
    [0xdc00, false],
  ])("cuts an error text before a code unit %s at the cap only when it starts a surrogate pair: %s", (unit, starts) => {
    const text = `${"y".repeat(MAX_ERROR_CHARS - 2)}${String.fromCharCode(unit)}zzz`;
    expect(capErrorText(text)).toBe(`${text.slice(0, starts ? MAX_ERROR_CHARS - 2 : MAX_ERROR_CHARS - 1)}…`);
  });

  it("checks structured extras against the extended schema: a valid reply passes, an invalid field is named", () => {
    const extendOutputSchema = (schema: z.ZodObject) => schema.extend({ provenance: z.object({ source: z.string() }).optional() });
    const context = contextOf({ extendOutputSchema });
    const ok = envelop(context, "fetch", DOCUMENT, { structured: { provenance: { source: "IBGE" } } });
    expect(ok.classe).toBe("");
    expect((ok.result as { structuredContent?: unknown }).structuredContent).toStrictEqual({ ...DOCUMENT, provenance: { source: "IBGE" } });
    const bad = envelop(context, "fetch", DOCUMENT, { structured: { provenance: { source: 5 } } });
    expect(bad.classe).toBe("resposta_invalida");
    expect(bad.result.content[0]?.text).toMatch(/^The fetch tool returned a reply outside the contract: provenance\.source is invalid \(.+\)\.$/);
  });

  it("checks structured extras even without an extended schema, and names an undeclared one", () => {
    const settled = envelop(contextOf(), "search", { results: [] }, { structured: { extra: 1 } });
    expect(settled.result).toStrictEqual(
      errorOf("The search tool returned a reply outside the contract: extras.structured.extra is not declared in the output schema; declare it with extendOutputSchema."),
    );
  });

  it("names an undeclared key inside the contract object by its own path, and one in a list by its position", () => {
    const extendOutputSchema = (schema: z.ZodObject) =>
      schema.extend({ metadata: z.object({ pages: z.number() }).optional(), items: z.array(z.object({ a: z.string() })).optional() });
    const context = contextOf({ extendOutputSchema });
    expect(envelop(context, "fetch", { ...DOCUMENT, metadata: { pages: 2, secret: true } }, undefined).result).toStrictEqual(
      errorOf("The fetch tool returned a reply outside the contract: metadata.secret is not declared in the output schema; declare it with extendOutputSchema."),
    );
    expect(envelop(context, "fetch", DOCUMENT, { structured: { items: [{ a: "1" }, { a: "2", b: 3 }] } }).result).toStrictEqual(
      errorOf("The fetch tool returned a reply outside the contract: extras.structured.items[1].b is not declared in the output schema; declare it with extendOutputSchema."),
    );
    expect(envelop(context, "fetch", DOCUMENT, { structured: { items: [{ a: "1" }, { a: "2" }] } }).classe).toBe("");
  });

  it.each([
    ["metadata JSON refuses", { ...DOCUMENT, metadata: { n: 1n } }, undefined, "metadata cannot be converted to JSON (Do not know how to serialize a BigInt)"],
    ["a structured field JSON refuses", DOCUMENT, { structured: { ok: 1, n: 2n } }, "extras.structured.n cannot be converted to JSON (Do not know how to serialize a BigInt)"],
    ["a meta field whose getter throws", DOCUMENT, { meta: { get broken(): never { throw new Error("no getter"); } } }, "extras.meta.broken cannot be converted to JSON (no getter)"],
    ["structured whose own getter throws", DOCUMENT, { get structured(): never { throw new Error("no structured"); } }, "extras.structured cannot be converted to JSON (no structured)"],
    ["a string past V8's limit", { ...DOCUMENT, metadata: { huge: { toJSON: () => { throw new RangeError("Invalid string length"); } } } }, undefined, `the reply is too large to serialise as JSON (the limit is ${MAX_REPLY_CHARS} characters); shorten the text`],
    ["a structured field past V8's limit", DOCUMENT, { structured: { huge: { toJSON: () => { throw new RangeError("Invalid string length"); } } } }, `the reply is too large to serialise as JSON (the limit is ${MAX_REPLY_CHARS} characters); shorten the text`],
  ])("names where %s", (_kind, object, extras, problem) => {
    const settled = envelop(contextOf(), "fetch", object as object, extras as never);
    expect(settled.classe).toBe("resposta_invalida");
    expect(settled.result).toStrictEqual(errorOf(`The fetch tool returned a reply outside the contract: ${problem}.`));
  });
});

describe("checkSearchReply: the cap on results", () => {
  const hit = (n: number) => ({ id: `doc:${n}`, title: `T${n}`, url: `u${n}`, score: n });
  const kept = (n: number) => ({ id: `doc:${n}`, title: `T${n}`, url: `u${n}` });

  it("keeps the first `limit` hits as { id, title, url }, and never reads past them", () => {
    expect(checkSearchReply([hit(1), hit(2), hit(3)], 2)).toStrictEqual({ value: { results: [kept(1), kept(2)], extras: undefined } });
    expect(checkSearchReply([hit(1), hit(2)], 2)).toStrictEqual({ value: { results: [kept(1), kept(2)], extras: undefined } });
    expect(checkSearchReply([hit(1), "not a hit"], 1)).toStrictEqual({ value: { results: [kept(1)], extras: undefined } });
  });

  it("reads { results, extras }", () => {
    const extras = { meta: { took: 3 } };
    expect(checkSearchReply({ results: [hit(1)], extras }, 10)).toStrictEqual({ value: { results: [kept(1)], extras } });
  });

  it.each([
    ["a string", "x", { kind: "type", path: "", expected: "searchReply", received: "string" }],
    ["null", null, { kind: "type", path: "", expected: "searchReply", received: "null" }],
    ["results that are no list", { results: "x" }, { kind: "type", path: "results", expected: "list", received: "string" }],
    ["extras that are no object", { results: [], extras: [] }, { kind: "type", path: "extras", expected: "object", received: "array" }],
    ["structured extras that are no object", { results: [], extras: { structured: 1 } }, { kind: "type", path: "extras.structured", expected: "object", received: "number" }],
    ["meta extras that are no object", { results: [], extras: { meta: null } }, { kind: "type", path: "extras.meta", expected: "object", received: "null" }],
    ["a hit that is no object", [hit(1), [hit(2)]], { kind: "type", path: "results[1]", expected: "object", received: "array" }],
    ["a hit with an empty id", [{ id: "", title: "T", url: "u" }], { kind: "empty", path: "results[0].id" }],
    ["a hit without a title", [{ id: "doc:1", url: "u" }], { kind: "type", path: "results[0].title", expected: "string", received: "undefined" }],
    ["a hit with a numeric url", [{ id: "doc:1", title: "", url: 7 }], { kind: "type", path: "results[0].url", expected: "string", received: "number" }],
  ])("names the first problem of %s", (_kind, reply, problem) => {
    expect(checkSearchReply(reply, 10)).toStrictEqual({ problem });
  });
});

describe("validateOptions: the caps a server sets", () => {
  const server = { registerTool: () => undefined };
  const fails = (message: string) => new McpSearchError(`registerDeepResearchTools: ${message}`);

  it("gives the defaults: pt-BR, 10 results, the factory's time limit", () => {
    expect(validateOptions(server, baseOptions)).toStrictEqual({ locale: "pt-BR", limit: DEFAULT_LIMIT, timeoutMs: undefined });
    expect(DEFAULT_LIMIT).toBe(10);
  });

  it.each([0, 1, 7, Number.MAX_SAFE_INTEGER])("accepts a limit of %d, as every limit of the library", (limit) => {
    expect(validateOptions(server, { ...baseOptions, limit }).limit).toBe(limit);
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])("refuses a limit of %d, as every limit of the library", (limit) => {
    expect(() => validateOptions(server, { ...baseOptions, limit })).toThrow(fails(`\`limit\` must be a whole number, 0 or more (got ${String(limit)}).`));
  });

  it.each([1, 30_000, MAX_TIMEOUT_MS])("accepts a timeoutMs of %d", (timeoutMs) => {
    expect(validateOptions(server, { ...baseOptions, timeoutMs }).timeoutMs).toBe(timeoutMs);
  });

  it.each([0, -5, 2.5, MAX_TIMEOUT_MS + 1, Number.POSITIVE_INFINITY])("refuses a timeoutMs of %d", (timeoutMs) => {
    expect(() => validateOptions(server, { ...baseOptions, timeoutMs })).toThrow(
      fails(`\`timeoutMs\` must be an integer from 1 to 2147483647 milliseconds (got ${String(timeoutMs)}).`),
    );
  });

  it.each([null, {}, { registerTool: "no" }])("refuses a server without registerTool: %j", (bad) => {
    expect(() => validateOptions(bad, baseOptions)).toThrow(
      fails("`server` must be an McpServer from @modelcontextprotocol/server ^2.4 or @modelcontextprotocol/sdk ^1.23 (it has no registerTool)."),
    );
  });

  it("refuses options that are no object", () => {
    expect(() => validateOptions(server, null as never)).toThrow(fails("`options` must be an object."));
    expect(() => validateOptions(server, "options" as never)).toThrow(fails("`options` must be an object."));
  });

  it.each(["search", "fetch"])("refuses a %s that is no function", (name) => {
    expect(() => validateOptions(server, { ...baseOptions, [name]: undefined })).toThrow(fails(`\`${name}\` must be a function (got undefined).`));
  });

  it.each(["resolveId", "notFound", "onError", "extendOutputSchema", "record", "classifyError", "classifyThrown", "readableSearchText"])(
    "refuses a %s that is no function, and takes one that is",
    (name) => {
      expect(() => validateOptions(server, { ...baseOptions, [name]: "yes" })).toThrow(fails(`\`${name}\` must be a function (got string).`));
      expect(() => validateOptions(server, { ...baseOptions, [name]: () => undefined })).not.toThrow();
    },
  );

  it.each([
    ["corpus", ""],
    ["corpus", "   "],
    ["corpus", undefined],
    ["richTools", ""],
    ["richTools", 5],
  ])("refuses a %s of %j", (name, value) => {
    expect(() => validateOptions(server, { ...baseOptions, [name]: value })).toThrow(fails(`\`${name}\` must be a non-empty phrase (got ${JSON.stringify(value)}).`));
  });

  it("needs no richTools", () => {
    const { richTools: _, ...withoutRichTools } = baseOptions;
    expect(() => validateOptions(server, withoutRichTools)).not.toThrow();
  });

  it("reads the locale", () => {
    expect(validateOptions(server, { ...baseOptions, locale: "en" }).locale).toBe("en");
    expect(() => validateOptions(server, { ...baseOptions, locale: "xx" as never })).toThrow(/^registerDeepResearchTools: unknown `locale` "xx": use /);
  });
});

describe("withDeadline", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it("gives the work's value, and clears its timer", async () => {
    const onTimeout = vi.fn();
    await expect(withDeadline(Promise.resolve(7), 1000, onTimeout)).resolves.toBe(7);
    expect(vi.getTimerCount()).toBe(0);
    expect(onTimeout).not.toHaveBeenCalled();
  });

  it("gives the work's rejection, and clears its timer", async () => {
    await expect(withDeadline(Promise.reject(new Error("boom")), 1000)).rejects.toThrow("boom");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("gives TIMED_OUT once the limit passed, calls onTimeout once, and drops a later answer", async () => {
    const onTimeout = vi.fn();
    let answer: (value: string) => void = () => undefined;
    const raced = withDeadline(new Promise<string>((resolve) => (answer = resolve)), 100, onTimeout);
    await vi.advanceTimersByTimeAsync(99);
    expect(onTimeout).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(onTimeout).toHaveBeenCalledTimes(1);
    answer("late");
    await expect(raced).resolves.toBe(TIMED_OUT);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("times out without an onTimeout", async () => {
    const raced = withDeadline(new Promise(() => undefined), 5);
    await vi.advanceTimersByTimeAsync(5);
    await expect(raced).resolves.toBe(TIMED_OUT);
  });

  it("caps the limit at setTimeout's ceiling, 2³¹ − 1 ms", () => {
    expect(MAX_TIMEOUT_MS).toBe(2 ** 31 - 1);
  });
});

describe("withDeadline's timer", () => {
  it("never keeps the process alive", async () => {
    const timers: NodeJS.Timeout[] = [];
    const original = globalThis.setTimeout;
    const spy = vi.spyOn(globalThis, "setTimeout").mockImplementation(((callback: () => void, ms: number) => {
      const timer = original(callback, ms);
      timers.push(timer);
      return timer;
    }) as typeof setTimeout);
    try {
      const raced = withDeadline(Promise.resolve("now"), 60_000);
      expect(timers.map((timer) => timer.hasRef())).toStrictEqual([false]);
      await raced;
    } finally {
      spy.mockRestore();
    }
  });
});

describe("callSignal", () => {
  it("aborts with the request's reason when the client cancels", () => {
    const request = new AbortController();
    const { signal } = callSignal(request.signal, 50);
    expect(signal.aborted).toBe(false);
    request.abort("cancelled by the client");
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe("cancelled by the client");
  });

  it("starts aborted when the request already was", () => {
    const request = new AbortController();
    request.abort("too late");
    const { signal } = callSignal(request.signal, 50);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe("too late");
  });

  it("aborts with a TimeoutError naming the limit", () => {
    const { signal, abortOnTimeout } = callSignal(undefined, 50);
    abortOnTimeout();
    expect(signal.reason).toBeInstanceOf(DOMException);
    expect({ name: (signal.reason as DOMException).name, message: (signal.reason as DOMException).message }).toStrictEqual({
      name: "TimeoutError",
      message: "The call took longer than 50 ms.",
    });
  });

  it("lets go of the request's signal once released", () => {
    const request = new AbortController();
    const { signal, release } = callSignal(request.signal, 50);
    release();
    request.abort("after the call");
    expect(signal.aborted).toBe(false);
  });

  it("works with no request signal at all", () => {
    const { signal, release } = callSignal(undefined, 50);
    expect(() => release()).not.toThrow();
    expect(signal.aborted).toBe(false);
  });
});

describe("requestSignal", () => {
  const v2 = new AbortController().signal;
  const v1 = new AbortController().signal;
  it.each([
    ["the SDK v2's ctx.mcpReq.signal", { mcpReq: { signal: v2 } }, v2],
    ["the SDK v1's extra.signal", { signal: v1 }, v1],
    ["v2's when both are there", { mcpReq: { signal: v2 }, signal: v1 }, v2],
    ["nothing for a signal that is no AbortSignal", { signal: { aborted: false } }, undefined],
    ["nothing for an mcpReq without a signal", { mcpReq: {} }, undefined],
    ["nothing for null", null, undefined],
    ["nothing for a string", "signal", undefined],
    ["nothing for undefined", undefined, undefined],
  ])("reads %s", (_name, extra, expected) => {
    expect(requestSignal(extra)).toBe(expected);
  });
});
