/**
 * `@sbissoli/mcp-search/site`: field helpers for servers that index a live site. Everything here
 * runs on the library alone, in any runtime (Node, a Cloudflare Worker, a browser): the llms.txt
 * parser, the merge of two catalogues, query intent and the robots.txt guard. The two helpers
 * that need a parser package have a subpath each, so a project pays only for the one it imports:
 * `@sbissoli/mcp-search/site/sitemap` (`parseSitemap`, with fast-xml-parser) and
 * `@sbissoli/mcp-search/site/dates` (`findDates` and `keepHeldDates`, with chrono-node).
 */

// Catalogue
export { mergeCatalogues, parseLlmsTxt, titleFromUrl } from "./catalogue.js";
export type {
  CatalogueEntry,
  CatalogueOptions,
  CatalogueProblem,
  CatalogueProblemKind,
  CatalogueResult,
  SitemapResult,
} from "./catalogue-types.js";

// Intent
export { INTENT_WORDS, createIntentIndex, detectIntent } from "./intent.js";
export type { IndexIntentOptions, IntentWords, QueryIntent } from "./intent.js";

// robots.txt
export { parseRobotsTxt } from "./robots.js";
export type { RobotsOptions, RobotsRule, RobotsRules } from "./robots.js";
