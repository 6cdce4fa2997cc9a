/**
 * The factory: `registerDeepResearchTools` registers `search` and `fetch` on the caller's
 * McpServer, v2 or v1, through the structural `McpServerLike` (./server.ts): no SDK is imported.
 *
 * Each tool is one small pipeline: arguments (already refused by the strict schema when they
 * carry a foreign key or exceed the maximum length) → callback, raced against `timeoutMs` →
 * reply checked against the contract and normalised → envelope → telemetry.
 */
import { z } from "zod";
import {
  contractSchemas,
  type ContractLocale,
  type DeepResearchToolName,
  type FetchDocument,
  type SearchResult,
} from "../contract/schemas.js";
import type { EnvelopeExtras } from "../envelope.js";
import { McpSearchError } from "../errors.js";
import { localeTexts } from "../locales/index.js";
import { describeParams, messageOf } from "./telemetry.js";
import { describeFetch, describeSearch } from "./descriptions.js";
import { checkFetchReply, checkSearchReply } from "./replies.js";
import { describeReceived } from "../contract/received.js";
import { validateOptions } from "./options.js";
import { assertSupportedServer, type DeepResearchToolAnnotations, type McpServerLike, type RegisteredToolLike } from "./server.js";
import { TIMED_OUT, withDeadline } from "./deadline.js";
import {
  CLASSE_KEY,
  badReply,
  envelop,
  failure,
  notFound,
  timedOut,
  type OutcomeContext,
  type Settled,
  type ToolResult,
  MAX_REPLY_CHARS as REPLY_CAP,
} from "./outcomes.js";

/**
 * How long, in milliseconds, a call's callbacks may take together (`resolveId` then `fetch`, or
 * `search`) before the call answers with an `isError` naming the tool and the limit.
 *
 * @example
 * registerDeepResearchTools(server, { ...options, timeoutMs: DEFAULT_TIMEOUT_MS / 3 }); // 10 s
 */
export const DEFAULT_TIMEOUT_MS = 30_000;


/**
 * The most UTF-16 code units of JSON a reply may carry: its text block (the contract object's
 * compact JSON) plus the compact JSON of its extras, 50 MiB. A reply above it, or one too large
 * for JavaScript to serialise at all, is answered with an `isError` naming its size and the cap
 * (classe `resposta_invalida`), never with silence.
 *
 * @example
 * const room = MAX_REPLY_CHARS - JSON.stringify(document).length; // characters left for extras
 */
export const MAX_REPLY_CHARS: number = REPLY_CAP;

/**
 * Where `classe` is attached, non-enumerable, to an error result whose class was decided by
 * type (an unknown id, a thrown error's `classe`, or `classifyThrown`), so the author's other
 * packages can read it without parsing the message.
 *
 * @example
 * const classe = (result as { [CLASSE_DO_ERRO]?: string })[CLASSE_DO_ERRO]; // => "nao_encontrado"
 */
