/**
 * Private helper of the factory: set-up checks of `registerDeepResearchTools`' arguments.
 * Misuse throws `McpSearchError` naming the culprit; nothing is checked at request time here.
 */
import { McpSearchError } from "../errors.js";
import { optionNames, unknownOption, unknownOptionMessage } from "../contract/option-names.js";
import { checkLocale, type Locale } from "../locales/index.js";
import { checkLimit } from "../contract/limit.js";
import type { DeepResearchToolsOptions } from "./types.js";
import { MAX_TIMEOUT_MS } from "./deadline.js";

const OPTIONAL_FUNCTIONS = ["resolveId", "notFound", "onError", "extendOutputSchema", "record", "classifyError", "classifyThrown", "readableSearchText"] as const;

/** Every option `registerDeepResearchTools` knows; the compiler keeps it equal to the type's fields. */
const OPTION_NAMES = optionNames<DeepResearchToolsOptions>()([
  "search", "fetch", "resolveId", "corpus", "richTools", "locale", "titles", "notFound", "onError", "annotations",
  "limit", "timeoutMs", "extendOutputSchema", "readableSearchText", "record", "classifyError", "classifyThrown",
]);

function fail(message: string): never {
  throw new McpSearchError(`registerDeepResearchTools: ${message}`);
}

/** The options resolved with their defaults, once every argument passed its check. */
interface CheckedOptions {
  readonly locale: Locale;
  readonly limit: number;
  /** `undefined` when not given: the factory applies its default. */
  readonly timeoutMs: number | undefined;
}

/** Checks the server and every option; returns the locale, limit and time limit with their defaults. */
export function validateOptions(server: unknown, options: DeepResearchToolsOptions): CheckedOptions {
  if (typeof (server as { registerTool?: unknown } | null)?.registerTool !== "function") {
    fail("`server` must be an McpServer from @modelcontextprotocol/server ^2.4 or @modelcontextprotocol/sdk ^1.23 (it has no registerTool).");
  }
  if (typeof options !== "object" || options === null) fail("`options` must be an object.");
  // Plain JavaScript has no compiler to refuse a misspelt option, which would be ignored.
  const unknown = unknownOption(options, OPTION_NAMES);
  if (unknown !== undefined) fail(unknownOptionMessage(unknown, OPTION_NAMES));
  for (const name of ["search", "fetch"] as const) {
    if (typeof options[name] !== "function") fail(`\`${name}\` must be a function (got ${typeof options[name]}).`);
  }
  for (const name of OPTIONAL_FUNCTIONS) {
    const value: unknown = options[name];
    if (value !== undefined && typeof value !== "function") fail(`\`${name}\` must be a function (got ${typeof value}).`);
  }
  for (const name of ["corpus", "richTools"] as const) {
    const value: unknown = options[name];
    if (name === "richTools" && value === undefined) continue;
    if (typeof value !== "string" || value.trim() === "") fail(`\`${name}\` must be a non-empty phrase (got ${JSON.stringify(value)}).`);
  }
  const locale = checkLocale(options.locale, "registerDeepResearchTools");
  const limit = checkLimit(options.limit, "registerDeepResearchTools");
  const timeoutMs = options.timeoutMs;
  if (timeoutMs !== undefined && (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_TIMEOUT_MS)) {
    fail(`\`timeoutMs\` must be an integer from 1 to ${MAX_TIMEOUT_MS} milliseconds (got ${String(timeoutMs)}).`);
  }
  return { locale, limit, timeoutMs };
}
