/**
 * The factory: `registerDeepResearchTools` registers `search` and `fetch` on the caller's
 * McpServer. The only module that knows the MCP SDK, and only its types.
 *
 * Each tool is one small pipeline: arguments (already refused by the strict schema when they
 * carry a foreign key) → callback → reply normalised to the contract → envelope → telemetry.
 */
import type { McpServer, RegisteredTool, ToolAnnotations } from "@modelcontextprotocol/server";
import { z } from "zod";
import {
  contractSchemas,
  type ContractLocale,
  type DeepResearchToolName,
  type FetchDocument,
  type SearchResult,
} from "./contract.js";
import {
  deepResearchError,
  deepResearchResult,
  type DeepResearchErrorResult,
  type DeepResearchResult,
  type EnvelopeExtras,
} from "./envelope.js";
import { McpSearchError } from "./errors.js";
import { localeTexts, type LocaleTexts } from "./_locale.js";
import { classifyFailure, describeParams, messageOf } from "./_telemetry.js";
import { describeFetch, describeSearch } from "./_tool-descriptions.js";
import { normalizeFetchReply, normalizeSearchReply } from "./_replies.js";
import { validateOptions } from "./_tool-options.js";

/**
 * Where `classe` is attached, non-enumerable, to an error result whose class was decided by
 * type (an unknown id, a thrown error's `classe`, or `classifyThrown`), so the author's other
 * packages can read it without parsing the message.
 *
 * @example
 * const classe = (result as { [CLASSE_DO_ERRO]?: string })[CLASSE_DO_ERRO]; // => "nao_encontrado"
 */
export const CLASSE_DO_ERRO: unique symbol = Symbol.for("br.com.sidneybissoli.mcp/classe-do-erro");

/**
 * What the `search` callback returns, sync or async: the hits, or the hits with the envelope
 * extras of this call. Results beyond the limit are cut; only `id`, `title` and `url` are kept.
 *
 * @example
 * const reply: SearchReply = { results: index.search(query), extras: { meta: { cacheKey } } };
 */
export type SearchReply =
  | readonly SearchResult[]
  | { readonly results: readonly SearchResult[]; readonly extras?: EnvelopeExtras };

/**
 * What the `fetch` callback returns for a known id, sync or async: the document, or the document
 * with the envelope extras of this call. Return `null` for an unknown id.
 *
 * @example
 * const reply: FetchReply = {
 *   document: { id, title: "Tabela 6579", url: "https://sidra.ibge.gov.br/tabela/6579", text: "# Tabela 6579\n…" },
 *   extras: { structured: { provenance }, meta: { "br.com.example/provenance": provenance } },
 * };
 */
export type FetchReply =
  | FetchDocument
  | { readonly document: FetchDocument; readonly extras?: EnvelopeExtras };

/**
 * What telemetry learns of one call: the sorted, comma-joined NAMES of its arguments (capped at
 * 200 characters; values never reach telemetry) and the class of its failure, `""` on success.
 *
 * @example
 * const shape: UsageShape = { params: "id", classe: "nao_encontrado" };
 */
export interface UsageShape {
  readonly params: string;
  readonly classe: string;
}

/**
 * `"tool_call"` on every call, plus `"tool_error"` when the result is an error.
 *
 * @example
 * const kind: UsageKind = "tool_error";
 */
export type UsageKind = "tool_call" | "tool_error";

/**
 * The telemetry hook, called after the callback settles: once with `"tool_call"`, then once
 * more with `"tool_error"` (same shape) when the result is an error. A recorder that throws is
 * ignored; the result still reaches the client.
 *
 * @example
 * const record: UsageRecorder = (kind, tool, { params, classe }) => {
 *   console.error(JSON.stringify({ kind, tool, params, classe })); // stderr: stdout is the protocol
 * };
 */
export type UsageRecorder = (kind: UsageKind, tool: DeepResearchToolName, shape: UsageShape) => void;

/**
 * Options of {@link registerDeepResearchTools}.
 *
 * @example
 * const options: DeepResearchToolsOptions = {
 *   search: (query) => index.search(query),
 *   fetch: (id) => documents.get(id) ?? null,
 *   corpus: "IBGE official statistics",
 *   richTools: "the `ibge_*` tools",
 * };
 */
