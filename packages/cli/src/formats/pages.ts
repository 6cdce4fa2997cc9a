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
  let best = 1;
  let bestTerms = 0;
  let bestCount = 0;
  for (const [index, page] of pages.entries()) {
    let matched = 0;
    let count = 0;
    for (const patterns of terms) {
      let found = 0;
      for (const pattern of patterns) found += occurrences(page, withoutStars(pattern));
      if (found > 0) matched += 1;
      count += found;
    }
    if (matched > bestTerms || (matched === bestTerms && count > bestCount)) {
      best = index + 1;
      bestTerms = matched;
      bestCount = count;
    }
  }
  return best;
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
  let best = 1;
  let bestTerms = 0;
  let bestCount = 0;
  let page = 0;
  let terms = new Set<number>();
  let count = 0;
  const endPage = () => {
    if (terms.size > bestTerms || (terms.size === bestTerms && count > bestCount)) {
      best = page + 1;
      bestTerms = terms.size;
      bestCount = count;
    }
  };
  for (const { start, term } of matches) {
    let at = page;
    while (at + 1 < starts.length && starts[at + 1]! <= start) at += 1;
    if (at !== page) {
      endPage();
      page = at;
      terms = new Set();
      count = 0;
    }
    terms.add(term);
    count += 1;
  }
  endPage();
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
