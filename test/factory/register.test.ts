import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  contractJsonSchemas,
  registerDeepResearchTools,
  type Locale,
  type DeepResearchToolsOptions,
} from "../../src/index.js";
import {
  DOCS,
  HITS,
  PROVENANCE,
  baseOptions,
  connect,
  open,
  textOf,
  withProvenance,
  withoutKeys,
} from "../_register-helpers.js";

// ---------------------------------------------------------------- tools/list

describe("registerDeepResearchTools: tools/list", () => {
  it("lists exactly search and fetch, with the pt-BR titles and strict inputs", async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toStrictEqual(["search", "fetch"]);
    const [search, fetch] = tools;
    expect(search?.title).toBe("Buscar documentos");
    expect(fetch?.title).toBe("Ler um documento");
    expect(Object.keys(search?.inputSchema.properties ?? {})).toStrictEqual(["query"]);
    expect(Object.keys(fetch?.inputSchema.properties ?? {})).toStrictEqual(["id"]);
    expect(search?.inputSchema.additionalProperties).toBe(false);
    expect(fetch?.inputSchema.additionalProperties).toBe(false);
    expect(search?.inputSchema.required).toStrictEqual(["query"]);
    expect(fetch?.inputSchema.required).toStrictEqual(["id"]);
    // OpenAI's app review refuses a tool that leaves any of the three hints unset (FACTS.md).
    expect(search?.annotations).toStrictEqual({ readOnlyHint: true, destructiveHint: false, openWorldHint: false });
    expect(fetch?.annotations).toStrictEqual({ readOnlyHint: true, destructiveHint: false, openWorldHint: false });
  });

  it("publishes the contract's output schemas, the same ones contractJsonSchemas derives", async () => {
    const { client } = await connect();
    const [search, fetch] = (await client.listTools()).tools;
    const { $schema: _s, ...searchOutput } = search?.outputSchema ?? {};
    const { $schema: _f, ...fetchOutput } = fetch?.outputSchema ?? {};
    expect(searchOutput).toStrictEqual(contractJsonSchemas().searchOutputSchema);
    expect(fetchOutput).toStrictEqual(contractJsonSchemas().fetchDocumentSchema);
  });

  it("describes the contract, the id hand-off, the rich tools, the query and read-only use, in English", async () => {
    const { client } = await connect();
    const [search, fetch] = (await client.listTools()).tools;
    for (const description of [search?.description ?? "", fetch?.description ?? ""]) {
      expect(description).toContain("IBGE official statistics (SIDRA tables)");
      expect(description).toContain("OpenAI Deep Research contract");
      expect(description).toContain("a capable client should prefer the `ibge_*` tools");
      expect(description).toContain("Read-only");
      expect(description).toMatch(/id returned by the search tool|result's id to the fetch tool/);
    }
    expect(search?.description).toContain("{ results: [{ id, title, url }] }");
    expect(search?.description).toContain("at most 10");
    expect(search?.description).toContain("natural language or keywords; accents and case are ignored");
    expect(fetch?.description).toContain("{ id, title, text, url, metadata? }");
  });

  it("leaves the rich-tools sentence out when richTools is not given", async () => {
    const { richTools: _omitted, ...rest } = baseOptions;
    const server = new McpServer({ name: "s", version: "1.0.0" });
    registerDeepResearchTools(server, rest);
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    const client = new Client({ name: "c", version: "1.0.0" });
    await client.connect(clientTransport);
    open.push(() => client.close());
    for (const tool of (await client.listTools()).tools) expect(tool.description).not.toContain("prefer");
  });

  it("lays the given annotations over the defaults, one field at a time, on both tools", async () => {
    const { client } = await connect({ annotations: { openWorldHint: true, idempotentHint: true } });
    for (const tool of (await client.listTools()).tools) {
      expect(tool.annotations).toStrictEqual({ readOnlyHint: true, destructiveHint: false, openWorldHint: true, idempotentHint: true });
    }
    const { client: writer } = await connect({ annotations: { readOnlyHint: false, destructiveHint: true } });
    for (const tool of (await writer.listTools()).tools) {
      expect(tool.annotations).toStrictEqual({ readOnlyHint: false, destructiveHint: true, openWorldHint: false });
    }
  });

  it("uses the given titles over the locale's", async () => {
    const { client } = await connect({ titles: { search: "Pesquisar no SIDRA" } });
    const [search, fetch] = (await client.listTools()).tools;
    expect(search?.title).toBe("Pesquisar no SIDRA");
    expect(fetch?.title).toBe("Ler um documento");
  });

  it("publishes declared extras through extendOutputSchema", async () => {
    const { client } = await connect({ extendOutputSchema: withProvenance });
    for (const tool of (await client.listTools()).tools) {
      expect(Object.keys(tool.outputSchema?.properties ?? {})).toContain("provenance");
      expect(tool.outputSchema?.additionalProperties).toBe(false);
    }
  });

  it("says the limit in the search description", async () => {
    const { client } = await connect({ limit: 3 });
    expect((await client.listTools()).tools[0]?.description).toContain("at most 3");
  });
});

