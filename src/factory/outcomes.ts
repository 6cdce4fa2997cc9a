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
import type { DeepResearchToolsOptions } from "./register.js";
import { formatPath, type ReplyProblem } from "./replies.js";
import { classifyFailure, messageOf } from "./telemetry.js";

/** The key of the registered symbol `CLASSE_DO_ERRO` (`Symbol.for` returns the same symbol). */
export const CLASSE_KEY = "br.com.sidneybissoli.mcp/classe-do-erro";
const CLASSE = Symbol.for(CLASSE_KEY);

/** The `classe` of a call whose callbacks outlived `timeoutMs`. */
export const TIMEOUT_CLASS = "tempo_esgotado";
/** The `classe` of a call whose callback returned a reply outside the contract. */
export const BAD_REPLY_CLASS = "resposta_invalida";
/** The `classe` of an unknown id. */
export const NOT_FOUND_CLASS = "nao_encontrado";

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

/** The unknown-id result: `notFound`'s message when it gives one, else the locale's. */
export function notFound(context: OutcomeContext, raw: string): Settled {
  let message: unknown;
  try {
    message = context.options.notFound?.(raw);
  } catch {
    // fall back to the locale's message
  }
  const text = typeof message === "string" ? message : context.texts.tools.notFound(raw);
  return { result: withClasse(deepResearchError(text), NOT_FOUND_CLASS), classe: NOT_FOUND_CLASS };
}

/**
 * The envelope of a checked reply, after the last checks the SDK would otherwise make with its
 * own words: everything converts to JSON, and `structuredContent` meets the published output
 * schema — declared extras are valid, and no extra is undeclared (the published schema is
 * closed, so a validating client would reject it). `_meta` is never checked. A reply with
 * neither an extended schema nor structured extras skips the schema pass: its contract object
 * was already checked field by field.
 */
export function envelop(
  context: OutcomeContext,
  tool: DeepResearchToolName,
  object: object,
  extras: EnvelopeExtras | undefined,
): Settled {
  let result: DeepResearchResult<object>;
  try {
    result = deepResearchResult(object, extras);
  } catch (error) {
    // Only fetch's `metadata` can hold a value JSON refuses: every other contract field is a string.
    return badReply(context, tool, { kind: "json", path: "metadata", detail: messageOf(error) });
  }
  if (extras !== undefined) {
    try {
      JSON.stringify(extras);
    } catch (error) {
      return badReply(context, tool, { kind: "json", path: "extras", detail: messageOf(error) });
    }
  }
  // The contract object was checked field by field before it got here; the schema has more to
  // say only when the server extended it or attached structured extras.
  const structured = extras?.structured;
  const plain = context.options.extendOutputSchema === undefined && (structured === undefined || Object.keys(structured).length === 0);
  if (plain) return { result, classe: "" };
  const parsed = context.outputs[tool].safeParse(result.structuredContent);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return badReply(context, tool, { kind: "invalid", path: formatPath(issue?.path ?? []), detail: issue?.message ?? "" });
  }
  const dropped = droppedKey(result.structuredContent, parsed.data, []);
  if (dropped !== null) {
    const fromExtras = !Object.hasOwn(object, dropped[0] ?? "");
    return badReply(context, tool, { kind: "undeclared", path: `${fromExtras ? "extras.structured." : ""}${formatPath(dropped)}` });
  }
  return { result, classe: "" };
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

/** A reply outside the contract: names the tool, the field and its position. */
export function badReply(context: OutcomeContext, tool: DeepResearchToolName, problem: ReplyProblem): Settled {
  const result = deepResearchError(context.texts.tools.badReply(tool, problem));
  return { result: withClasse(result, BAD_REPLY_CLASS), classe: BAD_REPLY_CLASS };
}

/** A pipeline that outlived `timeoutMs`: names the tool and the limit. */
export function timedOut(context: OutcomeContext, tool: DeepResearchToolName): Settled {
  const result = deepResearchError(context.texts.tools.timeout(tool, context.timeoutMs));
  return { result: withClasse(result, TIMEOUT_CLASS), classe: TIMEOUT_CLASS };
}

/** A thrown or rejected callback as an error result: message, never a stack; class by type first. */
export function failure(context: OutcomeContext, tool: DeepResearchToolName, error: unknown): Settled {
  const text = errorMessage(context, tool, error);
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
      if (typeof message === "string") return message;
    } catch {
      // fall back to the locale's message
    }
  }
  return context.texts.tools.error(tool, messageOf(error));
}

function withClasse(result: DeepResearchErrorResult, classe: string): DeepResearchErrorResult {
  return Object.defineProperty(result, CLASSE, { value: classe, enumerable: false });
}
