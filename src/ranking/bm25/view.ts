/**
 * One BM25F collection over units (whole entries, their leads, their passages or their words as
 * written): counted postings per field, the field lengths and their totals, kept exact through
 * updates, and the scoring of a query's groups over them (./core.ts has the formula).
 */
import type { ByteReader, ByteWriter } from "../bytes.js";
import { grown, SegmentedPostings, type TermRange } from "../postings.js";
import { FIELDS, MIN_PREFIX, type Bm25Parameters } from "./parameters.js";

/** The longest field a snapshot may claim when its counts saturated (2^26 tokens, about 400 MB of text). */
const MAX_SATURATED_LENGTH = 2 ** 26;

/** One word of a query: its forms (one per language, distinct), and whether they reach longer words. */
export interface QueryGroup {
  readonly forms: readonly string[];
  readonly prefixes: boolean;
}

/** One BM25F collection over units (the whole entries, their leads, or their passages), updatable. */
export class View {
  readonly postings = new SegmentedPostings(FIELDS);
  /** lengths[u × 4 + f]: tokens of field f in unit u. */
  lengths: Uint32Array = new Uint32Array(0);
  /**
   * Per field f, w_f / norm(u, f) by length: coefByLength[f][len(u, f)]. It depends on the unit
   * only through its length, so a table as long as the longest field replaces a number per unit:
   * less memory, and a refresh after an update costs the longest field, not every unit.
   */
  readonly coefByLength: Float64Array[] = [new Float64Array(1), new Float64Array(1), new Float64Array(1), new Float64Array(1)];
  /** The longest each field has been in any unit (never lowered: a longer table is still right). */
  private readonly longest = [0, 0, 0, 0];
  /** The entry slot each unit belongs to. */
  owner: Int32Array = new Int32Array(0);
  readonly totals = [0, 0, 0, 0];
  live = 0;
  fresh = false;
  tf: Float64Array = new Float64Array(0);
  score: Float64Array = new Float64Array(0);
  listed: Int32Array = new Int32Array(0);
  touched: Int32Array = new Int32Array(0);
  /** A group's tf~ per unit (its forms' summed), and the units that have one. */
  best: Float64Array = new Float64Array(0);
  bestListed: Int32Array = new Int32Array(0);
  /** How many of the query's groups each unit holds, when asked for (the whole view's). */
  matched: Int32Array = new Int32Array(0);
  private readonly range: TermRange = { baseFrom: 0, baseTo: 0, deltaFrom: 0, deltaTo: 0 };

  constructor(private readonly parameters: Bm25Parameters) {}

  /** Opens a unit of `fields` (token lists: id, title, keywords, text) for entry slot `owner`. */
  add(fields: readonly (readonly string[])[], owner: number): number {
    const unit = this.postings.open();
    this.fill(unit, fields, owner);
    return unit;
  }

  /** Counts `fields` into `unit`, already open in the postings, and into the statistics. */
  fill(unit: number, fields: readonly (readonly string[])[], owner: number): void {
    this.lengths = grown(this.lengths, (unit + 1) * FIELDS);
    this.owner = grown(this.owner, unit + 1);
    this.owner[unit] = owner;
    fields.forEach((tokens, f) => {
      for (const token of tokens) this.postings.add(token, unit, f, 1);
      this.lengths[unit * FIELDS + f] = tokens.length;
      this.totals[f]! += tokens.length;
      if (tokens.length > this.longest[f]!) this.longest[f] = tokens.length;
    });
    this.live += 1;
    this.fresh = false;
  }

  remove(unit: number): void {
    this.forget(unit);
    this.postings.remove(unit);
  }

  /** Takes `unit` out of the statistics; its postings stay for whoever owns them to remove. */
  forget(unit: number): void {
    for (let f = 0; f < FIELDS; f++) this.totals[f]! -= this.lengths[unit * FIELDS + f]!;
    this.live -= 1;
    this.fresh = false;
  }