export interface DeepResearchToolsOptions {
  /** Runs a search: `SearchResult[]` or `{ results, extras? }`, sync or async. */
  readonly search: (query: string) => SearchReply | PromiseLike<SearchReply>;
  /** Reads a document: a `FetchDocument`, `{ document, extras? }`, or `null` for an unknown id. */
  readonly fetch: (id: string) => FetchReply | null | PromiseLike<FetchReply | null>;
  /**
   * Maps what the model sent to `fetch` (a citation URL, an id without its namespace, extra
   * whitespace…) to a known id, or `null`, before the `fetch` callback runs; `null` gives the
   * not-found message for the raw argument. `createIndex(entries).resolve` fits as it is.
   * @default undefined (the raw argument goes to `fetch` unchanged)
   */
  readonly resolveId?: (raw: string) => string | null | PromiseLike<string | null>;
  /** A phrase naming the catalogue, for the tool descriptions (always English). */
  readonly corpus: string;
  /**
   * A phrase naming the server's own tools, e.g. "the `ibge_*` tools": the descriptions tell a
   * capable client to prefer them for data questions.
   * @default undefined (the sentence is left out)
   */
  readonly richTools?: string;
  /** Language of the titles, the schemas' descriptions and the error messages. @default "pt-BR" */
  readonly locale?: ContractLocale;
  /** Tool titles; each one missing takes the locale's default. @default the locale's titles */
  readonly titles?: { readonly search?: string; readonly fetch?: string };
  /** The message for an unknown id. @default the locale's: names the id, points to `search` */
  readonly notFound?: (id: string) => string;
  /** The message for a callback that threw. @default the locale's: names the tool and the error's message */
  readonly onError?: (error: unknown, tool: DeepResearchToolName) => string;
  /** Passed unchanged to both tools, and only when given. @default undefined */
  readonly annotations?: ToolAnnotations;
  /** The most results `search` returns, even when the callback returns more; at least 1. @default 10 */
  readonly limit?: number;
  /**
   * Applied to both output schemas, so declared extras (a provenance block) are published in
   * `tools/list` and validated. Without it, the output schemas are closed and a validating
   * client rejects a result whose `structuredContent` carries undeclared extras.
   * @default undefined (the contract's schemas as they are)
   */
  readonly extendOutputSchema?: (schema: z.ZodObject) => z.ZodObject;
  /** The telemetry hook. @default undefined (no telemetry) */
  readonly record?: UsageRecorder;
  /** Classes an error result by its final message. @default undefined */
  readonly classifyError?: (message: string) => string | undefined;
  /** Classes a thrown error by its type, before `classifyError`. @default undefined */
  readonly classifyThrown?: (error: unknown) => string | undefined;
}

/**
 * The two tools as registered, to enable, disable or remove them later.
 *
 * @example
 * const { search }: DeepResearchTools = registerDeepResearchTools(server, options);
 * search.disable();
 */
export interface DeepResearchTools {
  readonly search: RegisteredTool;
  readonly fetch: RegisteredTool;
}

type ToolResult = DeepResearchResult<object> | DeepResearchErrorResult;

/** One settled call: the result the client receives and the class telemetry records. */
interface Settled {
  readonly result: ToolResult;
  readonly classe: string;
}

/** What the pipelines share, resolved once at registration. */
interface Context {
  readonly options: DeepResearchToolsOptions;
  readonly texts: LocaleTexts;
  readonly limit: number;
}

/**
 * Registers the OpenAI Deep Research tools `search` and `fetch` (no prefix) on an McpServer
 * from `@modelcontextprotocol/server` v2, with the contract's strict zod schemas. The contract
 * object goes in `structuredContent` and, as compact JSON, in the only content block; extras go
 * in `structuredContent` and `_meta`. A callback that throws, or an unknown id, becomes an
 * `isError` result with a message the model can act on; nothing is rethrown. Misuse (a missing
 * callback, a bad limit, a name already taken) throws `McpSearchError`.
 *
 * @example
 * const server = new McpServer({ name: "ibge", version: "1.0.0" });
 * registerDeepResearchTools(server, {
 *   search: (query) => index.search(query),
 *   fetch: (id) => render(id), // FetchDocument | { document, extras } | null
 *   corpus: "IBGE official statistics (SIDRA tables, municipalities, indicators)",
 *   richTools: "the `ibge_*` tools",
 * });
 * // tools/list => search ("Buscar documentos"), fetch ("Ler um documento")
 */
