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
} from "./contract/schemas.js";
export type {
  ContractJsonSchemas,
  ContractSchemas,
  DeepResearchToolName,
  FetchDocument,
  FetchInput,
  JsonSchemaObject,
  SearchInput,
  SearchOutput,
  SearchResult,
} from "./contract/schemas.js";

// Limit
export { DEFAULT_LIMIT } from "./contract/limit.js";

// Ranking
export { createIndex, loadIndex, normalizeText } from "./ranking/create-index.js";
export type { IndexEntry, IndexOptions, IndexRanking, LoadIndexOptions, QueryMatcher, SearchIndex, SearchOptions, TextMatch } from "./ranking/create-index.js";
export { tokenize } from "./ranking/rule/definition.js";
export type { Stemmers } from "./ranking/analysis/analyze.js";
export type { LanguageDetector } from "./ranking/analysis/language.js";

// Languages
export { LANGUAGES } from "./languages/index.js";
export type { Language } from "./languages/index.js";

// Vocabulary
export { createVocabulary } from "./vocabulary/vocabulary.js";
export type { ExpandedTerm, Vocabulary, VocabularyEntry, VocabularyOptions } from "./vocabulary/vocabulary.js";
export { SQL_CLAUSE_LIMITS, buildGlobClause, buildPostgresClause } from "./vocabulary/sql.js";
export type { GlobClause, PostgresClause, PostgresClauseOptions } from "./vocabulary/sql.js";

// Ranking in SQL
export { toRankedRow } from "./sql/row.js";
export type { RankedRow, RankedRowOptions } from "./sql/row.js";
export { SQL_RANKING_LIMITS, buildPostgresRankedQuery, buildSqliteRankedQuery } from "./sql/ranked-query.js";
export type { RankedQuery, RankedQueryOptions } from "./sql/ranked-query.js";
export { runPostgresRankedQuery, runSqliteRankedQuery } from "./sql/ranked-search.js";
export type { RankedStatementRunner } from "./sql/ranked-search.js";

// Envelope
export { deepResearchError, deepResearchResult } from "./envelope.js";
export type { DeepResearchErrorResult, DeepResearchResult, EnvelopeExtras, TextBlock } from "./envelope.js";

// Factory
export { CLASSE_DO_ERRO, DEFAULT_TIMEOUT_MS, MAX_REPLY_CHARS, registerDeepResearchTools } from "./factory/register.js";
export type {
  CallbackContext,
  DeepResearchTools,
  DeepResearchToolsOptions,
  FetchReply,
  SearchReply,
  UsageKind,
  UsageRecorder,
  UsageShape,
} from "./factory/types.js";
export type { DeepResearchToolAnnotations, McpServerLike, RegisteredToolLike } from "./factory/server.js";
export type { LibraryErrorClass } from "./factory/outcomes.js";

// Locales
export { LOCALE_LANGUAGES, LOCALES } from "./locales/index.js";
export type { Locale } from "./locales/index.js";

// Errors
export { McpSearchError } from "./errors.js";
