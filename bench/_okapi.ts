/**
 * The plain Okapi BM25 both relevance benches measure against: title + text, k1 = 1.2, b = 0.75,
 * words lower-cased and matched by `word`, no stemming, no stopwords, as textbooks write it.
 */

/** A document as the baseline reads it. */
export interface OkapiDocument {
  readonly id: string;
  readonly title: string;
  readonly text: string;
}

/** Builds the index and returns a search giving the top 10 ids, best first, ties by position. */
export function okapi(documents: readonly OkapiDocument[], word: RegExp): (query: string) => readonly string[] {
  const k1 = 1.2, b = 0.75;
  const postings = new Map<string, Map<number, number>>();
  const lengths = documents.map((doc, d) => {
    const words = `${doc.title} ${doc.text}`.toLowerCase().match(word) ?? [];
    for (const found of words) {
      const list = postings.get(found) ?? new Map<number, number>();
      list.set(d, (list.get(d) ?? 0) + 1);
      postings.set(found, list);
    }
    return words.length;
  });
  const average = lengths.reduce((a, c) => a + c, 0) / Math.max(1, documents.length);
  return (query) => {
    const scores = new Map<number, number>();
    for (const found of new Set(query.toLowerCase().match(word) ?? [])) {
      const list = postings.get(found);
      if (list === undefined) continue;
      const idf = Math.log(1 + (documents.length - list.size + 0.5) / (list.size + 0.5));
      for (const [d, tf] of list) scores.set(d, (scores.get(d) ?? 0) + (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * lengths[d]!) / average)));
    }
    return [...scores].sort((x, y) => y[1] - x[1] || x[0] - y[0]).slice(0, 10).map(([d]) => documents[d]!.id);
  };
}
