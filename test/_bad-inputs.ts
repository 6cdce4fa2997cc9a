/**
 * The bad-input matrix: every argument a language model might send to `search` and `fetch`,
 * with what the server must answer. One table, run by test/bad-input.test.ts through a real
 * Client in memory, over stdio (the built package) and against the folder server. Not a test
 * file itself.
 */
import { MAX_ID_LENGTH, MAX_QUERY_LENGTH } from "../src/index.js";

/**
 * What the server must answer: a normal result; an `isError` result whose text matches; or, for
 * arguments that are not an object at all, the SDK's JSON-RPC "invalid params" error (the
 * request is malformed before any tool runs) whose message matches.
 */
export type Expected =
  | { readonly kind: "ok" }
  | { readonly kind: "error"; readonly text: RegExp }
  | { readonly kind: "protocol"; readonly text: RegExp };

export interface BadInputRow {
  readonly label: string;
  readonly tool: "search" | "fetch";
  readonly arguments: unknown;
  readonly expected: Expected;
}

const ok: Expected = { kind: "ok" };
const error = (text: RegExp): Expected => ({ kind: "error", text });
const notAnObject: Expected = { kind: "protocol", text: /Invalid tools\/call request[\s\S]*"arguments"[\s\S]*expected record/ };

/** Strings that are valid arguments, however strange; each is sent as a query and as an id. */
export const STRANGE_STRINGS: readonly (readonly [string, string])[] = [
  ["control characters", "a\u0001b\u0007c\u001b[31md\u007f\t\r\n"],
  ["NUL", "soja\u0000milho"],
  ["a lone high surrogate", "abc\ud800def"],
  ["a lone low surrogate", "\udfffpopulação"],
  ["RTL and bidi marks", "\u202eabc\u200f\u200e\u2066x\u2069"],
  ["emoji with skin tone, flag and ZWJ family", "👍🏽 🇧🇷 👨‍👩‍👧 soja"],
  ["a long combining sequence", `e${"\u0301".repeat(1_000)}`],
  ["Zalgo text", "p̷̛̘o̸̡͠p̵͔̈́u̷̲͝l̸̰̀a̸̜̓ç̸̛ã̵̱o̴̩͗"],
  ["__proto__", "__proto__"],
  ["constructor", "constructor"],
  ["toString", "toString"],
  ["hasOwnProperty", "hasOwnProperty"],
  ["property names as words", "__proto__ constructor toString valueOf"],
  ["whitespace only", " \t\u00a0\u3000 "],
  ["exactly the maximum query length", "x".repeat(MAX_QUERY_LENGTH)],
];

const ONE_MB = "a".repeat(1024 * 1024);
const HUNDRED_KB = "i".repeat(100 * 1024);
/** The message names the field, the length that arrived (1 MB or 100 KB) and the limit. */
const tooLong = (field: string) => error(new RegExp(`"${field}".*(1048576|102400).*${MAX_QUERY_LENGTH}`));

/** The whole matrix. */
export const BAD_INPUTS: readonly BadInputRow[] = [
  // extra keys
  { label: "an extra key", tool: "search", arguments: { query: "soja", limit: 5 }, expected: error(/"limit"/) },
  { label: "an extra key", tool: "fetch", arguments: { id: "sidra:6579", page: 2 }, expected: error(/"page"/) },
  // The SDK's request schema (a zod record) drops an own "__proto__" key before the tool's strict
  // schema runs, so it is neither refused nor passed on: the call answers "soja" and nothing
  // reaches an object's prototype.
  { label: "an own __proto__ key", tool: "search", arguments: JSON.parse('{"query":"soja","__proto__":{"x":1}}'), expected: ok },
  { label: "a constructor key", tool: "fetch", arguments: { id: "a", constructor: "x" }, expected: error(/"constructor"/) },
  // missing keys
  { label: "no arguments at all", tool: "search", arguments: {}, expected: error(/"query".*undefined/) },
  { label: "no arguments at all", tool: "fetch", arguments: {}, expected: error(/"id".*undefined/) },
  { label: "the other tool's key", tool: "fetch", arguments: { query: "soja" }, expected: error(/"query"|"id"/) },
  // null
  { label: "null arguments", tool: "search", arguments: null, expected: notAnObject },
  { label: "null arguments", tool: "fetch", arguments: null, expected: notAnObject },
  { label: "a null query", tool: "search", arguments: { query: null }, expected: error(/"query".*null/) },
  { label: "a null id", tool: "fetch", arguments: { id: null }, expected: error(/"id".*null/) },
  // numbers, arrays and objects where a string belongs
  { label: "a number", tool: "search", arguments: { query: 42 }, expected: error(/"query".*number/) },
  { label: "a number", tool: "fetch", arguments: { id: 6579 }, expected: error(/"id".*number/) },
  { label: "a boolean", tool: "fetch", arguments: { id: true }, expected: error(/"id".*boolean/) },
  { label: "an array", tool: "search", arguments: { query: ["soja", "milho"] }, expected: error(/"query".*array/) },
  { label: "an array", tool: "fetch", arguments: { id: ["sidra:6579"] }, expected: error(/"id".*array/) },
  { label: "an object", tool: "search", arguments: { query: { text: "soja" } }, expected: error(/"query".*object/) },
  { label: "an object", tool: "fetch", arguments: { id: { id: "sidra:6579" } }, expected: error(/"id".*object/) },
  { label: "arguments as a string", tool: "search", arguments: "soja", expected: notAnObject },
  { label: "arguments as an array", tool: "fetch", arguments: ["sidra:6579"], expected: notAnObject },
  // empty strings
  { label: "an empty query", tool: "search", arguments: { query: "" }, expected: ok },
  { label: "an empty id", tool: "fetch", arguments: { id: "" }, expected: error(/id ""/) },
  // sizes
  { label: "a 1 MB query", tool: "search", arguments: { query: ONE_MB }, expected: tooLong("query") },
  { label: "a 1 MB id", tool: "fetch", arguments: { id: ONE_MB }, expected: tooLong("id") },
  { label: "a 100 KB id", tool: "fetch", arguments: { id: HUNDRED_KB }, expected: tooLong("id") },
  { label: "a 100 KB query", tool: "search", arguments: { query: HUNDRED_KB }, expected: tooLong("query") },
  { label: "an id one past the maximum", tool: "fetch", arguments: { id: "x".repeat(MAX_ID_LENGTH + 1) }, expected: error(/2049.*2048/) },
  // strange but valid strings, as a query and as an id
  ...STRANGE_STRINGS.flatMap(([label, text]): BadInputRow[] => [
    { label: `${label} as the query`, tool: "search", arguments: { query: text }, expected: ok },
    { label: `${label} as the id`, tool: "fetch", arguments: { id: text }, expected: ok },
  ]),
];