export const CLASSE_DO_ERRO: unique symbol = Symbol.for(CLASSE_KEY);

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
 * 200 characters; values never reach telemetry) and a class. `classe` is always `""` on
 * `tool_call`, since the call's shape is recorded before its class is known. On `tool_error` it
 * is `""` unless `classifyError` is given; then the class decided by type wins (an unknown id,
 * a reply outside the contract, a timeout, an error's own `classe`, `classifyThrown`), and
 * otherwise it is `classifyError(first text block of the error)`.
 *
 * @example
 * const shape: UsageShape = { params: "id", classe: "nao_encontrado" };
 */
export interface UsageShape {
  readonly params: string;
  readonly classe: string;
}

/** `"tool_call"` on every call, plus `"tool_error"` when the result is an error. */
export type UsageKind = "tool_call" | "tool_error";

/**
 * The telemetry hook, called after the callback settles: once with `"tool_call"` (`classe`
 * always `""`), then once more with `"tool_error"` when the result is an error (see
 * {@link UsageShape} for its `classe`). A callback that throws anything at all, even an error
 * whose message cannot be read, still gets its `tool_error`. A recorder that throws is ignored;
 * the result still reaches the client.
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
  readonly annotations?: DeepResearchToolAnnotations;
  /** The most results `search` returns, even when the callback returns more; at least 1. @default 10 */
  readonly limit?: number;
  /**
   * The most milliseconds a call's callbacks may take together (`resolveId` then `fetch`, or
   * `search`): past it the call answers with an `isError` naming the tool and the limit, and the
   * callback's late answer is dropped. An integer from 1 to 2147483647.
   * @default 30000 (DEFAULT_TIMEOUT_MS)
   */
  readonly timeoutMs?: number;
  /**
   * Applied to both output schemas, so declared extras (a provenance block) are published in
   * `tools/list` and validated. The published schemas are closed, so an extra in
   * `extras.structured` that they do not declare is answered with an `isError` naming it
   * (`extras.structured.provenance`) rather than sent to a client that would reject it.
   * @default undefined (the contract's schemas as they are)
   */
  readonly extendOutputSchema?: (schema: z.ZodObject) => z.ZodObject;
  /** The telemetry hook. @default undefined (no telemetry) */
  readonly record?: UsageRecorder;
  /**
   * Classes an error result by its final message, for `tool_error` telemetry. Without it,
   * `tool_error` records `classe: ""`, even when the class is known by type (which still goes
   * on the result under `CLASSE_DO_ERRO`).
   * @default undefined
   */
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
export interface DeepResearchTools<Tool extends RegisteredToolLike = RegisteredToolLike> {
  readonly search: Tool;
  readonly fetch: Tool;
}

/** What the pipelines share, resolved once at registration. */
interface Context extends OutcomeContext {
  readonly limit: number;
}

/**
 * Registers the OpenAI Deep Research tools `search` and `fetch` (no prefix) on an McpServer
 * from `@modelcontextprotocol/server` ^2.4 or `@modelcontextprotocol/sdk` ^1.23, with the
 * contract's strict zod schemas (an older v1 server throws `McpSearchError`: it would publish
 * empty schemas). The contract
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
export function registerDeepResearchTools<Server extends McpServerLike>(
  server: Server,
  options: DeepResearchToolsOptions,
): DeepResearchTools<ReturnType<Server["registerTool"]>> {
  const checked = validateOptions(server, options);
  assertSupportedServer(server);
  const { locale, limit } = checked;
  const schemas = contractSchemas(locale);
  const outputs = {
    search: extendSchema(options, schemas.searchOutputSchema),
    fetch: extendSchema(options, schemas.fetchDocumentSchema),
  };
  const context: Context = {
    options,
    texts: localeTexts(locale),
    limit,
    timeoutMs: checked.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    outputs,
  };
  const described = { corpus: options.corpus, richTools: options.richTools, limit };
  const annotations = options.annotations === undefined ? {} : { annotations: options.annotations };

  const search = registerOne(server, "search", () =>
    server.registerTool(
      "search",
      {
        title: options.titles?.search ?? context.texts.tools.searchTitle,
        description: describeSearch(described),
        inputSchema: schemas.searchInputSchema,
        outputSchema: outputs.search,
        ...annotations,
      },
      // The SDK has already parsed the arguments with the strict input schema.
      (args) => settle(context, "search", args, () => runSearch(context, args["query"] as string)),
    ),
  );
  const fetch = registerOne(server, "fetch", () =>
    server.registerTool(
      "fetch",
      {
        title: options.titles?.fetch ?? context.texts.tools.fetchTitle,
        description: describeFetch(described),
        inputSchema: schemas.fetchInputSchema,
        outputSchema: outputs.fetch,
        ...annotations,
      },
      (args) => settle(context, "fetch", args, () => runFetch(context, args["id"] as string)),
    ),
  );
  return { search, fetch } as DeepResearchTools<ReturnType<Server["registerTool"]>>;
}

/** The search pipeline: callback → reply checked, results cut at the limit → envelope. */
async function runSearch(context: Context, query: string): Promise<Settled> {
  const checked = checkSearchReply(await context.options.search(query), context.limit);
  if ("problem" in checked) return badReply(context, "search", checked.problem);
  const { results, extras } = checked.value;
  return envelop(context, "search", { results } satisfies { results: SearchResult[] }, extras);
}

/** The fetch pipeline: resolve the id → callback → not found, or the document checked → envelope. */
async function runFetch(context: Context, raw: string): Promise<Settled> {
  const { resolveId, fetch } = context.options;
  const id: unknown = resolveId === undefined ? raw : await resolveId(raw);
  if (id !== null && id !== undefined && typeof id !== "string") {
    return badReply(context, "fetch", { kind: "type", path: "resolveId(id)", expected: "string", received: describeReceived(id) });
  }
  const reply = id === null || id === undefined ? null : await fetch(id);
  if (reply === null || reply === undefined) return notFound(context, raw);
  const checked = checkFetchReply(reply, id as string);
  if ("problem" in checked) return badReply(context, "fetch", checked.problem);
  const { document, extras } = checked.value;
  return envelop(context, "fetch", document, extras);
}

/**
 * Runs a pipeline to a value (anything thrown becomes an error result, a pipeline that outlives
 * `timeoutMs` a timeout result), then records the call. Telemetry sees the call only after the
 * callback settled or timed out.
 */
async function settle(
  context: Context,
  tool: DeepResearchToolName,
  args: unknown,
  run: () => Promise<Settled>,
): Promise<ToolResult> {
  let settled: Settled;
  try {
    const outcome = await withDeadline(run(), context.timeoutMs);
    settled = outcome === TIMED_OUT ? timedOut(context, tool) : outcome;
  } catch (error) {
    settled = failure(context, tool, error);
  }
  record(context, tool, args, settled);
  return settled.result;
}

/**
 * `tool_call` with `classe: ""` on every call, then `tool_error` on an error result. Its class is
 * `""` unless `classifyError` is given; then the class decided by type wins, and otherwise the
 * one `classifyError` gave the message (both already in `settled.classe`).
 */
function record(context: Context, tool: DeepResearchToolName, args: unknown, settled: Settled): void {
  const recorder = context.options.record;
  if (recorder === undefined) return;
  const params = describeParams(args);
  const isError = "isError" in settled.result;
  const classe = context.options.classifyError === undefined ? "" : settled.classe;
  try {
    recorder("tool_call", tool, { params, classe: "" });
    if (isError) recorder("tool_error", tool, { params, classe });
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

function registerOne(server: McpServerLike, name: DeepResearchToolName, register: () => RegisteredToolLike) {
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
