/**
 * The OpenAI Deep Research contract: the two tool names, their zod schemas with a description
 * on every field, and the draft-07 JSON Schema derived from those same schemas.
 *
 * This module is the single source of shapes. Nothing else in the library declares one.
 */
import { z } from "zod";
import { checkLocale, localeTexts, type Locale, type LocaleTexts } from "../locales/index.js";
import { describeReceived } from "./received.js";

/**
 * The names ChatGPT Deep Research looks for, with no prefix. Use it as the allowlist in tests
 * that otherwise require a per-server prefix (`ibge_*`, `bcb_*`).
 *
 * @example
 * const prefixed = tools.filter((t) => !DEEP_RESEARCH_TOOLS.includes(t.name as DeepResearchToolName));
 * DEEP_RESEARCH_TOOLS; // => ["search", "fetch"]
 */
export const DEEP_RESEARCH_TOOLS = ["search", "fetch"] as const;

/**
 * `"search" | "fetch"`.
 *
 * @example
 * const tool: DeepResearchToolName = "fetch";
 */
export type DeepResearchToolName = (typeof DEEP_RESEARCH_TOOLS)[number];

/**
 * The longest `query` the `search` tool accepts, in UTF-16 code units (JavaScript's `length`).
 * A question a model asks fits with room to spare; a pasted document does not, and is refused by
 * the input schema, with a message naming the limit, before any callback runs. Published as
 * `maxLength` in the JSON Schema.
 *
 * @example
 * searchInputSchema.safeParse({ query: "x".repeat(MAX_QUERY_LENGTH + 1) }).success; // => false
 */
export const MAX_QUERY_LENGTH = 2_048;

/**
 * The longest `id` the `fetch` tool accepts, in UTF-16 code units: room for a citation URL that
 * `resolveId` maps back to an id, refused above it before any callback runs. Published as
 * `maxLength` in the JSON Schema.
 *
 * @example
 * fetchInputSchema.safeParse({ id: "x".repeat(MAX_ID_LENGTH + 1) }).success; // => false
 */
export const MAX_ID_LENGTH = 2_048;

/**
 * A metadata value: whatever the server's `fetch` gives, published as what reaches the client,
 * a JSON value. Accepted as it is (a `Date` is sent as JSON writes it, an ISO string), while the
 * JSON Schema names the JSON types instead of an empty schema, which validators in strict mode
 * (the MCP Inspector's) warn about.
 */
const metadataValueSchema = z.unknown().meta({ type: ["string", "number", "boolean", "null", "array", "object"] });

function buildSchemas(texts: LocaleTexts) {
  const { schema: d, validation: v } = texts;
  const requiredString = (field: string) =>
    z.string({ error: (issue) => v.wrongType(field, describeReceived(issue.input)) });
  const strictInput = <Shape extends z.ZodRawShape>(shape: Shape) =>
    z.strictObject(shape, {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? v.unknownKeys(issue.keys.map((key) => JSON.stringify(key)).join(", "))
          : v.wrongType("", describeReceived(issue.input)),
    });
  const boundedString = (field: string, max: number) =>
    requiredString(field).max(max, { error: (issue) => v.tooLong(field, max, String(issue.input).length) });
  const nonEmptyId = (field: string, description: string) =>
    requiredString(field).min(1, { error: v.emptyId(field) }).describe(description);

  const searchResultSchema = z
    .object({
      id: nonEmptyId("id", d.resultId),
      title: z.string().describe(d.resultTitle),
      url: z.string().describe(d.resultUrl),
    })
    .describe(d.result);

  const searchInputSchema = strictInput({
    query: boundedString("query", MAX_QUERY_LENGTH).describe(d.query),
  }).describe(d.searchInput);

  const searchOutputSchema = z
    .object({ results: z.array(searchResultSchema).describe(d.results) })
    .describe(d.searchOutput);

  const fetchInputSchema = strictInput({
    id: boundedString("id", MAX_ID_LENGTH).describe(d.fetchId),
  }).describe(d.fetchInput);

  const fetchDocumentSchema = z
    .object({
      id: nonEmptyId("id", d.documentId),
      title: z.string().describe(d.documentTitle),
      text: z.string().describe(d.documentText),
      url: z.string().describe(d.documentUrl),
      metadata: z.record(z.string(), metadataValueSchema).optional().describe(d.documentMetadata),
    })
    .describe(d.fetchDocument);

  return {
    searchResultSchema,
    searchInputSchema,
    searchOutputSchema,
    fetchInputSchema,
    fetchDocumentSchema,
  };
}

