/**
 * The one error class the library throws, for misuse at set-up time: a duplicate id in an
 * index, a vocabulary entry with no source, an unsafe SQL column name. Request-time outcomes
 * (no match, unknown id, a callback that threw) are never thrown; they come back as values.
 *
 * @example
 * try {
 *   createIndex([{ id: "a", title: "A", url: "https://x/a" }, { id: "a", title: "B", url: "https://x/b" }]);
 * } catch (error) {
 *   error instanceof McpSearchError; // => true
 *   (error as Error).message;        // => 'Duplicate id "a" in the index (entries 0 and 1): …'
 * }
 */
export class McpSearchError extends Error {
  override readonly name = "McpSearchError";
}