// ---------------------------------------------------------------- locales

describe("registerDeepResearchTools: locales", () => {
  it.each([
    ["pt-BR", "Buscar documentos", "Ler um documento", 'Nenhum documento tem o id "nada". Use um id devolvido pela ferramenta search.', "A ferramenta search falhou: fora do ar"],
    ["en", "Search documents", "Read a document", 'No document has the id "nada". Use an id returned by the search tool.', "The search tool failed: fora do ar"],
    ["es", "Buscar documentos", "Leer un documento", 'Ningún documento tiene el id "nada". Use un id devuelto por la herramienta search.', "La herramienta search falló: fora do ar"],
  ] as const)("%s switches the titles, the schemas' descriptions and the messages at once", async (locale, searchTitle, fetchTitle, notFound, failed) => {
    const { client } = await connect({
      locale,
      search: () => {
        throw new Error("fora do ar");
      },
    });
    const [search, fetch] = (await client.listTools()).tools;
    expect([search?.title, fetch?.title]).toStrictEqual([searchTitle, fetchTitle]);
    const json = contractJsonSchemas(locale);
    expect(search?.inputSchema.properties?.["query"]).toStrictEqual(json.searchInputSchema.properties["query"]);
    expect(fetch?.inputSchema.description).toBe(json.fetchInputSchema.description);
    expect(search?.outputSchema?.description).toBe(json.searchOutputSchema.description);
    expect(await client.callTool({ name: "fetch", arguments: { id: "nada" } })).toStrictEqual({
      content: [{ type: "text", text: notFound }],
      isError: true,
    });
    expect(await client.callTool({ name: "search", arguments: { query: "x" } })).toStrictEqual({
      content: [{ type: "text", text: failed }],
      isError: true,
    });
  });

  it("keeps the tool descriptions in English whatever the locale", async () => {
    const describe = async (locale: Locale) =>
      (await (await connect({ locale })).client.listTools()).tools.map((tool) => tool.description);
    expect(await describe("pt-BR")).toStrictEqual(await describe("en"));
    expect(await describe("es")).toStrictEqual(await describe("en"));
  });
});

// ---------------------------------------------------------------- calls

