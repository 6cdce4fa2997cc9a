/**
 * `@sbissoli/mcp-search/site`: field helpers for servers that index a live site. Their parsers
 * are optional peer dependencies (chrono-node for dates, fast-xml-parser for sitemaps); importing
 * this entry without them fails with one sentence naming the package to install.
 */

// Catalogue
export { mergeCatalogues, parseLlmsTxt, parseSitemap, titleFromUrl } from "./catalogue.js";
export type {
  CatalogueEntry,
  CatalogueOptions,
  CatalogueProblem,
  CatalogueProblemKind,
  CatalogueResult,
  SitemapResult,
} from "./catalogue-types.js";

// Dates
export { findDates, keepHeldDates } from "./dates.js";
export type { FindDatesOptions, QueryDates } from "./dates.js";

// Intent
export { INTENT_WORDS, createIntentIndex, detectIntent } from "./intent.js";
export type { IndexIntentOptions, IntentWords, QueryIntent } from "./intent.js";
