/**
 * Reads the `--vocabulary` table: a JSON array of `{ asked, source[] }` pairs, or an object
 * `{ sourceName?, entries }`. The library's `createVocabulary` checks every entry.
 */
import { readFile } from "node:fs/promises";
import { createVocabulary, type Locale, type Vocabulary, type VocabularyEntry } from "@sbissoli/mcp-search";

/**
 * Builds the server's vocabulary from a table file, or an empty (null) vocabulary without one.
 * A missing or malformed file throws an `Error` with one clear sentence.
 *
 * @param path - The JSON file. @default undefined (no table: every term is only itself)
 * @example
 * const vocabulary = await loadVocabulary("examples/vocabulary.json", "pt-BR", "a pasta");
 * vocabulary.expandTerm("café"); // => ["cafe", "coffee"]
 */
export async function loadVocabulary(path: string | undefined, locale: Locale, sourceName: string): Promise<Vocabulary> {
  if (path === undefined) return createVocabulary({ locale, sourceName, entries: [] });
  let table: unknown;
  try {
    table = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    const why = error instanceof SyntaxError ? "it is not valid JSON" : "it cannot be read";
    throw new Error(`The vocabulary ${JSON.stringify(path)} cannot be used: ${why}.`);
  }
  const object = Array.isArray(table) ? { entries: table } : (table as { entries?: unknown; sourceName?: unknown } | null);
  if (object === null || typeof object !== "object" || !Array.isArray(object.entries)) {
    throw new Error(`The vocabulary ${JSON.stringify(path)} must be a JSON array of { asked, source[] } pairs, or { "entries": [...] }.`);
  }
  const name = typeof object.sourceName === "string" && object.sourceName.trim() !== "" ? object.sourceName : sourceName;
  try {
    return createVocabulary({ locale, sourceName: name, entries: object.entries as VocabularyEntry[] });
  } catch (error) {
    throw new Error(`The vocabulary ${JSON.stringify(path)} cannot be used: ${error instanceof Error ? error.message : String(error)}`);
  }
}
