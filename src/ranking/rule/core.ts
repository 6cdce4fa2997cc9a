/**
 * The rule ranking's side of an index (README "How ranking works"; ./definition.ts holds its
 * fields, bonuses, stopwords and tokenizer): one posting per token and entry, holding the fields
 * the token occurs in, exactly or at a word start; a query adds each of its tokens' points to
 * the entries it covers, then the phrase bonus. The postings change one entry at a time
 * (../postings.ts); the collection side, shared with BM25, is ../entries.ts.
 */
import type { ByteReader, ByteWriter } from "../bytes.js";
import { selectTop, type AnalyzedQuery, type RankedEntry, type RankingCore, type TextMatch } from "../entries.js";
import { forEachRuleWord, MAX_MATCHES } from "../matches.js";
import { normalizeText } from "../normalize.js";
import { grown, SegmentedPostings, type TermRange } from "../postings.js";
import { COVERED_TOKEN_BONUS, fieldTexts, forEachToken, halfPoints, MIN_PHRASE_LENGTH, MIN_PREFIX_LENGTH, ORIGINAL_RULE_STOPWORDS, PHRASE_BONUS, RULE_FIELDS, tokenize } from "./definition.js";

/** Each field's bit in a posting's mask, and its weight, in the order of `RULE_FIELDS`. */
const FIELD_BITS = RULE_FIELDS.map((_, place) => 1 << place);

/**
 * One token's score in half points, by `(exactMask << 4) | prefixMask`: per field, an exact hit
 * is worth the field's weight in full, else a word-start hit half of it; plus the bonus for
 * covering the token.
 */
const TOKEN_SCORE = new Uint8Array(256).map((_, masks) => {
  let half = halfPoints(COVERED_TOKEN_BONUS);
  RULE_FIELDS.forEach(({ weight }, place) => {
    const bit = FIELD_BITS[place]!;
    if ((masks >> 4) & bit) half += halfPoints(weight);
    else if (masks & bit) half += halfPoints(weight) / 2;
  });
  return half;
});

/** The rule's analysis of a query: its tokens, and its normalised text for the phrase bonus. */
interface RuleQuery extends AnalyzedQuery {
  readonly tokens: readonly string[];
  readonly phrase: string;
}

/** The rule's side of an index: postings with field masks, titles for the phrase bonus, scratch. */
class RuleCore implements RankingCore {
  readonly postings = new SegmentedPostings(1);
  normalizedTitles: string[] = [];
  // Scratch, zero between calls.
  score: Float64Array = new Float64Array(0);
  exact: Uint8Array = new Uint8Array(0);
  prefix: Uint8Array = new Uint8Array(0);
  touched: Int32Array = new Int32Array(0);
  tokenTouched: Int32Array = new Int32Array(0);
  private readonly range: TermRange = { baseFrom: 0, baseTo: 0, deltaFrom: 0, deltaTo: 0 };

  index(entry: RankedEntry, slot: number): void {
    const { postings } = this;
    this.normalizedTitles[slot] = normalizeText(entry.title);
    // The id field also counts when the whole normalised id equals the token; such an id
    // tokenises to exactly that token, so its exact posting already says so.
    // One posting per (token, entry): repeated tokens only OR their field in.
    fieldTexts(entry).forEach((texts, place) => {
      const bit = FIELD_BITS[place]!;
      for (const text of texts) forEachToken(text, (token) => postings.mark(token, slot, bit));
    });
  }

  unindex(slot: number): void {
    this.normalizedTitles[slot] = "";
  }

  stepCompaction(): boolean {
    return this.postings.stepCompaction();
  }

  remap(remap: Int32Array, live: number): void {
    for (let slot = 0; slot < remap.length; slot++) {
      const to = remap[slot] as number;
      if (to >= 0) this.normalizedTitles[to] = this.normalizedTitles[slot] as string;
    }
    this.normalizedTitles.length = live;
  }

  settings(): string {
    // The form of the original's settings, kept so that its snapshots still load.
    const weights = RULE_FIELDS.map(({ weight }, place) => [FIELD_BITS[place], weight]);
    return JSON.stringify({ stopwords: [...ORIGINAL_RULE_STOPWORDS].sort(), weights, phrase: halfPoints(PHRASE_BONUS) });
  }

  save(writer: ByteWriter): void {
    this.postings.save(writer);
  }

  load(reader: ByteReader, titles: readonly string[]): void {
    this.postings.load(reader);
    this.normalizedTitles = titles.map(normalizeText);
  }

  analyze(query: string): RuleQuery {
    const tokens = tokenize(query);
    return { tokens, phrase: normalizeText(query), terms: tokens.map((token) => [token]) };
  }