describe("registerDeepResearchTools: search", () => {
  it("returns the contract object in structuredContent and as the one compact text block", async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: "search", arguments: { query: "Documento 1" } });
    const expected = { results: HITS.filter((hit) => hit.title.includes("Documento 1")) };
    expect(result).toStrictEqual({
      content: [{ type: "text", text: JSON.stringify(expected) }],
      structuredContent: expected,
    });
  });

  it("answers no match with { results: [] }, not an error", async () => {
    const { client } = await connect();
    expect(await client.callTool({ name: "search", arguments: { query: "nada" } })).toStrictEqual({
      content: [{ type: "text", text: '{"results":[]}' }],
      structuredContent: { results: [] },
    });
  });

  it.each([
    [undefined, 10],
    [3, 3],
    [1, 1],
    [50, 15],
  ])("cuts at limit %s even when the callback returns more", async (limit, expected) => {
    const { client } = await connect(limit === undefined ? {} : { limit });
    const result = await client.callTool({ name: "search", arguments: { query: "*" } });
    expect((result.structuredContent as { results: unknown[] }).results).toStrictEqual(HITS.slice(0, expected));
  });

  it.each([
    ["an array, sync", () => HITS.slice(0, 2)],
    ["an array, async", async () => HITS.slice(0, 2)],
    ["{ results }, sync", () => ({ results: HITS.slice(0, 2) })],
    ["{ results }, async", async () => ({ results: HITS.slice(0, 2) })],
  ])("accepts %s", async (_label, search) => {
    const { client } = await connect({ search });
    const result = await client.callTool({ name: "search", arguments: { query: "x" } });
    expect(result.structuredContent).toStrictEqual({ results: HITS.slice(0, 2) });
  });

  it("keeps only id, title and url of each hit", async () => {
    const search = () => [{ ...HITS[0]!, keywords: ["segredo"], score: 3 }];
    const { client } = await connect({ search });
    const result = await client.callTool({ name: "search", arguments: { query: "x" } });
    expect(textOf(result)).toBe(JSON.stringify({ results: [HITS[0]] }));
  });
});

