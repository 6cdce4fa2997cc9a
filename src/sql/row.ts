/**
 * The normalised row form: what a database needs, per entry, to rank by the rule exactly as
 * `createIndex` does. The tokens are computed here, in JavaScript, by the very `tokenize` of the
 * index, once at insert time; the SQL only looks them up. So the database never has to agree
 * with JavaScript on Unicode (NFD, case, accents): it compares ASCII tokens.
 */
import { checkEntry } from "../ranking/entries.js";
import { normalizeText, type IndexEntry } from "../ranking/create-index.js";
import { fieldTexts, RULE_FIELDS, tokenize, type RuleField } from "../ranking/rule/definition.js";
import type { Vocabulary } from "../vocabulary/vocabulary.js";

/**
 * The columns the ranked queries read, one row per entry, under these exact names. Each
 * `*_tokens` column holds the field's tokens (as `tokenize` gives them: normalised, `[a-z0-9]`,
 * 2 characters or more, no stopword, each once, in first-seen order), every token with a space
 * before and after it: `" producao soja "`; a field with no token is `""`.
 *
 * @example
 * const row: RankedRow = {
 *   id_tokens: " cnae 0115600 ",
 *   title_tokens: " cultivo soja ",
 *   keyword_tokens: "",
 *   text_tokens: "",
 *   title_phrase: "cultivo de soja",
 *   lexemes: "icnae i0115600 tcultivo tsoja",
 * };
 */
export interface RankedRow {
  /** The id's tokens (weight 10). An id such as "6579" gives `" 6579 "`: the id counts in full. */
  readonly id_tokens: string;
  /** The title's tokens (weight 3). */
  readonly title_tokens: string;
  /** The tokens of every keyword, as one field (weight 2). */
  readonly keyword_tokens: string;
  /** The text's tokens (weight 1). */
  readonly text_tokens: string;
  /**
   * The normalised title (`normalizeText`), for the phrase bonus. NUL and UTF-16 surrogates, which
   * the databases cannot store as JavaScript compares them, get stand-ins that normalised text
   * never holds otherwise (combining marks), so "the title holds the query" stays exact.
   */
  readonly title_phrase: string;
  /**
   * Every token of the four fields, tagged with its field's letter (`i` id, `t` title, `k`
   * keywords, `x` text), each cut to its first 255
   * characters, distinct, space-joined: `"icnae i0115600 tcultivo tsoja"`. The candidates' index
   * (FTS5 in SQLite, a GIN `tsvector` in PostgreSQL) is built on it, so a search can ask for a
   * token in one field: the ranked search reads few rows even when a word is in most of them.
   * It only selects candidates; the score reads the full tokens.
   */
  readonly lexemes: string;
}

/**
 * Options of {@link toRankedRow}.
 *
 * @example
 * toRankedRow(entry, { vocabulary: ibge } satisfies RankedRowOptions);
 */
export interface RankedRowOptions {
  /**
   * A vocabulary whose asked words join the keywords: the row is that of
   * `{ ...entry, keywords: [...(entry.keywords ?? []), ...vocabulary.askedWordsFor(entry.title)] }`,
   * the recipe the in-memory index uses, so a question in everyday words ("renda") finds and
   * ranks the source's words ("Rendimento médio").
   * @default undefined
   */
  readonly vocabulary?: Vocabulary;
}

/**
 * The longest lexeme the candidates' index holds, in characters; a longer token is cut to it
 * there (PostgreSQL refuses a lexeme of 2 KiB or more). A query token is cut the same way and
 * then searched as a prefix, so the candidates still include every row that matches.
 */
export const LEXEME_LENGTH = 255;

/** The compiler checks that every field's column is a column of {@link RankedRow}. */
const COLUMNS: readonly (keyof RankedRow)[] = RULE_FIELDS.map((field: RuleField) => field.column);

/** NUL, which SQLite cuts text at and PostgreSQL refuses. */
const NUL = /\0/g;
/**
 * A UTF-16 surrogate. A lone one becomes U+FFFD in both databases' UTF-8; and in memory a query
 * may hold half of a title's pair ("includes" compares code units), which UTF-8 cannot say. So
 * every surrogate, paired or not, gets a stand-in.
 */
const SURROGATE = /[\uD800-\uDFFF]/g;

/**
 * Normalised text as the ranked queries compare it for the phrase bonus. What a database cannot
 * store as it is, or stores differently, gets a stand-in made of combining marks U+0300–U+036F,
 * which `normalizeText` always removes, so a stand-in never meets a real character: NUL becomes
 * U+0360, and each surrogate code unit two marks, one from U+0300–U+031F and one from
 * U+0320–U+035F (its 11 bits). The two ranges differ, so a stand-in is only ever found whole, and
 * "the title holds the query" is exactly what it is in memory, code unit by code unit.
 *
 * @example
 * phraseText("Cultivo de SOJA") // => "cultivo de soja"
 */
export function phraseText(text: string): string {
  return normalizeText(text)
    .replace(NUL, "\u0360")
    .replace(SURROGATE, (unit) => {
      const bits = unit.charCodeAt(0) - 0xd800;
      return String.fromCharCode(0x300 + (bits >> 6), 0x320 + (bits & 63));
    });
}

const padded = (tokens: readonly string[]): string => (tokens.length === 0 ? "" : ` ${tokens.join(" ")} `);

/**
 * Turns an entry into the columns the ranked queries read (see {@link RankedRow}): store them
 * beside the entry when it is inserted, and compute them again whenever its id, title, keywords
 * or text change. Throws `McpSearchError` for a malformed entry, with the checks and messages of
 * `createIndex`.
 *
 * @example
 * toRankedRow({ id: "cnae:0115600", title: "Cultivo de soja", url: "https://example.org/0115600", keywords: ["Grãos"] });
 * // => {
 * //   id_tokens: " cnae 0115600 ",
 * //   title_tokens: " cultivo soja ",
 * //   keyword_tokens: " graos ",
 * //   text_tokens: "",
 * //   title_phrase: "cultivo de soja",
 * //   lexemes: "icnae i0115600 tcultivo tsoja kgraos",
 * // }
 */
export function toRankedRow(entry: IndexEntry, options: RankedRowOptions = {}): RankedRow {
  checkEntry(entry, "The entry given to toRankedRow");
  const asked = options.vocabulary?.askedWordsFor(entry.title) ?? [];
  const texts = fieldTexts({ ...entry, keywords: [...(entry.keywords ?? []), ...asked] });
  // Each field's tokens, distinct over its texts (the keywords are several), in first-seen order.
  const fields = texts.map((values) => [...new Set(values.flatMap(tokenize))]);
  const lexemes = new Set<string>();
  const row: Record<string, string> = {};
  RULE_FIELDS.forEach(({ tag }, place) => {
    const tokens = fields[place]!;
    row[COLUMNS[place]!] = padded(tokens);
    for (const token of tokens) lexemes.add(tag + token.slice(0, LEXEME_LENGTH));
  });
  return { ...(row as Omit<RankedRow, "title_phrase" | "lexemes">), title_phrase: phraseText(entry.title), lexemes: [...lexemes].join(" ") };
}