  /** Compacts the postings; `entries` maps old entry slots to new ones. Returns the unit remap. */
  compact(entries: Int32Array): Int32Array {
    const remap = this.postings.compact();
    const live = this.postings.slots;
    const { lengths, owner } = this;
    for (let unit = 0; unit < remap.length; unit++) {
      const to = remap[unit] as number;
      if (to < 0) continue;
      lengths.copyWithin(to * FIELDS, unit * FIELDS, (unit + 1) * FIELDS);
      owner[to] = entries[owner[unit]!]!;
    }
    this.lengths = lengths.slice(0, live * FIELDS);
    this.owner = owner.slice(0, live);
    this.fresh = false;
    return remap;
  }

  /** Writes the postings and the field lengths (compact: every unit alive). */
  save(writer: ByteWriter): void {
    this.postings.save(writer);
    writer.int32Array(this.lengths, this.postings.slots * FIELDS);
  }

  /**
   * Reads what {@link save} wrote, with `owner` giving each unit's entry slot; the totals and the
   * live count follow from the lengths. Throws an `Error` when the lengths do not fit the units.
   */
  load(reader: ByteReader, owner: (unit: number) => number): void {
    const sums = this.postings.load(reader, true) as Float64Array;
    const units = this.postings.slots;
    const lengths = reader.uint32Array();
    if (lengths.length !== units * FIELDS) throw new Error("a view's field lengths do not match its units");
    // A field's length is its tokens, each counted once in its postings: the normalisation tables
    // are as long as the longest field, so a length the postings do not back is refused here
    // rather than trusted.
    for (let i = 0; i < lengths.length; i++) {
      const length = lengths[i]!;
      const counted = sums[i]!;
      if (counted === Infinity ? length > MAX_SATURATED_LENGTH : counted !== length) throw new Error("a view's field lengths do not match its postings");
    }
    this.lengths = lengths;
    this.owner = Int32Array.from({ length: units }, (_, unit) => owner(unit));
    for (let f = 0; f < FIELDS; f++) this.totals[f] = 0;
    for (let f = 0; f < FIELDS; f++) this.longest[f] = 0;
    for (let u = 0; u < units; u++) {
      for (let f = 0; f < FIELDS; f++) {
        const length = lengths[u * FIELDS + f]!;
        this.totals[f]! += length;
        if (length > this.longest[f]!) this.longest[f] = length;
      }
    }
    this.live = units;
    this.fresh = false;
  }

  /** w_f / norm(len, f) for every length up to the longest, from the exact totals and the live count. */
  private refresh(): void {
    const { totals, live, parameters } = this;
    for (let f = 0; f < FIELDS; f++) {
      const average = live === 0 ? 0 : (totals[f] as number) / live;
      const b = parameters.b[f] as number;
      const weight = parameters.weights[f] as number;
      const longest = this.longest[f]!;
      if (this.coefByLength[f]!.length <= longest) this.coefByLength[f] = new Float64Array(longest + 1);
      const coef = this.coefByLength[f]!;
      coef[0] = 0;
      for (let length = 1; length <= longest; length++) coef[length] = weight / (1 - b + (b * length) / average);
    }
    this.fresh = true;
  }

  /** Sizes the scratch arrays and the normalisation tables for a search. */
  private prepare(): void {
    const units = this.postings.slots;
    if (!this.fresh) this.refresh();
    if (this.tf.length < units) {
      this.tf = grown(this.tf, units);
      this.score = grown(this.score, units);
      this.listed = grown(this.listed, units);
      this.touched = grown(this.touched, units);
      this.best = grown(this.best, units);
      this.bestListed = grown(this.bestListed, units);
      this.matched = grown(this.matched, units);
    }
    this.postings.prepare();
  }

