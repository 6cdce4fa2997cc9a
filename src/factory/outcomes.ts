/**
 * Private helpers of the factory: each way a call can end, as the result the client receives
 * and the class (`classe`) telemetry records. A class decided by type is also attached to the
 * result, non-enumerable, under the registered symbol `CLASSE_DO_ERRO`.
 */
import type { z } from "zod";
import type { DeepResearchToolName } from "../contract/schemas.js";
import {
  deepResearchError,
  deepResearchResult,
  type DeepResearchErrorResult,
  type DeepResearchResult,
  type EnvelopeExtras,
} from "../envelope.js";
import type { LocaleTexts } from "../locales/index.js";
import type { DeepResearchToolsOptions } from "./types.js";
import { formatPath, type ReplyProblem } from "./replies.js";
import { classifyFailure, messageOf, readMessage } from "./telemetry.js";

/** The key of the registered symbol `CLASSE_DO_ERRO` (`Symbol.for` returns the same symbol). */
export const CLASSE_KEY = "br.com.sidneybissoli.mcp/classe-do-erro";
const CLASSE = Symbol.for(CLASSE_KEY);

/**
 * The classes the library itself gives an error result, under `CLASSE_DO_ERRO` and in
 * `tool_error` telemetry. The values are the original 0.9.0's, in Portuguese, and stay so that
 * dashboards built on them keep working:
 * - `"nao_encontrado"` ("not found"): `fetch` got an id that no document has (after `resolveId`).
 * - `"tempo_esgotado"` ("time ran out"): the call's callbacks outlived `timeoutMs`.
 * - `"resposta_invalida"` ("invalid reply"): a callback returned a reply outside the contract.
 *
 * A server adds its own classes through an error's `classe`, `classifyThrown` or
 * `classifyError`; those are any string.
 */
export type LibraryErrorClass = "nao_encontrado" | "tempo_esgotado" | "resposta_invalida";

/** The `classe` of a call whose callbacks outlived `timeoutMs`. */
const TIMEOUT_CLASS: LibraryErrorClass = "tempo_esgotado";
/** The `classe` of a call whose callback returned a reply outside the contract. */
const BAD_REPLY_CLASS: LibraryErrorClass = "resposta_invalida";
/** The `classe` of an unknown id. */
const NOT_FOUND_CLASS: LibraryErrorClass = "nao_encontrado";

export type ToolResult = DeepResearchResult<object> | DeepResearchErrorResult;

/** One settled call: the result the client receives and the class telemetry records. */
export interface Settled {
  readonly result: ToolResult;
  readonly classe: string;
}

/** What the outcomes need, resolved once at registration. */
export interface OutcomeContext {
  readonly options: DeepResearchToolsOptions;
  readonly texts: LocaleTexts;
  readonly timeoutMs: number;
  /** The output schemas as published in `tools/list` (extended when `extendOutputSchema` is given). */
  readonly outputs: Readonly<Record<DeepResearchToolName, z.ZodObject>>;
}

/**
 * The longest error text a client receives, in UTF-16 code units: 4 KiB. A longer message of a
 * thrown error, of `onError` or of `notFound` is cut there and ends in "…". A model acts on the
 * first sentence; a 100-million-character message once made the reply fail to serialise, and
 * over stdio the client got no answer at all.
 */
export const MAX_ERROR_CHARS = 4096;

/**
 * `text` cut to {@link MAX_ERROR_CHARS}, ending in "…" when cut, never inside a surrogate pair.
 *
 * @example
 * capErrorText("x".repeat(5000)).length; // => 4096, the last character "…"
 */
export function capErrorText(text: string): string {
  if (text.length <= MAX_ERROR_CHARS) return text;
  let end = MAX_ERROR_CHARS - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1; // keep a surrogate pair whole
  return `${text.slice(0, end)}…`;
}

/** The unknown-id result: `notFound`'s message when it gives one, else the locale's; capped. */
export function notFound(context: OutcomeContext, raw: string): Settled {
  let message: unknown;
  try {
    // Stryker disable next-line OptionalChaining: without notFound the call throws here, and the catch falls back alike
    message = context.options.notFound?.(raw);
  } catch {
    // fall back to the locale's message
  }
  const text = capErrorText(typeof message === "string" ? message : context.texts.tools.notFound(raw));
  return { result: withClasse(deepResearchError(text), NOT_FOUND_CLASS), classe: NOT_FOUND_CLASS };
}