export function registerDeepResearchTools(
  server: McpServer,
  options: DeepResearchToolsOptions,
): DeepResearchTools {
  const { locale, limit } = validateOptions(server, options);
  const context: Context = { options, texts: localeTexts(locale), limit };
  const schemas = contractSchemas(locale);
  const described = { corpus: options.corpus, richTools: options.richTools, limit };
  const annotations = options.annotations === undefined ? {} : { annotations: options.annotations };

  const search = registerOne(server, "search", () =>
    server.registerTool(
      "search",
      {
        title: options.titles?.search ?? context.texts.tools.searchTitle,
        description: describeSearch(described),
        inputSchema: schemas.searchInputSchema,
        outputSchema: extendSchema(options, schemas.searchOutputSchema),
        ...annotations,
      },
      (args) => settle(context, "search", args, () => runSearch(context, args.query)),
    ),
  );
  const fetch = registerOne(server, "fetch", () =>
    server.registerTool(
      "fetch",
      {
        title: options.titles?.fetch ?? context.texts.tools.fetchTitle,
        description: describeFetch(described),
        inputSchema: schemas.fetchInputSchema,
        outputSchema: extendSchema(options, schemas.fetchDocumentSchema),
        ...annotations,
      },
      (args) => settle(context, "fetch", args, () => runFetch(context, args.id)),
    ),
  );
  return { search, fetch };
}

/** The search pipeline: callback → results cut at the limit → envelope. */
async function runSearch(context: Context, query: string): Promise<Settled> {
  const { results, extras } = normalizeSearchReply(await context.options.search(query), context.limit);
  return { result: deepResearchResult({ results } satisfies { results: SearchResult[] }, extras), classe: "" };
}

/** The fetch pipeline: resolve the id → callback → not found, or the document → envelope. */
async function runFetch(context: Context, raw: string): Promise<Settled> {
  const { resolveId, fetch } = context.options;
  const id = resolveId === undefined ? raw : await resolveId(raw);
  const reply = id === null || id === undefined ? null : await fetch(id);
  if (reply === null || reply === undefined) {
    const message = context.options.notFound?.(raw) ?? context.texts.tools.notFound(raw);
    return { result: withClasse(deepResearchError(message), "nao_encontrado"), classe: "nao_encontrado" };
  }
  const { document, extras } = normalizeFetchReply(reply);
  return { result: deepResearchResult<FetchDocument>(document, extras), classe: "" };
}

/**
 * Runs a pipeline to a value (anything thrown becomes an error result), then records the call.
 * Telemetry sees the call only after the callback settled.
 */
async function settle(
  context: Context,
  tool: DeepResearchToolName,
  args: unknown,
  run: () => Promise<Settled>,
): Promise<ToolResult> {
  let settled: Settled;
  try {
    settled = await run();
  } catch (error) {
    settled = failure(context, tool, error);
  }
  record(context, tool, args, settled);
  return settled.result;
}

/** A thrown or rejected callback as an error result: message, never a stack; class by type first. */
function failure(context: Context, tool: DeepResearchToolName, error: unknown): Settled {
  const text = errorMessage(context, tool, error);
  const { classifyThrown, classifyError } = context.options;
  const { classe, byType } = classifyFailure(error, text, classifyThrown, classifyError);
  const result = deepResearchError(text);
  return { result: byType ? withClasse(result, classe) : result, classe };
}

function errorMessage(context: Context, tool: DeepResearchToolName, error: unknown): string {
  const { onError } = context.options;
  if (onError !== undefined) {
    try {
      const message: unknown = onError(error, tool);
      if (typeof message === "string") return message;
    } catch {
      // fall back to the locale's message
    }
  }
  return context.texts.tools.error(tool, messageOf(error));
}

function withClasse(result: DeepResearchErrorResult, classe: string): DeepResearchErrorResult {
  return Object.defineProperty(result, CLASSE_DO_ERRO, { value: classe, enumerable: false });
}

function record(context: Context, tool: DeepResearchToolName, args: unknown, settled: Settled): void {
  const recorder = context.options.record;
  if (recorder === undefined) return;
  const shape: UsageShape = { params: describeParams(args), classe: settled.classe };
  const isError = "isError" in settled.result;
  try {
    recorder("tool_call", tool, shape);
    if (isError) recorder("tool_error", tool, shape);
  } catch {
    // telemetry must never change what the client receives
  }
}

function extendSchema(options: DeepResearchToolsOptions, schema: z.ZodObject): z.ZodObject {
  if (options.extendOutputSchema === undefined) return schema;
  const extended: unknown = options.extendOutputSchema(schema);
  if (!(extended instanceof z.ZodObject)) {
    throw new McpSearchError(
      "registerDeepResearchTools: extendOutputSchema must return a zod object schema (e.g. schema.extend({ provenance })).",
    );
  }
  return extended;
}

function registerOne(server: McpServer, name: DeepResearchToolName, register: () => RegisteredTool) {
  try {
    return register();
  } catch (error) {
    if (error instanceof McpSearchError) throw error;
    throw new McpSearchError(
      `registerDeepResearchTools: could not register the "${name}" tool on ${server.constructor.name}: ${messageOf(error)}`,
      { cause: error },
    );
  }
}
