/**
 * Searches over the candidates' index, before a dialect writes them: a token in one field,
 * exactly or as a prefix, and the AND/OR forms the ranked statements ask for. The index holds
 * `RankedRow.lexemes`, each token tagged with its field's letter (`RULE_FIELDS`, src/ranking/rule/definition.ts).
 */
import { RULE_FIELDS } from "../ranking/rule/definition.js";

/** How many fields a row has: a term's `field` is a place in `RULE_FIELDS`. */
export const FIELD_COUNT = RULE_FIELDS.length;
/** Each field's tag in the lexemes, by field number. */
export const TAGS: readonly string[] = RULE_FIELDS.map((field) => field.tag);

/**
 * A token in one field: `prefix` finds every row whose field holds a token that starts with it
 * (a token of 3 characters or more), otherwise the rows whose field holds it exactly. The token is
 * already cut to `LEXEME_LENGTH`.
 */
export interface IndexTerm {
  readonly token: string;
  readonly field: number;
  readonly prefix: boolean;
}

/** A search: rows matching any of its items, an item being an AND of groups, a group an OR of terms. */
export type TermSearch = readonly (readonly (readonly IndexTerm[])[])[];

/** The search for one term. */
export const single = (term: IndexTerm): TermSearch => [[[term]]];