/**
 * The envelope of a checked reply, after the last checks the SDK would otherwise make with its
 * own words: everything converts to JSON, and `structuredContent` meets the published output
 * schema — declared extras are valid, and no extra is undeclared (the published schema is
 * closed, so a validating client would reject it). `_meta` is only checked to convert to JSON
 * (a key whose getter or conversion throws is named: `extras.structured.provenance`). A reply
 * over `MAX_REPLY_CHARS`, or too large for JavaScript to serialise, is refused naming its size.
 * A reply with neither an extended schema nor structured extras skips the schema pass: its
 * contract object was already checked field by field.
 */
export function envelop(
  context: OutcomeContext,
  tool: DeepResearchToolName,
  object: object,
  extras: EnvelopeExtras | undefined,
): Settled {
  let result: DeepResearchResult<object>;
  let extrasJson = "";
  try {
    result = deepResearchResult(object, extras);
    if (extras !== undefined) extrasJson = JSON.stringify(extras);
  } catch (error) {
    return badReply(context, tool, locateJsonProblem(object, extras, error));
  }
  // The text block, then structuredContent (the same object again) and the extras: the SDK can
  // serialise anything under the cap, escapes included, far below JavaScript's string limit.
  const size = result.content[0].text.length + extrasJson.length;
  if (size > MAX_REPLY_CHARS) return badReply(context, tool, { kind: "tooLarge", path: "", size, limit: MAX_REPLY_CHARS });
  // The contract object was checked field by field before it got here; the schema has more to
  // say only when the server extended it or attached structured extras.
  const structured = extras?.structured;
  const plain = context.options.extendOutputSchema === undefined && (structured === undefined || Object.keys(structured).length === 0);
  if (plain) return { result, classe: "" };
  const parsed = context.outputs[tool].safeParse(result.structuredContent);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // Stryker disable next-line OptionalChaining,ArrayDeclaration: a failed parse has at least one issue
    return badReply(context, tool, { kind: "invalid", path: formatPath(issue?.path ?? []), detail: issue?.message ?? "" });
  }
  const dropped = droppedKey(result.structuredContent, parsed.data, []);
  if (dropped !== null) {
    const fromExtras = !Object.hasOwn(object, dropped[0] ?? "");
    return badReply(context, tool, { kind: "undeclared", path: `${fromExtras ? "extras.structured." : ""}${formatPath(dropped)}` });
  }
  return { result, classe: "" };
}

/**
 * The most UTF-16 code units a reply may serialise to: the text block (the contract object's
 * compact JSON) plus the compact JSON of its extras. 50 MiB.
 */
export const MAX_REPLY_CHARS = 50 * 1024 * 1024;

/** V8's error for a string past its length limit, thrown by `JSON.stringify` on a huge value. */
function isStringLengthError(error: unknown): boolean {
  return error instanceof RangeError && /string length/i.test(messageOf(error));
}

/**
 * Which part of a reply JSON refused, and why: the contract object (only fetch's `metadata` can
 * hold a value JSON refuses: every other contract field is a string), else the first key of
 * `extras.structured` or `extras.meta` whose getter or conversion throws. A string past
 * JavaScript's length limit is a reply too large, wherever it is.
 */
function locateJsonProblem(object: object, extras: EnvelopeExtras | undefined, error: unknown): ReplyProblem {
  if (isStringLengthError(error)) return { kind: "tooLarge", path: "", size: null, limit: MAX_REPLY_CHARS };
  const refused = (value: () => unknown): unknown => {
    try {
      JSON.stringify(value());
      return undefined;
    } catch (cause) {
      return cause ?? error;
    }
  };
  const problem = (path: string, cause: unknown): ReplyProblem =>
    isStringLengthError(cause)
      ? { kind: "tooLarge", path: "", size: null, limit: MAX_REPLY_CHARS }
      : { kind: "json", path, detail: messageOf(cause) };
  const inObject = refused(() => object);
  if (inObject !== undefined) return problem("metadata", inObject);
  for (const part of ["structured", "meta"] as const) {
    const fields = refusedFields(extras, part);
    for (const key of fields.keys) {
      const cause = refused(() => (fields.value as Record<string, unknown>)[key]);
      if (cause !== undefined) return problem(`extras.${part}.${key}`, cause);
    }
    if (fields.cause !== undefined) return problem(`extras.${part}`, fields.cause);
  }
  return problem("extras", error);
}

