/**
 * What arrived where something else belonged, in one word, for the messages that say so: the
 * contract's input validation (src/contract/schemas.ts), the factory's reply checks
 * (src/factory/replies.ts, src/factory/register.ts) and the index's entry checks
 * (src/ranking/entries.ts). Private: never re-exported.
 */

/** `null`, `array`, or the value's `typeof`: `describeReceived([1])` is "array". */
export function describeReceived(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}
