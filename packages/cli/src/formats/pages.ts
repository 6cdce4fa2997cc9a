/**
 * The page a search hit is on, in a paged document (PDF): the page that holds the most of the
 * query's terms, then the most occurrences of them; the terms as the index matched them in the
 * text ({@link pageOfMatches}), or, where none is in it, the vocabulary's patterns
 * ({@link hitPage}). A result's url then ends in `#page=N`, the fragment PDF viewers open at
 * (RFC 8118), so that a citation points at the page.
 */
import type { TextMatch } from "@sbissoli/mcp-search";

/**
 * A paged text cut at its page starts, each page normalised with `normalize` (lower case, no
 * accents, as the index reads it): what {@link hitPage} compares the query with.
 *
 * @example
 * normalisedPages("[page 1]\n\nIntro\n\n[page 2]\n\nGrinding", [0, 16], (t) => t.toLowerCase()); // => ["[page 1]\n\nintro\n\n", "[page 2]\n\ngrinding"]
 */
export function normalisedPages(text: string, starts: readonly number[], normalize: (text: string) => string): string[] {
  return starts.map((start, index) => normalize(text.slice(start, starts[index + 1] ?? text.length)));
}

/**
 * The page (1-based) among normalised `pages` ({@link normalisedPages}) that best matches
 * `terms` (each term's normalised patterns; a trailing `*` matches a prefix). 1 when no page
 * matches.
 *
 * @example
 * hitPage(["[page 1]\n\nintro", "[page 2]\n\ngrinding coffee"], [["grind*"], ["coffee"]]); // => 2
 */
export function hitPage(pages: readonly string[], terms: readonly (readonly string[])[]): number {
  return bestPage(
    pages.map((page) => {
      const found = terms.map((patterns) => patterns.reduce((sum, pattern) => sum + occurrences(page, withoutStars(pattern)), 0));
      return { terms: found.filter((count) => count > 0).length, matches: found.reduce((sum, count) => sum + count, 0) };
    }),
  );
}

/**
 * The page (1-based) of a paged text whose pages start at `starts` that holds the most distinct
 * terms of `matches` (`QueryMatcher.findMatches` of the text, in order), then the most matches;
 * the first such page. 1 when there is no match.
 *
 * @example
 * pageOfMatches([{ start: 3, end: 8, term: 0 }, { start: 20, end: 25, term: 0 }, { start: 30, end: 36, term: 1 }], [0, 16]); // => 2
 */
export function pageOfMatches(matches: readonly TextMatch[], starts: readonly number[]): number {
  const terms = starts.map(() => new Set<number>());
  const counts = starts.map(() => 0);
  let page = 0;
  for (const { start, term } of matches) {
    while (page + 1 < starts.length && starts[page + 1]! <= start) page += 1;
    terms[page]!.add(term);
    counts[page]! += 1;
  }
  return bestPage(terms.map((held, index) => ({ terms: held.size, matches: counts[index]! })));
}

/** The page (1-based) that holds the most distinct terms, then the most matches; the first such page, 1 when none holds one. */
function bestPage(pages: readonly { readonly terms: number; readonly matches: number }[]): number {
  let best = 1;
  let most = { terms: 0, matches: 0 };
  pages.forEach((page, index) => {
    if (page.terms > most.terms || (page.terms === most.terms && page.matches > most.matches)) {
      best = index + 1;
      most = page;
    }
  });
  return best;
}

/** A pattern without its trailing `*` (a prefix pattern matches where its stem does). */
function withoutStars(pattern: string): string {
  let end = pattern.length;
  while (end > 0 && pattern[end - 1] === "*") end -= 1;
  return pattern.slice(0, end);
}

/** Occurrences of `word` in `text`, at most 1000 (enough to rank pages). */
function occurrences(text: string, word: string): number {
  if (word === "") return 0;
  let count = 0;
  for (let at = text.indexOf(word); at !== -1 && count < 1000; at = text.indexOf(word, at + word.length)) count += 1;
  return count;
}

/**
 * A document's url pointing at page `page` (`#page=N`), or the url as it is for page 1.
 *
 * @example
 * pageUrl("https://docs.example.com/manual.pdf", 3); // => "https://docs.example.com/manual.pdf#page=3"
 */
export function pageUrl(url: string, page: number): string {
  return page <= 1 ? url : `${url.split("#")[0] as string}#page=${page}`;
}