/**
 * The five contract schemas of one locale. The shapes are identical in every locale; only the
 * descriptions and validation messages differ.
 *
 * @example
 * const { searchInputSchema }: ContractSchemas = contractSchemas("en");
 */
export type ContractSchemas = ReturnType<typeof buildSchemas>;

const schemaCache = new Map<Locale, ContractSchemas>();

/**
 * Returns the five contract schemas with the locale's descriptions and messages. The same
 * locale always returns the same (immutable) schema objects.
 *
 * @param locale - `"pt-BR"`, `"en"` or `"es"`. @default "pt-BR"
 * @example
 * const { searchInputSchema } = contractSchemas("en");
 * searchInputSchema.parse({ query: "labour force" }); // => { query: "labour force" }
 * searchInputSchema.safeParse({ query: "x", limit: 5 }).error?.issues[0]?.message;
 * // => 'Unrecognized key in the arguments: "limit". Use only the contract\'s keys.'
 */
export function contractSchemas(locale: Locale = "pt-BR"): ContractSchemas {
  locale = checkLocale(locale, "contractSchemas");
  let schemas = schemaCache.get(locale);
  if (schemas === undefined) {
    schemas = buildSchemas(localeTexts(locale));
    schemaCache.set(locale, schemas);
  }
  return schemas;
}

const ptBR = contractSchemas("pt-BR");

/**
 * One search hit, `{ id, title, url }`, with pt-BR descriptions. `id` is never empty; ChatGPT
 * cites a result only when `url` is a non-empty string.
 *
 * @example
 * searchResultSchema.parse({ id: "doc:a.md", title: "A", url: "https://example.com/a" });
 */
export const searchResultSchema = ptBR.searchResultSchema;

/**
 * The search tool's arguments, `{ query }`, strict: any other key is refused by name.
 * Pass this object itself to `registerTool`; `z.object(searchInputSchema.shape)` loses the
 * strictness.
 *
 * @example
 * searchInputSchema.safeParse({ query: "soja", limit: 3 }).success; // => false
 */
export const searchInputSchema = ptBR.searchInputSchema;

/**
 * The search tool's output, `{ results: SearchResult[] }`, with pt-BR descriptions.
 *
 * @example
 * searchOutputSchema.parse({ results: [] }); // => { results: [] }
 */
export const searchOutputSchema = ptBR.searchOutputSchema;

/**
 * The fetch tool's arguments, `{ id }`, strict: any other key is refused by name.
 *
 * @example
 * fetchInputSchema.parse({ id: "doc:a.md" }); // => { id: "doc:a.md" }
 */
export const fetchInputSchema = ptBR.fetchInputSchema;

/**
 * The fetch tool's output, `{ id, title, text, url, metadata? }` in that order, with pt-BR
 * descriptions.
 *
 * @example
 * fetchDocumentSchema.parse({ id: "doc:a.md", title: "A", text: "# A", url: "https://example.com/a" });
 */
export const fetchDocumentSchema = ptBR.fetchDocumentSchema;

/**
 * `{ query: string }`.
 *
 * @example
 * const input: SearchInput = { query: "produção de soja" };
 */
export type SearchInput = z.infer<typeof searchInputSchema>;

/**
 * `{ id, title, url }`: what `search` returns for each hit.
 *
 * @example
 * const hit: SearchResult = { id: "sidra:6579", title: "Tabela 6579", url: "https://sidra.ibge.gov.br/tabela/6579" };
 */
