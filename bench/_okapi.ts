/**
 * The plain Okapi BM25 both relevance benches measure against: title + text, k1 = 1.2, b = 0.75,
 * words lower-cased and matched by `word` (or split by a tokenizer), no stemming, no stopwords,
 * as textbooks write it.
 */

/** A document as the baseline reads it. */
export interface OkapiDocument {
  readonly id: string;
  readonly title: string;
  readonly text: string;
}

/** Han, hiragana and katakana: scripts written without spaces between words. */
const CJK = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}ー]+|[^\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}ー]+/gu;
const IS_CJK = /^[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}ー]/u;

/**
 * Unicode words (runs of letters and digits, lower case), with every run of Han and kana cut into
 * overlapping character bigrams (a run of one character stays one token), as Lucene's
 * CJKAnalyzer does: the plain BM25 "Unicode words; bigrams for ja, zh".
 *
 * @example
 * unicodeWordsCjkBigrams("Debian 迷宫"); // => ["debian", "迷宫"]
 */
export function unicodeWordsCjkBigrams(text: string): string[] {
  const tokens: string[] = [];
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    for (const run of word.match(CJK) ?? []) {
      if (!IS_CJK.test(run)) {
        tokens.push(run);
        continue;
      }
      const chars = [...run];
      if (chars.length === 1) tokens.push(run);
      for (let i = 0; i + 1 < chars.length; i += 1) tokens.push(chars[i]! + chars[i + 1]!);
    }
  }
  return tokens;
}

/** Builds the index and returns a search giving the top 10 ids, best first, ties by position. */
export function okapi(documents: readonly OkapiDocument[], word: RegExp | ((text: string) => string[])): (query: string) => readonly string[] {
  const tokenize = typeof word === "function" ? word : (text: string) => text.toLowerCase().match(word) ?? [];
  const k1 = 1.2, b = 0.75;
  const postings = new Map<string, Map<number, number>>();
  const lengths = documents.map((doc, d) => {
    const words = tokenize(`${doc.title} ${doc.text}`);
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
    for (const found of new Set(tokenize(query))) {
      const list = postings.get(found);
      if (list === undefined) continue;
      const idf = Math.log(1 + (documents.length - list.size + 0.5) / (list.size + 0.5));
      for (const [d, tf] of list) scores.set(d, (scores.get(d) ?? 0) + (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * lengths[d]!) / average)));
    }
    return [...scores].sort((x, y) => y[1] - x[1] || x[0] - y[0]).slice(0, 10).map(([d]) => documents[d]!.id);
  };
}
