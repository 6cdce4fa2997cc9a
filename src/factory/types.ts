/**
 * The factory's public types: what `search` and `fetch` may return, the telemetry hook, and the
 * options of `registerDeepResearchTools`. Apart from register.ts so that the factory's parts
 * (options, outcomes) read them without importing the factory itself.
 */
import type { z } from "zod";
import type { Locale } from "../locales/index.js";
import type { DeepResearchToolName, FetchDocument, SearchResult } from "../contract/schemas.js";
import type { EnvelopeExtras } from "../envelope.js";
import type { DeepResearchToolAnnotations, RegisteredToolLike } from "./server.js";

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
  /** The argument names, sorted and comma-joined (`"query"`, `"id"`), at most 200 characters. */
  readonly params: string;
  /** The call's class: always `""` on `tool_call`; see above for `tool_error`. */
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
 * The second argument of every callback (`search`, `fetch`, `resolveId`). Its `signal` aborts
 * when the call outlives `timeoutMs` (reason: a `TimeoutError` `DOMException`) and when the
 * client cancels the request (`notifications/cancelled`). Pass it on to the query, so that a
 * call nobody waits for any more stops running; a callback that takes one argument ignores it.
 *
 * @example
 * const search = async (query: string, { signal }: CallbackContext) => {
 *   const client = await pool.connect();
 *   const stop = () => void pool.query("SELECT pg_cancel_backend($1)", [client.processID]);
 *   signal.addEventListener("abort", stop, { once: true });
 *   try {
 *     return (await client.query(sql, [query])).rows;
 *   } finally {
 *     signal.removeEventListener("abort", stop);
 *     client.release();
 *   }
 * };
 */
export interface CallbackContext {
  /** Aborts on the library's time limit and on the client's cancellation. */
  readonly signal: AbortSignal;
}

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
  /**
   * Runs a search: `SearchResult[]` or `{ results, extras? }`, sync or async. The second
   * argument's `signal` aborts on `timeoutMs` and on the client's cancellation.
   */
  readonly search: (query: string, call: CallbackContext) => SearchReply | PromiseLike<SearchReply>;
  /**
   * Reads a document: a `FetchDocument`, `{ document, extras? }`, or `null` for an unknown id.
   * The second argument's `signal` aborts on `timeoutMs` and on the client's cancellation.
   */
  readonly fetch: (id: string, call: CallbackContext) => FetchReply | null | PromiseLike<FetchReply | null>;
  /**
   * Maps what the model sent to `fetch` (a citation URL, an id without its namespace, extra
   * whitespace…) to a known id, or `null`, before the `fetch` callback runs; `null` gives the
   * not-found message for the raw argument. `createIndex(entries).resolve` fits as it is.
   * @default undefined (the raw argument goes to `fetch` unchanged)
   */
  readonly resolveId?: (raw: string, call: CallbackContext) => string | null | PromiseLike<string | null>;
  /** A phrase naming the catalogue, for the tool descriptions (always English). */
  readonly corpus: string;
  /**
   * A phrase naming the server's own tools, e.g. "the `ibge_*` tools": the descriptions tell a
   * capable client to prefer them for data questions.
   * @default undefined (the sentence is left out)
   */
  readonly richTools?: string;
  /**
   * Language of the titles, the schemas' descriptions and the error messages: a locale,
   * `"pt-BR"`, `"en"` or `"es"`. (`createIndex`'s `language` takes a language code instead,
   * `"pt"`: the language of the entries, which ranks them, not of the text the server writes.)
   * @default "pt-BR"
   */
  readonly locale?: Locale;
  /** Tool titles; each one missing takes the locale's default. @default the locale's titles */
  readonly titles?: { readonly search?: string; readonly fetch?: string };
  /** The message for an unknown id. @default the locale's: names the id, points to `search` */
  readonly notFound?: (id: string) => string;
  /** The message for a callback that threw. @default the locale's: names the tool and the error's message */
  readonly onError?: (error: unknown, tool: DeepResearchToolName) => string;
  /**
   * The tool annotations of both tools, over the defaults: each field given replaces the
   * default's, so `{ openWorldHint: true }` keeps the other two.
   * @default { readOnlyHint: true, destructiveHint: false, openWorldHint: false }
   */
  readonly annotations?: DeepResearchToolAnnotations;
  /**
   * The most results `search` returns, even when the callback returns more: a whole number, 0
   * or more, as every `limit` of the library is; any other value throws `McpSearchError`.
   * @default 10 (DEFAULT_LIMIT)
   */
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
  /**
   * Adds a second text block to each successful search result, after the contract JSON: the text
   * this returns from the result's `structuredContent` (the contract's `results` and the
   * declared extras), for hosts that show the model only `content` (desktop hosts), which
   * otherwise never see the extras. `content[0]` stays the contract JSON. Off by default: OpenAI's
   * guide shows exactly one text block, and third-party guides of the contract require one, so a
   * second block is a risk for ChatGPT (docs/factory.md); turn it on only for hosts that are not
   * ChatGPT. An empty string, or a function that throws, adds no block.
   *
   * @example
   * registerDeepResearchTools(server, { ...options, readableSearchText: ({ results }) => results.map((r) => r.title).join("
") });
   * @default undefined (one content block)
   */
  readonly readableSearchText?: (structured: { readonly results: readonly SearchResult[]; readonly [extra: string]: unknown }) => string;
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
  /** The registered `search` tool, as the server's `registerTool` returned it. */
  readonly search: Tool;
  /** The registered `fetch` tool, as the server's `registerTool` returned it. */
  readonly fetch: Tool;
}
