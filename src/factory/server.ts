/**
 * What the factory needs of an McpServer, typed structurally so that both SDK generations fit:
 * `McpServer` from `@modelcontextprotocol/server` v2 (2.4 and later) and from
 * `@modelcontextprotocol/sdk` v1 (1.23 and later). Nothing here imports either SDK, so a project
 * on one of them never needs the other installed to type-check.
 */
import type { z } from "zod";
import { McpSearchError } from "../errors.js";
import type { DeepResearchErrorResult, DeepResearchResult } from "../envelope.js";

/**
 * MCP tool annotations (the 2025-06-18 specification's hints; both SDK generations accept them).
 * The factory sets `readOnlyHint: true`, `destructiveHint: false` and `openWorldHint: false` on
 * both tools; the fields given here replace those, one by one, and any other is added.
 *
 * @example
 * const annotations: DeepResearchToolAnnotations = { openWorldHint: true }; // a search that reaches the open web
 */
export interface DeepResearchToolAnnotations {
  /** A display name for the tool; the tool's `title` is what hosts show. */
  readonly title?: string;
  /** The tool does not change its environment. @default true */
  readonly readOnlyHint?: boolean;
  /** The tool may destroy or overwrite data (meaningful only when it is not read-only). @default false */
  readonly destructiveHint?: boolean;
  /** Calling it again with the same arguments has no further effect. @default undefined */
  readonly idempotentHint?: boolean;
  /** The tool reaches an open world of external entities (OpenAI's review reads it as "changes public or third-party state"). @default false */
  readonly openWorldHint?: boolean;
}

/** The config the factory hands to `registerTool`: strict zod 4 schemas, never a raw shape. */
interface DeepResearchToolConfig {
  title: string;
  description: string;
  inputSchema: z.ZodObject;
  outputSchema: z.ZodObject;
  annotations?: DeepResearchToolAnnotations;
}

/**
 * The same config as {@link McpServerLike} declares it: the schemas typed `never`, which every
 * schema type accepts. A v1 SDK typed against the project's zod 3 (`AnySchema` from zod 3.25's
 * `zod/v4/core`) cannot name the library's own zod 4 types, so a server built with zod 3 would
 * not fit a config typed `z.ZodObject` (TS2345), though it runs. What fits is checked on the
 * method's shape; the schemas are the factory's own, checked where it builds them.
 */
interface PublishedToolConfig {
  title: string;
  description: string;
  inputSchema: never;
  outputSchema: never;
  annotations?: DeepResearchToolAnnotations;
}

/** A config, as {@link McpServerLike.registerTool} takes it. */
export function published(config: DeepResearchToolConfig): PublishedToolConfig {
  return config as unknown as PublishedToolConfig;
}

/**
 * What a registered tool offers in both SDK generations: enable, disable or remove it later.
 *
 * @example
 * const { search } = registerDeepResearchTools(server, options);
 * search.disable(); // tools/list no longer shows it
 */
export interface RegisteredToolLike {
  /** Whether `tools/list` shows the tool and `tools/call` reaches it. */
  readonly enabled: boolean;
  /** Shows the tool again (the server notifies the client that the list changed). */
  enable(): void;
  /** Hides the tool from `tools/list` and refuses calls to it. */
  disable(): void;
  /** Unregisters the tool; its name is free again. */
  remove(): void;
}

/**
 * The one method of an McpServer the factory calls. `McpServer` from
 * `@modelcontextprotocol/server` ^2.4 and from `@modelcontextprotocol/sdk` ^1.23 both fit.
 *
 * @example
 * import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js"; // or "@modelcontextprotocol/server"
 * const server: McpServerLike = new McpServer({ name: "docs", version: "1.0.0" });
 */
export interface McpServerLike {
  // A method, not a property: its parameters compare bivariantly, so each SDK's generic
  // `registerTool` (whose callback's arguments are inferred from the schema) is accepted.
  /** Registers one tool: its name, its config (title, description, schemas, annotations) and its handler. */
  registerTool(
    name: string,
    config: PublishedToolConfig,
    // The SDK's per-request context (v2 `ctx`, v1 `extra`): its abort signal reaches the callbacks.
    handler: (args: { [key: string]: unknown }, extra?: unknown) => Promise<DeepResearchResult<object> | DeepResearchErrorResult>,
  ): RegisteredToolLike;
}

/**
 * The SDK versions the factory supports, named in the error for an older one. Before 1.23,
 * `@modelcontextprotocol/sdk` converted schemas with zod-to-json-schema, which knows only zod 3:
 * given the contract's zod 4 schemas, 1.17 to 1.22 published `{}`-like input and output schemas
 * in `tools/list` with no warning (checked by installing 1.17.0 and 1.22.0).
 */
const SUPPORTED_SDKS = "@modelcontextprotocol/server ^2.4 or @modelcontextprotocol/sdk ^1.23";

/**
 * Refuses an SDK server too old to publish zod 4 schemas. The marker is the low-level server's
 * `createElicitationCompletionNotifier`: `@modelcontextprotocol/sdk` 1.23.0 added it in the same
 * release that added zod 4 support (URL elicitation, specification 2025-11-25), every later v1 and
 * every v2 `Server` has it, and no earlier one does. The check is synchronous and leaves the
 * server untouched. An object that is not an SDK `McpServer` (no low-level `server` with
 * `setRequestHandler`) is taken at its word.
 */
export function assertSupportedServer(server: object): void {
  const inner = (server as { server?: unknown }).server;
  if (typeof inner !== "object" || inner === null) return;
  const low = inner as { setRequestHandler?: unknown; createElicitationCompletionNotifier?: unknown };
  if (typeof low.setRequestHandler !== "function") return;
  if (typeof low.createElicitationCompletionNotifier === "function") return;
  throw new McpSearchError(
    `registerDeepResearchTools: this McpServer comes from an SDK too old for zod 4 schemas (before @modelcontextprotocol/sdk 1.23, tools/list would publish empty schemas): upgrade to ${SUPPORTED_SDKS}.`,
  );
}