/** The own enumerable keys of `extras[part]`, or the error reading them threw. */
function refusedFields(extras: EnvelopeExtras | undefined, part: "structured" | "meta") {
  try {
    const value: unknown = extras?.[part];
    return { value, keys: isRecord(value) ? Object.keys(value) : [], cause: undefined as unknown };
  } catch (cause) {
    return { value: undefined, keys: [], cause: cause ?? new Error("") };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The path of the first key that parsing dropped from `value` — a key a closed object of the
 * schema does not declare, which a validating client would refuse — or null when none was.
 * A key holding `undefined` counts too: an in-memory transport passes it on as it is.
 */
function droppedKey(value: unknown, parsed: unknown, path: readonly PropertyKey[]): PropertyKey[] | null {
  if (Array.isArray(value)) {
    if (!Array.isArray(parsed)) return null;
    for (const [index, item] of value.entries()) {
      const found = droppedKey(item, parsed[index], [...path, index]);
      if (found !== null) return found;
    }
    return null;
  }
  if (!isRecord(value) || !isRecord(parsed)) return null;
  for (const [key, item] of Object.entries(value)) {
    if (!Object.hasOwn(parsed, key)) return [...path, key];
    const found = droppedKey(item, parsed[key], [...path, key]);
    if (found !== null) return found;
  }
  return null;
}

/** A reply outside the contract: names the tool, the field and its position; capped (a getter's message may be huge). */
export function badReply(context: OutcomeContext, tool: DeepResearchToolName, problem: ReplyProblem): Settled {
  const result = deepResearchError(capErrorText(context.texts.tools.badReply(tool, problem)));
  return { result: withClasse(result, BAD_REPLY_CLASS), classe: BAD_REPLY_CLASS };
}

/** A pipeline that outlived `timeoutMs`: names the tool and the limit. */
export function timedOut(context: OutcomeContext, tool: DeepResearchToolName): Settled {
  const result = deepResearchError(context.texts.tools.timeout(tool, context.timeoutMs));
  return { result: withClasse(result, TIMEOUT_CLASS), classe: TIMEOUT_CLASS };
}

/**
 * A thrown or rejected callback as an error result: message, never a stack, capped at
 * {@link MAX_ERROR_CHARS}; class by type first.
 */
export function failure(context: OutcomeContext, tool: DeepResearchToolName, error: unknown): Settled {
  let text: string;
  try {
    text = errorMessage(context, tool, error);
  } catch {
    text = context.texts.tools.error(tool, context.texts.tools.unreadableMessage);
  }
  const { classifyThrown, classifyError } = context.options;
  const { classe, byType } = classifyFailure(error, text, classifyThrown, classifyError);
  const result = deepResearchError(text);
  return { result: byType ? withClasse(result, classe) : result, classe };
}

function errorMessage(context: OutcomeContext, tool: DeepResearchToolName, error: unknown): string {
  const { onError } = context.options;
  if (onError !== undefined) {
    try {
      const message: unknown = onError(error, tool);
      if (typeof message === "string") return capErrorText(message);
    } catch {
      // fall back to the locale's message
    }
  }
  // The thrown message is cut before it is put in a sentence, so a huge one is never copied whole.
  const thrown = readMessage(error);
  return capErrorText(context.texts.tools.error(tool, thrown === undefined ? context.texts.tools.unreadableMessage : capErrorText(thrown)));
}

function withClasse(result: DeepResearchErrorResult, classe: string): DeepResearchErrorResult {
  return Object.defineProperty(result, CLASSE, { value: classe, enumerable: false });
}
