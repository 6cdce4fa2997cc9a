/**
 * What arrived where something else belonged, in one word, for the messages that say so: the
 * contract's input validation (src/contract.ts) and the factory's reply checks (src/_replies.ts,
 * src/register.ts). Private: never re-exported.
 */

/** `null`, `array`, or the value's `typeof`: `describeReceived([1])` is "array". */
export function describeReceived(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}
