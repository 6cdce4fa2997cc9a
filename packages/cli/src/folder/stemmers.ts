/**
 * The stemmers the folder server gives BM25: Snowball's, from `@orama/stemmers`, for every
 * language of the library (docs/performance.md, "Languages"). In Portuguese, Spanish and English they ranked the answer
 * higher than the library's plural folding (MRR@10 +0.01 pt, +0.035 es, +0.04 en); the server,
 * which has dependencies of its own, uses them; the library keeps its plural folding and no
 * dependency but zod.
 */
import { stemmer as en } from "@orama/stemmers/english";
import { stemmer as fr } from "@orama/stemmers/french";
import { stemmer as de } from "@orama/stemmers/german";
import { stemmer as el } from "@orama/stemmers/greek";
import { stemmer as it } from "@orama/stemmers/italian";
import { stemmer as pt } from "@orama/stemmers/portuguese";
import { stemmer as ru } from "@orama/stemmers/russian";
import { stemmer as es } from "@orama/stemmers/spanish";
import { stemmer as uk } from "@orama/stemmers/ukrainian";
import type { Stemmers } from "@sbissoli/mcp-search";

/**
 * Snowball's stemmer of each language. Russian, Ukrainian and Greek lose MRR@10 on their
 * development corpus (the GIMP manual, whose queries are one-word menu labels) against no
 * stemming, but without it Russian and Ukrainian rank below plain BM25 on two test corpora, the
 * floor every language must keep; with it, no corpus of theirs is below that floor
 * (docs/performance.md, "Languages").
 */
const BY_LANGUAGE = { pt, es, en, ru, uk, el, de, fr, it };

/**
 * Snowball's stemmers, named after the languages they stem ("snowball pt es en …") in the index
 * snapshot and in the `--cache` fingerprint: a language switched on or off is another name, so a
 * snapshot built with other stemmers is built again.
 *
 * @example
 * SNOWBALL_STEMMERS.en?.("configuring"); // => "configur"
 */
export const SNOWBALL_STEMMERS: Stemmers = { name: `snowball ${Object.keys(BY_LANGUAGE).join(" ")}`, ...BY_LANGUAGE };
