/**
 * Private helpers of the factory: what a callback returned, reduced to the contract object and
 * its extras. Both reply shapes are accepted, so servers written against either one work. Only
 * the contract's keys are kept, so nothing else reaches the text block.
 */
import type { FetchDocument, SearchResult } from "./contract.js";
import type { EnvelopeExtras } from "./envelope.js";
import type { FetchReply, SearchReply } from "./register.js";

/** A reply reduced to the contract's search object and the call's extras. */
export interface NormalizedSearch {
  readonly results: SearchResult[];
  readonly extras: EnvelopeExtras | undefined;
}

/** A reply reduced to the contract's document and the call's extras. */
export interface NormalizedFetch {
  readonly document: FetchDocument;
  readonly extras: EnvelopeExtras | undefined;
}

function isResultList(reply: SearchReply): reply is readonly SearchResult[] {
  return Array.isArray(reply);
}

/** `SearchResult[]` or `{ results, extras? }` → the first `limit` hits as `{ id, title, url }`. */
export function normalizeSearchReply(reply: SearchReply, limit: number): NormalizedSearch {
  const list = isResultList(reply) ? reply : reply.results;
  const extras = isResultList(reply) ? undefined : reply.extras;
  const results = list.slice(0, limit).map(({ id, title, url }) => ({ id, title, url }));
  return { results, extras };
}

function isWrappedDocument(
  reply: FetchReply,
): reply is { readonly document: FetchDocument; readonly extras?: EnvelopeExtras } {
  const candidate = (reply as { document?: unknown }).document;
  return typeof candidate === "object" && candidate !== null && !("text" in reply);
}

/** `FetchDocument` or `{ document, extras? }` → `{ id, title, text, url, metadata? }` in that order. */
export function normalizeFetchReply(reply: FetchReply): NormalizedFetch {
  const wrapped = isWrappedDocument(reply);
  const { id, title, text, url, metadata } = wrapped ? reply.document : reply;
  const document: FetchDocument = { id, title, text, url };
  if (metadata !== undefined) document.metadata = metadata;
  return { document, extras: wrapped ? reply.extras : undefined };
}
