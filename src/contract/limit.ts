/**
 * What `limit` means, everywhere the library takes one: `registerDeepResearchTools`' option,
 * `SearchIndex.search`, `searchWithTotal` and `searchWithMatcher`, the ranked SQL builders and
 * runners. One rule, one check, one message: the most results to return, a whole number, 0 or
 * more, {@link DEFAULT_LIMIT} when not given. 0 asks for no result (`searchWithTotal` then gives
 * the count alone). Anything else throws. The ranked SQL also caps it, as it caps a query's
 * words (`SQL_RANKING_LIMITS.maxLimit`).
 */
import { McpSearchError } from "../errors.js";

/**
 * How many results a search returns when `limit` is not given.
 *
 * @example
 * index.search("soja").length <= DEFAULT_LIMIT; // => true
 */
export const DEFAULT_LIMIT = 10;

/**
 * The `limit` given, or {@link DEFAULT_LIMIT} when it is `undefined`: a whole number from 0 to
 * `max`. Anything else, a fraction, a negative number, `NaN`, `Infinity`, a string, or more
 * than `max`, throws {@link McpSearchError} naming `caller` and the value.
 *
 * @example
 * checkLimit(undefined, "search"); // => 10
 * checkLimit(0, "search");         // => 0
 * checkLimit(2.5, "search");       // throws McpSearchError: search: `limit` must be a whole number, 0 or more (got 2.5).
 * checkLimit(2000, "buildSqliteRankedQuery", 1000); // throws …: `limit` must be a whole number from 0 to 1000 (got 2000).
 */
export function checkLimit(limit: unknown, caller: string, max = Number.MAX_SAFE_INTEGER): number {
  if (limit === undefined) return DEFAULT_LIMIT;
  if (typeof limit === "number" && Number.isSafeInteger(limit) && limit >= 0 && limit <= max) return limit;
  const range = max === Number.MAX_SAFE_INTEGER ? "a whole number, 0 or more" : `a whole number from 0 to ${max}`;
  throw new McpSearchError(`${caller}: \`limit\` must be ${range} (got ${describe(limit)}).`);
}

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") return String(value);
  return value === null ? "null" : typeof value;
}
