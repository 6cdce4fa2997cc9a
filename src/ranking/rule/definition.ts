/**
 * The rule ranking's one definition (README "How ranking works"): its fields with their SQL
 * columns, lexeme tags and weights, its bonuses, its stopwords and its tokenizer. The in-memory
 * index (./core.ts) and the SQL ranking (src/sql/) both read them from here; neither
 * restates a number, a list or the order of the fields.
 */
import { ORIGINAL_STOPWORDS as ENGLISH } from "../../languages/en.js";
import { ORIGINAL_STOPWORDS as PORTUGUESE } from "../../languages/pt.js";
import { normalizeText } from "../normalize.js";

/**
 * The rule's fields, in their fixed order (a posting's field bit is `1 << place`): the name of
 * the entry's field, the `RankedRow` column that holds its tokens in SQL, the letter that tags its
 * tokens in `RankedRow.lexemes`, and its weight in points. An exact hit is worth the weight, a
 * word-start hit half of it.
 */
export const RULE_FIELDS = [
  { name: "id", column: "id_tokens", tag: "i", weight: 10 },
  { name: "title", column: "title_tokens", tag: "t", weight: 3 },
  { name: "keywords", column: "keyword_tokens", tag: "k", weight: 2 },
  { name: "text", column: "text_tokens", tag: "x", weight: 1 },
] as const;

/** One of {@link RULE_FIELDS}. */
export type RuleField = (typeof RULE_FIELDS)[number];

/** Each field's place in {@link RULE_FIELDS}, by name: `FIELD.title` is 1. */
export const FIELD = Object.freeze(Object.fromEntries(RULE_FIELDS.map((field, place) => [field.name, place]))) as { readonly [F in RuleField as F["name"]]: number };

/** Points for every query token an entry covers, in any field. */
export const COVERED_TOKEN_BONUS = 10;
/** Points for a title that holds the whole normalised query (3 characters or more), once an entry covers a token. */
export const PHRASE_BONUS = 5;
/** The shortest normalised query that earns the phrase bonus. */
export const MIN_PHRASE_LENGTH = 3;
/** The shortest query token that also matches longer words at their start; a shorter one matches whole words only. */
export const MIN_PREFIX_LENGTH = 3;

/**
 * The scores are computed in half points, so that a word-start hit (half a weight) is a whole
 * number and SQL orders rows exactly as JavaScript does.
 *
 * @example
 * halfPoints(PHRASE_BONUS); // => 10
 */
export const halfPoints = (points: number): number => 2 * points;

/**
 * The rule's stopwords: exactly the original's list (version 0.9.0) of Portuguese, then English,
 * function words, from the language modules' `ORIGINAL_STOPWORDS`. The same in every locale and
 * for every language, so that a score never depends on either; never a token.
 */
export const ORIGINAL_RULE_STOPWORDS: ReadonlySet<string> = new Set([...PORTUGUESE, ...ENGLISH]);

const NON_ALPHANUMERIC = /[^a-z0-9]+/;

/**
 * Normalises (see `normalizeText`), splits on `[^a-z0-9]+` and keeps each token of 2 or more
 * characters that is not a stopword, once, in first-seen order.
 *
 * @example
 * tokenize("Produção de soja e de milho no Paraná"); // => ["producao", "soja", "milho", "parana"]
 * tokenize("PIB a preços de 2010");                 // => ["pib", "precos", "2010"]
 */
export function tokenize(text: string): string[] {
  const tokens = new Set<string>();
  forEachToken(text, (token) => tokens.add(token));
  return [...tokens];
}

/** Calls `visit` for every token of `text`, repeats included: the build needs no de-duplication. */
export function forEachToken(text: string, visit: (token: string) => void): void {
  forEachTokenOfNormalized(normalizeText(text), visit);
}

/** {@link forEachToken} on text already normalised. */
export function forEachTokenOfNormalized(normalized: string, visit: (token: string) => void): void {
  for (const run of normalized.split(NON_ALPHANUMERIC)) {
    if (run.length >= 2 && !ORIGINAL_RULE_STOPWORDS.has(run)) visit(run);
  }
}

/**
 * The texts of an entry's fields, in the order of {@link RULE_FIELDS}: its id, its title, its
 * keywords and its text.
 *
 * @example
 * fieldTexts({ id: "a", title: "Soja", keywords: ["grãos"] }); // => [["a"], ["Soja"], ["grãos"], [""]]
 * fieldTexts({ id: "b", title: "Milho" });                   // => [["b"], ["Milho"], [""], [""]]
 */
export function fieldTexts(entry: { readonly id: string; readonly title: string; readonly keywords?: readonly string[]; readonly text?: string }): readonly (readonly string[])[] {
  return RULE_FIELDS.map(({ name }) => {
    const value = entry[name];
    return typeof value === "string" ? [value] : (value ?? [""]);
  });
}