  search(query: RuleQuery, limit: number, order: Float64Array): { slots: number[]; total: number } {
    const { tokens, phrase } = query;
    if (tokens.length === 0) return { slots: [], total: 0 };
    const slots = this.postings.slots;
    if (this.score.length < slots) {
      this.score = grown(this.score, slots);
      this.exact = grown(this.exact, slots);
      this.prefix = grown(this.prefix, slots);
      this.touched = grown(this.touched, slots);
      this.tokenTouched = grown(this.tokenTouched, slots);
    }
    let touchedCount = 0;
    for (const token of tokens) touchedCount = this.scoreToken(token, touchedCount);
    if (phrase.length >= MIN_PHRASE_LENGTH) this.scorePhrase(phrase, touchedCount);
    const results = selectTop(this.score, order, this.touched, touchedCount, limit);
    for (let i = 0; i < touchedCount; i++) this.score[this.touched[i]!] = 0;
    return { slots: results, total: touchedCount };
  }

  /** Adds one query token's half points to every entry it covers; returns the touched count. */
  private scoreToken(token: string, touchedCount: number): number {
    const { postings, exact, prefix, score, touched, tokenTouched } = this;
    const { baseTerms, baseStart, baseBytes, deltaSorted, deltaTerms, deltaHead, deltaPool, blockFrom, blockEnd, blockNext, blockSlot, alive } = postings;
    const range = postings.range(token, token.length >= MIN_PREFIX_LENGTH, this.range);
    let count = 0;
    for (let t = range.baseFrom; t < range.baseTo; t++) {
      count = markRun(baseBytes, baseStart[t]!, baseStart[t + 1]!, -1, baseTerms[t] === token ? exact : prefix, alive, exact, prefix, tokenTouched, count);
    }
    for (let d = range.deltaFrom; d < range.deltaTo; d++) {
      const flags = deltaTerms[deltaSorted[d]!] === token ? exact : prefix;
      for (let block = deltaHead[deltaSorted[d]!]!; block >= 0; block = blockNext[block]!) {
        count = markRun(deltaPool, blockFrom[block]!, blockEnd[block]!, blockSlot[block]!, flags, alive, exact, prefix, tokenTouched, count);
      }
    }
    for (let i = 0; i < count; i++) {
      const e = tokenTouched[i]!;
      if (score[e] === 0) touched[touchedCount++] = e;
      score[e]! += TOKEN_SCORE[(exact[e]! << 4) | prefix[e]!]!;
      exact[e] = prefix[e] = 0;
    }
    return touchedCount;
  }

  /**
   * Adds the phrase bonus to the entries that already cover a query token and whose normalised
   * title holds the whole normalised query. The bonus never creates a match on its own: an entry
   * that covers no token scored 0 and is not touched, whatever its title holds.
   */
  private scorePhrase(phrase: string, touchedCount: number): void {
    const { normalizedTitles, score, touched } = this;
    for (let i = 0; i < touchedCount; i++) {
      const e = touched[i]!;
      if (normalizedTitles[e]!.includes(phrase)) score[e]! += halfPoints(PHRASE_BONUS);
    }
  }

  /** Each word of `text` whose token equals a query token, or starts with one of 3 characters or more. */
  findMatches(query: RuleQuery, text: string): TextMatch[] {
    const { tokens } = query;
    const exact = new Map(tokens.map((token, term) => [token, term]));
    const prefixes = tokens.flatMap((token, term) => (token.length >= MIN_PREFIX_LENGTH ? [{ token, term }] : []));
    const found: TextMatch[] = [];
    if (tokens.length === 0) return found;
    forEachRuleWord(text, (token, start, end) => {
      const term = exact.get(token) ?? prefixes.find((prefix) => token.startsWith(prefix.token))?.term;
      if (term !== undefined) found.push({ start, end, term });
      return found.length < MAX_MATCHES;
    });
    return found;
  }
}

/**
 * Ors each live entry's field mask from the postings in `bytes[from…to)` (the encoding of
 * ./posting-codec.ts, width 1, decoded inline; the first gap counts from entry `previous`) into `flags`, listing in `tokenTouched` each entry the
 * token reaches for the first time; returns the new list length.
 */
function markRun(bytes: Uint8Array, from: number, to: number, previous: number, flags: Uint8Array, alive: Uint8Array, exact: Uint8Array, prefix: Uint8Array, tokenTouched: Int32Array, count: number): number {
  let e = previous;
  let p = from;
  while (p < to) {
    let byte = bytes[p++]!;
    let header = byte & 127;
    for (let scale = 128; byte >= 128; scale *= 128) {
      byte = bytes[p++]!;
      header += (byte & 127) * scale;
    }
    const code = header % 16;
    e += (header - code) / 16;
    let mask = code + 1;
    if (code === 15) {
      p++; // the field-presence byte: width 1, always 1
      byte = bytes[p++]!;
      mask = byte & 127;
      for (let scale = 128; byte >= 128; scale *= 128) {
        byte = bytes[p++]!;
        mask += (byte & 127) * scale;
      }
    }
    if (alive[e] === 0) continue;
    if ((exact[e]! | prefix[e]!) === 0) tokenTouched[count++] = e;
    flags[e]! |= mask;
  }
  return count;
}

/** The rule's core `createIndex` builds for `ranking: "rule"` (the default). */
export function createRuleCore(): RankingCore {
  return new RuleCore();
}
