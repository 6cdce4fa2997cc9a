/**
 * The stemmers the folder server gives BM25: Snowball's, from `@orama/stemmers`, for every
 * language of the library that Snowball covers and where it did not lose on the relevance bench
 * (docs/performance.md, "Languages"). In Portuguese, Spanish and English they ranked the answer
 * higher than the library's plural folding (MRR@10 +0.01 pt, +0.035 es, +0.04 en); the server,
 * which has dependencies of its own, uses them; the library keeps its plural folding and no
 * dependency but zod.
 */
import { stemmer as en } from "@orama/stemmers/english";
import { stemmer as fr } from "@orama/stemmers/french";
import { stemmer as de } from "@orama/stemmers/german";
import { stemmer as it } from "@orama/stemmers/italian";
import { stemmer as pt } from "@orama/stemmers/portuguese";
import { stemmer as es } from "@orama/stemmers/spanish";
import type { Stemmers } from "@sbissoli/mcp-search";

/**
 * Snowball's stemmer of each language it is on for. Off for Russian, Ukrainian and Greek
 * (`@orama/stemmers` has all three): on their development corpus (the GIMP manual) each lost
 * MRR@10 against no stemming, although it won on their test corpora (docs/performance.md).
 */
const BY_LANGUAGE = { pt, es, en, de, fr, it };

/**
 * Snowball's stemmers, named after the languages they stem ("snowball pt es en …") in the index
 * snapshot and in the `--cache` fingerprint: a language switched on or off is another name, so a
 * snapshot built with other stemmers is built again.
 *
 * @example
 * SNOWBALL_STEMMERS.en?.("configuring"); // => "configur"
 */
export const SNOWBALL_STEMMERS: Stemmers = { name: `snowball ${Object.keys(BY_LANGUAGE).join(" ")}`, ...BY_LANGUAGE };
