/**
 * The stemmers the folder server gives BM25: Snowball's Portuguese, Spanish and English, from
 * `@orama/stemmers`. On the relevance bench (docs/performance.md, "Languages") they ranked the
 * answer higher than the library's plural folding in all three languages (MRR@10 +0.01 pt,
 * +0.035 es, +0.04 en), so the server, which has dependencies of its own, uses them; the library
 * keeps its plural folding and no dependency but zod.
 */
import { stemmer as en } from "@orama/stemmers/english";
import { stemmer as pt } from "@orama/stemmers/portuguese";
import { stemmer as es } from "@orama/stemmers/spanish";
import type { IndexStemmers } from "@sbissoli/mcp-search";

/**
 * Snowball's stemmers, named "snowball" in the index snapshot.
 *
 * @example
 * SNOWBALL_STEMMERS.en?.("configuring"); // => "configur"
 */
export const SNOWBALL_STEMMERS: IndexStemmers = { name: "snowball", pt, es, en };