describe("registerDeepResearchTools: fetch", () => {
  it.each([
    ["a document, sync", (id: string) => DOCS.find((doc) => doc.id === id) ?? null],
    ["a document, async", async (id: string) => DOCS.find((doc) => doc.id === id) ?? null],
    ["{ document }, sync", (id: string) => ({ document: DOCS.find((doc) => doc.id === id)! })],
    ["{ document }, async", async (id: string) => ({ document: DOCS.find((doc) => doc.id === id)! })],
  ])("accepts %s", async (_label, fetch) => {
    const { client } = await connect({ fetch });
    const result = await client.callTool({ name: "fetch", arguments: { id: "doc:2" } });
    expect(result).toStrictEqual({ content: [{ type: "text", text: JSON.stringify(DOCS[2]) }], structuredContent: DOCS[2] });
  });

  it("returns the document's keys in contract order, metadata included", async () => {
    const fetch = (id: string) => ({ metadata: { licence: "CC-BY" }, url: "https://x/a", text: "# A", title: "A", id, extra: 1 });
    const { client } = await connect({ fetch });
    const result = await client.callTool({ name: "fetch", arguments: { id: "a" } });
    expect(textOf(result)).toBe('{"id":"a","title":"A","text":"# A","url":"https://x/a","metadata":{"licence":"CC-BY"}}');
  });

  it("keeps a metadata key named __proto__, as the callback gave it, in both blocks", async () => {
    const metadata = JSON.parse('{"__proto__":"x","licence":"CC-BY"}') as Record<string, unknown>;
    const { client } = await connect({ fetch: (id: string) => ({ id, title: "A", text: "# A", url: "https://x/a", metadata }) });
    const result = await client.callTool({ name: "fetch", arguments: { id: "a" } });
    expect(textOf(result)).toBe('{"id":"a","title":"A","text":"# A","url":"https://x/a","metadata":{"__proto__":"x","licence":"CC-BY"}}');
    expect(Object.keys((result.structuredContent as { metadata: object }).metadata)).toStrictEqual(["__proto__", "licence"]);
  });

  it("answers an unknown id with an isError result that names it, with no structuredContent", async () => {
    const { client } = await connect();
    expect(await client.callTool({ name: "fetch", arguments: { id: "doc:99" } })).toStrictEqual({
      content: [{ type: "text", text: 'Nenhum documento tem o id "doc:99". Use um id devolvido pela ferramenta search.' }],
      isError: true,
    });
  });

  it("uses notFound over the locale's message", async () => {
    const { client } = await connect({ notFound: (id) => `Sem tabela ${id}; busque antes.` });
    const result = await client.callTool({ name: "fetch", arguments: { id: "t:1" } });
    expect(textOf(result)).toBe("Sem tabela t:1; busque antes.");
  });

  it.each([
    ["sync", (raw: string) => (raw.trim().replace(/^https:\/\/example\.com\//, "doc:") as string | null)],
    ["async", async (raw: string) => raw.trim().replace(/^https:\/\/example\.com\//, "doc:")],
  ])("maps the raw argument through resolveId (%s) before fetch runs", async (_label, resolveId) => {
    const asked: string[] = [];
    const fetch = (id: string) => (asked.push(id), DOCS.find((doc) => doc.id === id) ?? null);
    const { client } = await connect({ resolveId, fetch });
    const result = await client.callTool({ name: "fetch", arguments: { id: "  https://example.com/3 " } });
    expect(result.structuredContent).toStrictEqual(DOCS[3]);
    expect(asked).toStrictEqual(["doc:3"]);
  });

  it("gives the not-found message for the raw argument, without calling fetch, when resolveId returns null", async () => {
    const asked: string[] = [];
    const { client } = await connect({ resolveId: () => null, fetch: (id) => (asked.push(id), null) });
    const result = await client.callTool({ name: "fetch", arguments: { id: "https://example.com/nope" } });
    expect(result).toStrictEqual({
      content: [{ type: "text", text: 'Nenhum documento tem o id "https://example.com/nope". Use um id devolvido pela ferramenta search.' }],
      isError: true,
    });
    expect(asked).toStrictEqual([]);
  });
});

// ---------------------------------------------------------------- extras

describe("registerDeepResearchTools: extras", () => {
  const meta = { "br.com.example/provenance": { cacheKey: "sidra:6579" } };

  it("carries extras in structuredContent and _meta, never in the text block", async () => {
    const { client } = await connect({
      extendOutputSchema: withProvenance,
      search: () => ({ results: HITS.slice(0, 1), extras: { structured: { provenance: PROVENANCE }, meta } }),
      fetch: (id) => ({ document: { ...DOCS[0]!, id }, extras: { structured: { provenance: PROVENANCE }, meta } }),
    });
    const search = await client.callTool({ name: "search", arguments: { query: "x" } });
    const fetch = await client.callTool({ name: "fetch", arguments: { id: "doc:0" } });
    expect(search).toStrictEqual({
      content: [{ type: "text", text: JSON.stringify({ results: HITS.slice(0, 1) }) }],
      structuredContent: { provenance: PROVENANCE, results: HITS.slice(0, 1) },
      _meta: meta,
    });
    expect(fetch._meta).toStrictEqual(meta);
    for (const result of [search, fetch]) {
      expect(JSON.parse(textOf(result))).toStrictEqual(withoutKeys(result.structuredContent, ["provenance"]));
      expect(textOf(result)).not.toContain("IBGE");
    }
  });

  it("lets the contract's keys win a collision with the extras", async () => {
    const { client } = await connect({
      search: () => ({ results: HITS.slice(0, 1), extras: { structured: { results: "forjado" } } }),
    });
    const result = await client.callTool({ name: "search", arguments: { query: "x" } });
    expect(result.structuredContent).toStrictEqual({ results: HITS.slice(0, 1) });
  });

  it("validates declared extras on the server: a wrong provenance is an isError result", async () => {
    const { client } = await connect({
      extendOutputSchema: withProvenance,
      search: () => ({ results: [], extras: { structured: { provenance: { source: 1 } } } }),
    });
    const result = await client.callTool({ name: "search", arguments: { query: "x" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "A ferramenta search devolveu uma resposta fora do contrato: provenance.source é inválido (Invalid input: expected string, received number).",
    );
  });

  // The published output schemas are closed, so the SDK client would throw its own generic
  // error on an undeclared extra; the library answers first, naming the key.
  it.each([
    ["pt-BR", "search", "A ferramenta search devolveu uma resposta fora do contrato: extras.structured.provenance não está declarado no esquema de saída; declare-o com extendOutputSchema."],
    ["en", "search", "The search tool returned a reply outside the contract: extras.structured.provenance is not declared in the output schema; declare it with extendOutputSchema."],
    ["en", "fetch", "The fetch tool returned a reply outside the contract: extras.structured.provenance is not declared in the output schema; declare it with extendOutputSchema."],
    ["es", "search", "La herramienta search devolvió una respuesta fuera del contrato: extras.structured.provenance no está declarado en el esquema de salida; declárelo con extendOutputSchema."],
  ] as const)("without extendOutputSchema, an undeclared extra is an isError naming it (%s, %s)", async (locale, tool, text) => {
    const { client } = await connect({
      locale,
      search: () => ({ results: [], extras: { structured: { provenance: PROVENANCE } } }),
      fetch: (id) => ({ document: { ...DOCS[0]!, id }, extras: { structured: { provenance: PROVENANCE } } }),
    });
    await client.listTools(); // the client validates against the output schemas it cached here
    const args = tool === "search" ? { query: "x" } : { id: "doc:0" };
    expect(await client.callTool({ name: tool, arguments: args })).toStrictEqual({ content: [{ type: "text", text }], isError: true });
  });

  it("names an undeclared key nested inside a declared extra", async () => {
    const { client } = await connect({
      locale: "en",
      extendOutputSchema: (schema) => schema.extend({ summary: z.object({ total: z.number() }).optional() }),
      search: () => ({ results: [], extras: { structured: { summary: { total: 1, extra: [2] } } } }),
    });
    await client.listTools();
    const result = await client.callTool({ name: "search", arguments: { query: "x" } });
    expect(textOf(result)).toBe(
      "The search tool returned a reply outside the contract: extras.structured.summary.extra is not declared in the output schema; declare it with extendOutputSchema.",
    );
  });

  it("lets through what a validating client accepts: any _meta, open extras, declared extras", async () => {
    const cases: Partial<DeepResearchToolsOptions>[] = [
      { search: () => ({ results: HITS.slice(0, 1), extras: { meta: { anything: [1, { x: 2 }] } } }) },
      { extendOutputSchema: (schema) => schema.loose(), search: () => ({ results: HITS.slice(0, 1), extras: { structured: { free: { x: 1 } } } }) },
      { extendOutputSchema: withProvenance, search: () => ({ results: HITS.slice(0, 1), extras: { structured: { provenance: undefined } } }) },
    ];
    for (const options of cases) {
      const { client } = await connect(options);
      await client.listTools();
      const result = await client.callTool({ name: "search", arguments: { query: "x" } });
      expect(result.isError).toBeUndefined();
      expect(JSON.parse(textOf(result))).toStrictEqual({ results: HITS.slice(0, 1) });
    }
  });
});

// ---------------------------------------------------------------- errors

describe("registerDeepResearchTools: thrown errors", () => {
  const withStack = new Error("banco indisponível");
  it.each([
    ["a sync throw", () => { throw withStack; }, "A ferramenta search falhou: banco indisponível"],
    ["a rejection", () => Promise.reject(new TypeError("x is not a function")), "A ferramenta search falhou: x is not a function"],
    ["a thrown string", () => { throw "cota excedida"; }, "A ferramenta search falhou: cota excedida"],
    ["a reply of the wrong shape", () => undefined as never, "A ferramenta search devolveu uma resposta fora do contrato: a resposta deve ser uma lista de resultados ou { results } (recebido: undefined)."],
  ])("turns %s into an isError result with no stack", async (_label, search, text) => {
    const { client } = await connect({ search });
    const result = await client.callTool({ name: "search", arguments: { query: "x" } });
    expect(result.isError).toBe(true);
    expect("structuredContent" in result).toBe(false);
    expect(textOf(result).startsWith(text)).toBe(true);
    expect(textOf(result)).not.toMatch(/\n\s+at /);
  });

  it("uses onError for the message, and falls back to the locale's when onError throws", async () => {
    const failing = () => Promise.reject(new Error("boom"));
    const { client } = await connect({ search: failing, fetch: failing, onError: (error, tool) => {
      if (tool === "fetch") throw new Error("onError broke");
      return `${tool}: ${(error as Error).message}; tente de novo`;
    } });
    expect(textOf(await client.callTool({ name: "search", arguments: { query: "x" } }))).toBe("search: boom; tente de novo");
    expect(textOf(await client.callTool({ name: "fetch", arguments: { id: "a" } }))).toBe("A ferramenta fetch falhou: boom");
  });
});
