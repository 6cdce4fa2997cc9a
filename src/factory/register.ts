/**
 * The factory: `registerDeepResearchTools` registers `search` and `fetch` on the caller's
 * McpServer, v2 or v1, through the structural `McpServerLike` (./server.ts): no SDK is imported.
 *
 * Each tool is one small pipeline: arguments (already refused by the strict schema when they
 * carry a foreign key or exceed the maximum length) → callback, raced against `timeoutMs`, with a
 * signal that aborts on that limit and on the client's cancellation → reply checked against the
 * contract and normalised → envelope → telemetry.
 */
import { z } from "zod";
import { contractSchemas, type DeepResearchToolName, type SearchResult } from "../contract/schemas.js";
import { McpSearchError } from "../errors.js";
import { localeTexts } from "../locales/index.js";
import { describeParams, messageOf } from "./telemetry.js";
import { describeFetch, describeSearch } from "./descriptions.js";
import { checkFetchReply, checkSearchReply } from "./replies.js";
import { describeReceived } from "../contract/received.js";
import { validateOptions } from "./options.js";
import { assertSupportedServer, published, type McpServerLike, type RegisteredToolLike } from "./server.js";
import type { CallbackContext, DeepResearchTools, DeepResearchToolsOptions } from "./types.js";
import type { DeepResearchToolAnnotations } from "./server.js";
import { TIMED_OUT, callSignal, requestSignal, withDeadline } from "./deadline.js";
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
 * The tool annotations both tools carry unless `annotations` overrides them: read-only, not
 * destructive, closed world. OpenAI's app-submission checklist (2026) refuses a tool that leaves
 * any of the three unset, and reads `openWorldHint` as "changes public or third-party state",
 * which search and fetch never do.
 */
const DEFAULT_ANNOTATIONS: DeepResearchToolAnnotations = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };

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
  const annotations = { annotations: { ...DEFAULT_ANNOTATIONS, ...options.annotations } };

  // What differs between the two tools; everything else is registered the same way, below.
  const tools = {
    search: { description: describeSearch(described), input: schemas.searchInputSchema, run: (args: Record<string, unknown>, call: CallbackContext) => runSearch(context, args["query"] as string, call) },
    fetch: { description: describeFetch(described), input: schemas.fetchInputSchema, run: (args: Record<string, unknown>, call: CallbackContext) => runFetch(context, args["id"] as string, call) },
  } as const;
  const register = (name: DeepResearchToolName) =>
    registerOne(server, name, () =>
      server.registerTool(
        name,
        published({
          title: options.titles?.[name] ?? context.texts.tools[`${name}Title`],
          description: tools[name].description,
          inputSchema: tools[name].input,
          outputSchema: outputs[name],
          ...annotations,
        }),
        // The SDK has already parsed the arguments with the strict input schema.
        (args, extra) => settle(context, name, args, extra, (call) => tools[name].run(args, call)),
      ),
    );
  return { search: register("search"), fetch: register("fetch") } as DeepResearchTools<ReturnType<Server["registerTool"]>>;
}

/** The search pipeline: callback → reply checked, results cut at the limit → envelope. */
async function runSearch(context: Context, query: string, call: CallbackContext): Promise<Settled> {
  const checked = checkSearchReply(await context.options.search(query, call), context.limit);
  if ("problem" in checked) return badReply(context, "search", checked.problem);
  const { results, extras } = checked.value;
  return withReadableText(context, envelop(context, "search", { results } satisfies { results: SearchResult[] }, extras));
}

/**
 * A search result with the `readableSearchText` option's block after the contract's one; an
 * error result, an option not given, or a text that is empty or thrown, as it is.
 */
function withReadableText(context: Context, settled: Settled): Settled {
  const readable = context.options.readableSearchText;
  const { result } = settled;
  if (readable === undefined || "isError" in result || result.structuredContent === undefined) return settled;
  let text: unknown;
  try {
    text = readable(result.structuredContent as { results: SearchResult[] });
  } catch {
    return settled;
  }
  if (typeof text !== "string" || text === "") return settled;
  // The contract block stays first and alone in its place; the SDK's type names one block, the
  // protocol allows any number.
  return { ...settled, result: { ...result, content: [...result.content, { type: "text", text }] } as unknown as ToolResult };
}

/** The fetch pipeline: resolve the id → callback → not found, or the document checked → envelope. */
async function runFetch(context: Context, raw: string, call: CallbackContext): Promise<Settled> {
  const { resolveId, fetch } = context.options;
  const id: unknown = resolveId === undefined ? raw : await resolveId(raw, call);
  if (id !== null && id !== undefined && typeof id !== "string") {
    return badReply(context, "fetch", { kind: "type", path: "resolveId(id)", expected: "string", received: describeReceived(id) });
  }
  const reply = id === null || id === undefined ? null : await fetch(id, call);
  if (reply === null || reply === undefined) return notFound(context, raw);
  const checked = checkFetchReply(reply, id as string);
  if ("problem" in checked) return badReply(context, "fetch", checked.problem);
  const { document, extras } = checked.value;
  return envelop(context, "fetch", document, extras);
}

/**
 * Runs a pipeline to a value (anything thrown becomes an error result, a pipeline that outlives
 * `timeoutMs` a timeout result), then records the call. Telemetry sees the call only after the
 * callback settled or timed out. The pipeline's callbacks get `{ signal }`: it aborts when the
 * limit passes, and when the client cancels the request (`notifications/cancelled` aborts the
 * SDK's signal, found in the handler's second argument); a callback that honours it stops its
 * query, one that ignores it is simply not waited for past the limit, as before.
 */
async function settle(
  context: Context,
  tool: DeepResearchToolName,
  args: unknown,
  extra: unknown,
  run: (call: CallbackContext) => Promise<Settled>,
): Promise<ToolResult> {
  const call = callSignal(requestSignal(extra), context.timeoutMs);
  let settled: Settled;
  try {
    const outcome = await withDeadline(run({ signal: call.signal }), context.timeoutMs, call.abortOnTimeout);
    settled = outcome === TIMED_OUT ? timedOut(context, tool) : outcome;
  } catch (error) {
    settled = failure(context, tool, error);
  } finally {
    call.release();
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
