/**
 * Private helper of the rankings: the set-up checks every index makes on its entries, with the
 * messages users see.
 */
import { McpSearchError } from "../errors.js";

/** The shape both rankings read (the public `IndexEntry` of rank.ts). */
export interface RankedEntry {
  readonly id: string;
  readonly title: string;
  readonly url: string;
  readonly keywords?: readonly string[];
  readonly text?: string;
}

/**
 * Throws `McpSearchError` for an entry without a string id, title or url, or for an id seen
 * twice; otherwise returns the ids, titles and urls in collection order.
 */
export function checkEntries(entries: readonly RankedEntry[]): { ids: string[]; titles: string[]; urls: string[] } {
  const seen = new Map<string, number>();
  const ids: string[] = [], titles: string[] = [], urls: string[] = [];
  entries.forEach((entry, i) => {
    for (const field of ["id", "title", "url"] as const) {
      if (typeof entry?.[field] !== "string") throw new McpSearchError(`Index entry ${i} has no string "${field}": every entry needs an id, a title and a url.`);
    }
    const first = seen.get(entry.id);
    if (first !== undefined) {
      throw new McpSearchError(`Duplicate id ${JSON.stringify(entry.id)} in the index (entries ${first} and ${i}): an id must resolve to one document.`);
    }
    seen.set(entry.id, i);
    ids.push(entry.id);
    titles.push(entry.title);
    urls.push(entry.url);
  });
  return { ids, titles, urls };
}
