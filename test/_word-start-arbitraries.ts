/**
 * Shared by the differential tests of the SQL clauses (test/sql.test.ts on SQLite,
 * test/postgres.test.ts on PGlite): random row texts and query words built to hit the word-start
 * rule's edges. Not a test file itself.
 */
import fc from "fast-check";
import { createVocabulary } from "../src/index.js";

/** A vocabulary whose table has phrases, stems, covered patterns and punctuation in sources. */
export const tableVocabulary = createVocabulary({
  locale: "pt-BR",
  sourceName: "a fonte",
  entries: [
    { asked: "carros", source: ["automove", "automóveis", "carro"] },
    { asked: "pressão alta", source: ["hipertens"] },
    { asked: "covid", source: ["sars-cov-2", "covid-19"] },
    { asked: "obrien", source: ["o'brien"] },
    { asked: "cem", source: ["100%", "c.e.m."] },
  ],
});

/**
 * Characters that continue a word, that end one (space, hyphen, quote, dot, percent, LIKE and
 * GLOB wildcards, regex syntax, a backslash), accented and non-Latin letters, and an emoji (a
 * surrogate pair). No NUL: a stored text never holds one (SQLite cuts it there, PostgreSQL
 * refuses it); queries get NUL separately.
 */
const UNITS = [..."aaeeioossrcmbt01 9", " ", " ", "-", "'", ".", "%", "_", "*", "?", "[", "]", "(", "|", "^", "$", "\\", "/", "ã", "é", "ç", "日", "本", "😀", "Ω"];

/** A row's text before normalisation. */
export const ROW_TEXT = fc.string({ unit: fc.constantFrom(...UNITS), maxLength: 30 });

/** A query word: a random string (with NUL sometimes), or a word the table or the rows use. */
export const queryText = fc.oneof(
  fc.string({ unit: fc.constantFrom(...UNITS, "\0"), minLength: 1, maxLength: 6 }),
  fc.constantFrom("carros", "carro", "pressão alta", "covid", "covid-19", "obrien", "o'brien", "cem", "100%", "c.e.m.", "a", "ab", "ba", "sos", "日本", "😀", "de", "\0zz"),
);

/** A random case: row texts, query words, and where to take one more query word from the rows. */
export const TABLE_CASE = fc.record({
  rows: fc.array(ROW_TEXT, { maxLength: 25 }),
  words: fc.array(queryText, { maxLength: 2 }),
  pick: fc.nat(),
  cut: fc.nat({ max: 4 }),
});

/**
 * The case's table (normalised) and query: the random words, plus the start of one word of one
 * row (so many cases select rows), sometimes cut inside the word.
 */
export function tableAndQuery(input: { rows: string[]; words: string[]; pick: number; cut: number }): { table: string[]; query: string } {
  const table = input.rows.map(tableVocabulary.normalize);
  const rowWords = table.flatMap((text) => text.split(" ")).filter((word) => word !== "");
  const word = rowWords[input.pick % Math.max(1, rowWords.length)] ?? "";
  const extra = word.slice(0, Math.max(1, word.length - input.cut));
  return { table, query: [...input.words, extra].join(" ") };
}