  /**
   * Puts tf~(token, u) in `tf[u]` for every unit u it reaches (prefixes included when asked),
   * listing them in `listed`; returns how many. The words of `forms`, the token's group (the
   * token among them), count whole; a longer word it reaches counts P.
   */
  private countTerm(token: string, prefixes: boolean, forms: readonly string[]): number {
    const { parameters: { prefix: discount }, postings, lengths, tf, listed } = this;
    const [c0, c1, c2, c3] = this.coefByLength as [Float64Array, Float64Array, Float64Array, Float64Array];
    const { baseTerms, baseStart, baseBytes, deltaSorted, deltaTerms, deltaHead, deltaPool, blockFrom, blockEnd, blockNext, blockSlot, alive } = postings;
    let count = 0;
    const range = postings.range(token, prefixes, this.range);
    // A unit sits in one segment, so its terms are visited in dictionary order either way: its
    // sum is the same, bit for bit, as in a fresh build.
    for (let term = range.baseFrom; term < range.baseTo; term++) {
      const factor = forms.includes(baseTerms[term]!) ? 1 : discount;
      count = addRun(baseBytes, baseStart[term]!, baseStart[term + 1]!, -1, factor, alive, lengths, c0, c1, c2, c3, tf, listed, count);
    }
    for (let d = range.deltaFrom; d < range.deltaTo; d++) {
      const factor = forms.includes(deltaTerms[deltaSorted[d]!]!) ? 1 : discount;
      for (let block = deltaHead[deltaSorted[d]!]!; block >= 0; block = blockNext[block]!) {
        count = addRun(deltaPool, blockFrom[block]!, blockEnd[block]!, blockSlot[block]!, factor, alive, lengths, c0, c1, c2, c3, tf, listed, count);
      }
    }
    return count;
  }

  /**
   * True when some live unit has tf~(token, u) > 0 counting the token itself only. Stops at the
   * first such posting: a common word's list is not decoded twice.
   */
  holds(token: string): boolean {
    this.prepare();
    const { postings, lengths } = this;
    const [c0, c1, c2, c3] = this.coefByLength as [Float64Array, Float64Array, Float64Array, Float64Array];
    const { baseStart, baseBytes, deltaSorted, deltaHead, deltaPool, blockFrom, blockEnd, blockNext, blockSlot, alive } = postings;
    const range = postings.range(token, false, this.range);
    for (let term = range.baseFrom; term < range.baseTo; term++) {
      if (holdsRun(baseBytes, baseStart[term]!, baseStart[term + 1]!, -1, alive, lengths, c0, c1, c2, c3)) return true;
    }
    for (let d = range.deltaFrom; d < range.deltaTo; d++) {
      for (let block = deltaHead[deltaSorted[d]!]!; block >= 0; block = blockNext[block]!) {
        if (holdsRun(deltaPool, blockFrom[block]!, blockEnd[block]!, blockSlot[block]!, alive, lengths, c0, c1, c2, c3)) return true;
      }
    }
    return false;
  }

  /** Scores the units for the query groups into `score`; returns how many it touched. */
  scoreGroups(groups: readonly QueryGroup[], countMatches = false): number {
    this.prepare();
    const { parameters: { k1 }, live: size, tf, score, listed, touched, best, bestListed, matched } = this;
    let touchedCount = 0;
    for (const { forms, prefixes } of groups) {
      if (forms.length === 1) {
        const count = this.countTerm(forms[0]!, prefixes && forms[0]!.length >= MIN_PREFIX, forms);
        const idf = Math.log(1 + (size - count + 0.5) / (count + 0.5));
        for (let i = 0; i < count; i++) {
          const u = listed[i]!;
          const t = tf[u]!;
          tf[u] = 0;
          if (score[u] === 0) touched[touchedCount++] = u;
          score[u]! += (idf * t) / (k1 + t);
          if (countMatches) matched[u]! += 1;
        }
        continue;
      }
      // Several forms, one concept (a word in several languages, and its expansions): one term
      // whose tf~ is the sum of its forms' (Lucene's SynonymQuery), saturated once, with the idf
      // of the form most units hold, so a rare form cannot outweigh the word. A form that
      // starts with another form reaching longer words is in that form's range already.
      let bestCount = 0;
      let df = 0;
      for (const token of forms) {
        const reaches = prefixes && token.length >= MIN_PREFIX;
        if (prefixes && forms.some((other) => other !== token && other.length >= MIN_PREFIX && token.startsWith(other))) continue;
        const count = this.countTerm(token, reaches, forms);
        if (count > df) df = count;
        for (let i = 0; i < count; i++) {
          const u = listed[i]!;
          if (best[u] === 0) bestListed[bestCount++] = u;
          best[u]! += tf[u]!;
          tf[u] = 0;
        }
      }
      const idf = Math.log(1 + (size - df + 0.5) / (df + 0.5));
      for (let i = 0; i < bestCount; i++) {
        const u = bestListed[i]!;
        if (score[u] === 0) touched[touchedCount++] = u;
        score[u]! += (idf * best[u]!) / (k1 + best[u]!);
        best[u] = 0;
        if (countMatches) matched[u]! += 1;
      }
    }
    return touchedCount;
  }
}

