/**
 * @sbissoli/mcp-search: the part of the OpenAI Deep Research `search`/`fetch` contract that is
 * the same in every MCP server. Every public name is listed here by hand.
 */

// Contract
export {
  DEEP_RESEARCH_TOOLS,
  MAX_ID_LENGTH,
  MAX_QUERY_LENGTH,
  contractJsonSchemas,
  contractSchemas,
  fetchDocumentSchema,
  fetchInputSchema,
  searchInputSchema,
  searchOutputSchema,
  searchResultSchema,
} from "./contract.js";
export type {
  ContractJsonSchemas,
  ContractLocale,
  ContractSchemas,
  DeepResearchToolName,
  FetchDocument,
  FetchInput,
  JsonSchemaObject,
  SearchInput,
  SearchOutput,
  SearchResult,
} from "./contract.js";

// Ranking
export { DEFAULT_LIMIT, createIndex, normalizeText, rankEntries, tokenize } from "./rank.js";
export type { IndexEntry, IndexOptions, SearchIndex, SearchOptions } from "./rank.js";
export { INTENT_WORDS, detectIntent } from "./intent.js";
export type { IndexIntentOptions, IntentLocale, IntentWords, QueryIntent } from "./intent.js";

// Vocabulary
export { createVocabulary } from "./vocabulary.js";
export type { ExpandedTerm, Vocabulary, VocabularyEntry, VocabularyLocale, VocabularyOptions } from "./vocabulary.js";
export { SQL_CLAUSE_LIMITS, buildGlobClause, buildPostgresClause } from "./sql.js";
export type { GlobClause, GlobClauseOptions, PostgresClause, PostgresClauseOptions } from "./sql.js";

// Envelope
export { deepResearchError, deepResearchResult } from "./envelope.js";
export type { DeepResearchErrorResult, DeepResearchResult, EnvelopeExtras, TextBlock } from "./envelope.js";

// Factory
export { CLASSE_DO_ERRO, DEFAULT_TIMEOUT_MS, registerDeepResearchTools } from "./register.js";
export type {
  DeepResearchTools,
  DeepResearchToolsOptions,
  FetchReply,
  SearchReply,
  UsageKind,
  UsageRecorder,
  UsageShape,
} from "./register.js";

// Catalogue
export { mergeCatalogues, parseLlmsTxt, parseSitemap, titleFromUrl } from "./catalogue.js";
export type {
  CatalogueEntry,
  CatalogueOptions,
  CatalogueProblem,
  CatalogueProblemKind,
  CatalogueResult,
  SitemapResult,
} from "./catalogue.js";

// Dates
export { findDates, keepHeldDates } from "./dates.js";
export type { FindDatesOptions, QueryDates } from "./dates.js";

// Errors
export { McpSearchError } from "./errors.js";
