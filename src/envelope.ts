/**
 * The envelope: how a contract object travels in a tool result. The object goes in
 * `structuredContent` and, as compact JSON, in the one and only content block; provenance rides
 * in `structuredContent` extras and `_meta`, never in the text.
 *
 * Plain values only: nothing here imports the MCP SDK, yet every result is a valid
 * `CallToolResult` (type aliases, not interfaces, so they meet its index signature).
 */

/**
 * What a call may attach to its result besides the contract object: extra keys for
 * `structuredContent` (declare them with `extendOutputSchema`) and the result's `_meta`.
 *
 * @example
 * const extras: EnvelopeExtras = {
 *   structured: { provenance: { source: "IBGE", retrievedAt: "2026-09-02T12:00:00Z" } },
 *   meta: { "br.com.example/provenance": { cacheKey: "sidra:6579" } },
 * };
 */
export interface EnvelopeExtras {
  /** Extra keys merged into `structuredContent`; the contract's keys win a collision. @default {} */
  readonly structured?: Record<string, unknown>;
  /** The result's `_meta`; absent from the result when not given. @default undefined */
  readonly meta?: Record<string, unknown>;
}

/** The single text block of an envelope: the contract object as compact JSON. */
export type TextBlock = {
  type: "text";
  text: string;
};

/**
 * A successful tool result carrying a contract object `T`.
 *
 * @example
 * const result: DeepResearchResult<{ results: [] }> = deepResearchResult({ results: [] });
 */
export type DeepResearchResult<T extends object = Record<string, unknown>> = {
  content: [TextBlock];
  structuredContent: T & Record<string, unknown>;
  _meta?: Record<string, unknown>;
};

/**
 * A tool error result: one text block the model can act on, and `isError: true`.
 *
 * @example
 * const result: DeepResearchErrorResult = deepResearchError("No document has the id \"x\".");
 */
export type DeepResearchErrorResult = {
  content: [TextBlock];
  isError: true;
};

/**
 * Wraps a contract object as a tool result: `content` is exactly one text block holding the
 * object's compact JSON and nothing else; `structuredContent` is `{ ...extras.structured,
 * ...object }`, so the contract's keys win a collision; `_meta` is `extras.meta`, present only
 * when given.
 *
 * @param object - The contract object: `{ results }` for search, the document for fetch.
 * @param extras - Provenance for `structuredContent` and `_meta`. @default {}
 * @example
 * deepResearchResult({ results: [] }, { structured: { provenance: { source: "IBGE" } } });
 * // => { content: [{ type: "text", text: '{"results":[]}' }],
 * //      structuredContent: { provenance: { source: "IBGE" }, results: [] } }
 */
export function deepResearchResult<T extends object>(
  object: T,
  extras: EnvelopeExtras = {},
): DeepResearchResult<T> {
  const result: DeepResearchResult<T> = {
    content: [{ type: "text", text: JSON.stringify(object) }],
    structuredContent: { ...extras.structured, ...object },
  };
  if (extras.meta !== undefined) result._meta = extras.meta;
  return result;
}

/**
 * Wraps a message as a tool error result, with no `structuredContent`: the model reads the
 * message, and a validating client does not hold it against the output schema.
 *
 * @param message - What went wrong, in words the model can act on.
 * @example
 * deepResearchError('A ferramenta search falhou: timeout');
 * // => { content: [{ type: "text", text: "A ferramenta search falhou: timeout" }], isError: true }
 */
export function deepResearchError(message: string): DeepResearchErrorResult {
  return { content: [{ type: "text", text: message }], isError: true };
}