/**
 * True when a live unit of the postings in `bytes[from…to)` (decoded as {@link addRun} does) has
 * a non-zero Σ_f count_f × coef(u, f); stops at the first.
 */
function holdsRun(
  bytes: Uint8Array, from: number, to: number, previous: number, alive: Uint8Array,
  lengths: Uint32Array, coef0: Float64Array, coef1: Float64Array, coef2: Float64Array, coef3: Float64Array,
): boolean {
  let u = previous;
  let p = from;
  while (p < to) {
    let byte = bytes[p++]!;
    let header = byte & 127;
    for (let scale = 128; byte >= 128; scale *= 128) {
      byte = bytes[p++]!;
      header += (byte & 127) * scale;
    }
    const code = header % 16;
    u += (header - code) / 16;
    const k = u * FIELDS;
    let sum = 0;
    if (code !== 15) {
      sum = (code + 1) * coef3[lengths[k + 3]!]!;
    } else {
      const mask = bytes[p++]!;
      for (let f = 0; f < FIELDS; f++) {
        if (((mask >> f) & 1) === 0) continue;
        byte = bytes[p++]!;
        let value = byte & 127;
        for (let scale = 128; byte >= 128; scale *= 128) {
          byte = bytes[p++]!;
          value += (byte & 127) * scale;
        }
        sum += value * (f === 0 ? coef0[lengths[k]!]! : f === 1 ? coef1[lengths[k + 1]!]! : f === 2 ? coef2[lengths[k + 2]!]! : coef3[lengths[k + 3]!]!);
      }
    }
    if (alive[u] !== 0 && sum !== 0) return true;
  }
  return false;
}

/**
 * Adds `factor × Σ_f count_f × coef(u, f)` to `tf[u]` for each live unit u of the postings in
 * `bytes[from…to)` (the format of ../posting-codec.ts, decoded inline; the first gap counts from unit
 * `previous`), where coef(u, f) = coefF[lengths[u × 4 + f]], listing each unit the first
 * time it gets a non-zero tf; returns the new list length. A text-only posting adds
 * `factor × (count × coef(u, text))`, the same number, bit for bit, as the full sum with its
 * zero terms.
 */
function addRun(
  bytes: Uint8Array, from: number, to: number, previous: number, factor: number, alive: Uint8Array,
  lengths: Uint32Array, coef0: Float64Array, coef1: Float64Array, coef2: Float64Array, coef3: Float64Array,
  tf: Float64Array, listed: Int32Array, count: number,
): number {
  let u = previous;
  let p = from;
  while (p < to) {
    let byte = bytes[p++]!;
    let header = byte & 127;
    for (let scale = 128; byte >= 128; scale *= 128) {
      byte = bytes[p++]!;
      header += (byte & 127) * scale;
    }
    const code = header % 16;
    u += (header - code) / 16;
    const k = u * FIELDS;
    let add: number;
    if (code !== 15) {
      if (alive[u] === 0) continue;
      add = factor * ((code + 1) * coef3[lengths[k + 3]!]!);
    } else {
      const mask = bytes[p++]!;
      let c0 = 0, c1 = 0, c2 = 0, c3 = 0;
      for (let f = 0; f < FIELDS; f++) {
        if (((mask >> f) & 1) === 0) continue;
        byte = bytes[p++]!;
        let value = byte & 127;
        for (let scale = 128; byte >= 128; scale *= 128) {
          byte = bytes[p++]!;
          value += (byte & 127) * scale;
        }
        if (f === 0) c0 = value;
        else if (f === 1) c1 = value;
        else if (f === 2) c2 = value;
        else c3 = value;
      }
      if (alive[u] === 0) continue;
      add = factor * (c0 * coef0[lengths[k]!]! + c1 * coef1[lengths[k + 1]!]! + c2 * coef2[lengths[k + 2]!]! + c3 * coef3[lengths[k + 3]!]!);
    }
    if (add === 0) continue;
    if (tf[u] === 0) listed[count++] = u;
    tf[u]! += add;
  }
  return count;
}
