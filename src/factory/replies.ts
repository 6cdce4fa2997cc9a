/**
 * Private helpers of the factory: what a callback returned, checked against the contract and
 * reduced to the contract object and its extras. Both reply shapes are accepted, so servers
 * written against either one work. Only the contract's keys are kept, so nothing else reaches
 * the text block.
 *
 * A reply is checked here, before the SDK's output validation sees it, so that a reply outside
 * the contract becomes a problem that names the field and the result's position
 * (`results[3].url`), never the SDK's generic text nor a raw `TypeError`.
 */
import type { FetchDocument, SearchResult } from "../contract/schemas.js";
import type { EnvelopeExtras } from "../envelope.js";
import { describeReceived } from "../contract/received.js";
import type { ExpectedKind, ReplyProblem } from "../locales/index.js";

export type { ReplyProblem };

/** A reply reduced to the contract's search object and the call's extras. */
interface NormalizedSearch {
  readonly results: SearchResult[];
  readonly extras: EnvelopeExtras | undefined;
}

/** A reply reduced to the contract's document and the call's extras. */
interface NormalizedFetch {
  readonly document: FetchDocument;
  readonly extras: EnvelopeExtras | undefined;
}

/** Either the reduced reply or the first problem found in it. */
type Checked<T> = { readonly value: T } | { readonly problem: ReplyProblem };

type Fields = Record<string, unknown>;

function isFields(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function typeProblem(path: string, expected: ExpectedKind, value: unknown): ReplyProblem {
  return { kind: "type", path, expected, received: describeReceived(value) };
}

/** Joins a path prefix and a key: `("results[3]", "url")` → `results[3].url`. */
function at(prefix: string, key: string): string {
  return prefix === "" ? key : `${prefix}.${key}`;
}

/** The first problem among the string fields of one object, in the contract's order. */
function checkStrings(fields: Fields, prefix: string, keys: readonly string[]): ReplyProblem | undefined {
  for (const key of keys) {
    const value = fields[key];
    if (typeof value !== "string") return typeProblem(at(prefix, key), "string", value);
    if (key === "id" && value === "") return { kind: "empty", path: at(prefix, key) };
  }
  return undefined;
}

/** `extras` absent, or an object whose `structured` and `meta` are objects when present. */
function checkExtras(extras: unknown): ReplyProblem | undefined {
  if (extras === undefined) return undefined;
  if (!isFields(extras)) return typeProblem("extras", "object", extras);
  for (const key of ["structured", "meta"] as const) {
    const value = extras[key];
    if (value !== undefined && !isFields(value)) return typeProblem(`extras.${key}`, "object", value);
  }
  return undefined;
}

/**
 * `SearchResult[]` or `{ results, extras? }` → the first `limit` hits as `{ id, title, url }`, or
 * the first problem among them. Hits past the limit are cut unread.
 */
export function checkSearchReply(reply: unknown, limit: number): Checked<NormalizedSearch> {
  let list: unknown = reply;
  let extras: unknown;
  if (!Array.isArray(reply)) {
    if (!isFields(reply)) return { problem: typeProblem("", "searchReply", reply) };
    list = reply["results"];
    extras = reply["extras"];
    if (!Array.isArray(list)) return { problem: typeProblem("results", "list", list) };
  }
  const extrasProblem = checkExtras(extras);
  if (extrasProblem !== undefined) return { problem: extrasProblem };
  const results: SearchResult[] = [];
  for (const [position, hit] of (list as unknown[]).slice(0, limit).entries()) {
    const path = `results[${position}]`;
    if (!isFields(hit)) return { problem: typeProblem(path, "object", hit) };
    const problem = checkStrings(hit, path, ["id", "title", "url"]);
    if (problem !== undefined) return { problem };
    results.push({ id: hit["id"] as string, title: hit["title"] as string, url: hit["url"] as string });
  }
  return { value: { results, extras: extras as EnvelopeExtras | undefined } };
}

/** `{ document, extras? }` rather than a bare document: an object `document` and no `text`. */
function isWrapped(reply: Fields): boolean {
  return isFields(reply["document"]) && !("text" in reply);
}

/**
 * `FetchDocument` or `{ document, extras? }` → `{ id, title, text, url, metadata? }` in that
 * order, or the first problem: a missing or non-string field, an empty id, a `metadata` that is
 * not an object, or a document whose id is not the one asked for.
 */
export function checkFetchReply(reply: unknown, requestedId: string): Checked<NormalizedFetch> {
  if (!isFields(reply)) return { problem: typeProblem("", "fetchReply", reply) };
  const wrapped = isWrapped(reply);
  const fields = (wrapped ? reply["document"] : reply) as Fields;
  const prefix = wrapped ? "document" : "";
  const problem = checkStrings(fields, prefix, ["id", "title", "text", "url"]);
  if (problem !== undefined) return { problem };
  const { id, title, text, url, metadata } = fields as FetchDocument & { metadata?: unknown };
  if (metadata !== undefined && !isFields(metadata)) {
    return { problem: typeProblem(at(prefix, "metadata"), "object", metadata) };
  }
  if (id !== requestedId) {
    return { problem: { kind: "otherId", path: at(prefix, "id"), requested: requestedId, returned: id } };
  }
  const extras: unknown = wrapped ? reply["extras"] : undefined;
  const extrasProblem = checkExtras(extras);
  if (extrasProblem !== undefined) return { problem: extrasProblem };
  const document: FetchDocument = { id, title, text, url };
  if (metadata !== undefined) document.metadata = metadata;
  return { value: { document, extras: extras as EnvelopeExtras | undefined } };
}

/**
 * A zod issue path as a reader would write it: `["results", 3, "url"]` → `results[3].url`.
 */
export function formatPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const key of path) {
    text += typeof key === "number" ? `[${key}]` : text === "" ? String(key) : `.${String(key)}`;
  }
  return text;
}