export type SearchResult = z.infer<typeof searchResultSchema>;

/**
 * `{ results: SearchResult[] }`.
 *
 * @example
 * const output: SearchOutput = { results: [] };
 */
export type SearchOutput = z.infer<typeof searchOutputSchema>;

/**
 * `{ id: string }`.
 *
 * @example
 * const input: FetchInput = { id: "sidra:6579" };
 */
export type FetchInput = z.infer<typeof fetchInputSchema>;

/**
 * `{ id, title, text, url, metadata? }`: what `fetch` returns.
 *
 * @example
 * const doc: FetchDocument = { id: "doc:a.md", title: "A", text: "# A\n…", url: "https://example.com/a" };
 */
export type FetchDocument = z.infer<typeof fetchDocumentSchema>;

/**
 * A JSON Schema (draft-07) object schema, as published in `tools/list`.
 *
 * @example
 * const schema: JsonSchemaObject = contractJsonSchemas().searchInputSchema;
 * schema.additionalProperties; // => false
 */
export interface JsonSchemaObject {
  /** Always `"object"`: every tool schema is an object. */
  type: "object";
  /** Each field's JSON Schema, by name. */
  properties: Record<string, Record<string, unknown>>;
  /** The names of the fields that must be present. */
  required: string[];
  /** Always `false`: the contract's schemas are closed, a foreign key is refused. */
  additionalProperties: false;
  /** What the schema holds, in the chosen locale. */
  description?: string;
  /** Any other draft-07 keyword the conversion kept. */
  [keyword: string]: unknown;
}

/**
 * The four tool schemas as JSON Schema, for servers that register hand-written definitions.
 *
 * @example
 * const { fetchInputSchema }: ContractJsonSchemas = contractJsonSchemas("en");
 */
export interface ContractJsonSchemas {
  /** `search`'s arguments: `{ query }`. */
  searchInputSchema: JsonSchemaObject;
  /** `search`'s reply: `{ results: [{ id, title, url }] }`. */
  searchOutputSchema: JsonSchemaObject;
  /** `fetch`'s arguments: `{ id }`. */
  fetchInputSchema: JsonSchemaObject;
  /** `fetch`'s reply: `{ id, title, text, url, metadata? }`. */
  fetchDocumentSchema: JsonSchemaObject;
}

/**
 * Converts one zod schema to draft-07 JSON Schema with zod 4's own converter: references
 * inlined, no `$schema` key, the input or output view of the schema.
 */
function toDraft07(schema: z.ZodType, io: "input" | "output"): JsonSchemaObject {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
    target: "draft-07",
    io,
    reused: "inline",
    cycles: "throw",
  });
  return json as JsonSchemaObject;
}

/**
 * Returns the four tool schemas as draft-07 JSON Schema objects, derived from the zod schemas of
 * the same locale, so the two cannot drift: no `$schema` key, references inlined, inputs in zod's
 * input view and outputs in its output view, `additionalProperties: false` on every object.
 *
 * @param locale - `"pt-BR"`, `"en"` or `"es"`. @default "pt-BR"
 * @example
 * contractJsonSchemas("en").fetchInputSchema;
 * // => { type: "object", description: "Arguments of the fetch tool.",
 * //      properties: { id: { type: "string", description: "Identifier of a document, …" } },
 * //      required: ["id"], additionalProperties: false }
 */
export function contractJsonSchemas(locale: Locale = "pt-BR"): ContractJsonSchemas {
  const schemas = contractSchemas(locale);
  return {
    searchInputSchema: toDraft07(schemas.searchInputSchema, "input"),
    searchOutputSchema: toDraft07(schemas.searchOutputSchema, "output"),
    fetchInputSchema: toDraft07(schemas.fetchInputSchema, "input"),
    fetchDocumentSchema: toDraft07(schemas.fetchDocumentSchema, "output"),
  };
}
