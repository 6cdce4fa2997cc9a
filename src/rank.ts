/**
 * The ranking index. (Types laid first; the implementation arrives with the ranking issue.)
 */
import type { SearchResult } from "./contract.js";

/**
 * One thing that can be found: an id, a title and a public URL. `keywords` and `text` only
 * serve for ranking; they never reach the search result.
 *
 * @example
 * const entry: IndexEntry = {
 *   id: "sidra:6579",
 *   title: "Tabela 6579 — População residente estimada",
 *   url: "https://sidra.ibge.gov.br/tabela/6579",
 *   keywords: ["estimativas de população"],
 * };
 */
export interface IndexEntry {
  readonly id: string;
  readonly title: string;
  readonly url: string;
  readonly keywords?: readonly string[];
  readonly text?: string;
}

/**
 * Options of one search.
 *
 * @example
 * index.search("soja", { limit: 5 } satisfies SearchOptions);
 */
export interface SearchOptions {
  /** The most results to return; `max(0, floor(limit))`. @default 10 */
  readonly limit?: number;
}

/**
 * A built index: its size and a deterministic `search`.
 *
 * @example
 * const index: SearchIndex = createIndex(entries);
 * index.search("producao de soja"); // => [{ id, title, url }, …]
 */
export interface SearchIndex {
  readonly size: number;
  search(query: string, options?: SearchOptions): SearchResult[];
}
