/**
 * The ranking rule as a plain scan over every entry (tokens precomputed once), the baseline the
 * benchmark measures and the oracle `createIndex` must agree with on the whole query set.
 */
import { normalizeText, tokenize, type IndexEntry, type SearchResult } from "../src/index.js";

interface ScannedEntry {
  readonly result: SearchResult;
  readonly normalizedId: string;
  readonly normalizedTitle: string;
  readonly fields: readonly (readonly [number, readonly string[]])[];
}

/**
 * Pre-tokenises the entries; `search` then scores every one of them.
 *
 * @example
 * createPlainScan(entries).search("soja", 10); // => the same as createIndex(entries).search("soja")
 */
export function createPlainScan(entries: readonly IndexEntry[]): { search(query: string, limit?: number): SearchResult[] } {
  const scanned: ScannedEntry[] = entries.map(({ id, title, url, keywords = [], text = "" }) => ({
    result: { id, title, url },
    normalizedId: normalizeText(id),
    normalizedTitle: normalizeText(title),
    fields: [[10, tokenize(id)], [3, tokenize(title)], [2, keywords.flatMap(tokenize)], [1, tokenize(text)]],
  }));
  return {
    search(query, limit = 10) {
      const tokens = tokenize(query);
      const phrase = normalizeText(query);
      if (tokens.length === 0) return [];
      const hits: { entry: ScannedEntry; score: number }[] = [];
      for (const entry of scanned) {
        // Per query token, the weighted field hits; the entry covers the token when they sum above 0.
        let weighted = 0;
        let covered = 0;
        for (const token of tokens) {
          let sum = 0;
          for (const [weight, words] of entry.fields) {
            if (words.includes(token) || (weight === 10 && entry.normalizedId === token)) sum += weight;
            else if (token.length >= 3 && words.some((word) => word.startsWith(token))) sum += weight / 2;
          }
          if (sum > 0) {
            weighted += sum;
            covered += 1;
          }
        }
        let score = weighted + 10 * covered;
        // The phrase bonus only adds to an entry that already covers a token.
        if (covered > 0 && phrase.length >= 3 && entry.normalizedTitle.includes(phrase)) score += 5;
        if (score > 0) hits.push({ entry, score });
      }
      return hits.sort((a, b) => b.score - a.score).slice(0, limit).map(({ entry }) => entry.result);
    },
  };
}
