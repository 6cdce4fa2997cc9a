/** Property tests (fast-check) of the vocabulary's word-start rule. */
import fc from "fast-check";
import { describe, it } from "vitest";
import { createVocabulary } from "../../src/index.js";

describe("createVocabulary", () => {
  const vocab = createVocabulary({
    sourceName: "o IBGE",
    entries: [
      { asked: "renda", source: ["rendimento"] },
      { asked: "pressão alta", source: ["hipertens"] },
    ],
  });
  const letters = fc.string({ unit: fc.constantFrom(..."abcdeimnorst0123456789"), minLength: 1, maxLength: 8 });

  it("never matches inside a word", () => {
    fc.assert(
      fc.property(fc.oneof(letters, fc.constantFrom("renda", "rendas", "pressão alta", "casas")), letters, letters, (query, before, after) => {
        const expanded = vocab.expandQuery(query);
        fc.pre(expanded.length > 0);
        const patterns = expanded.flatMap((term) => term.patterns);
        // One word: the query's patterns can only occur inside it, after `before`.
        const word = vocab.normalize(`${before}${patterns[0] ?? ""}${after}`);
        fc.pre(!word.includes(" ") && !patterns.some((pattern) => word.startsWith(pattern)));
        return !vocab.matchesQuery(word, expanded);
      }),
    );
  });

  it("matches the same word at the start of a word", () => {
    fc.assert(
      fc.property(fc.constantFrom("renda", "rendas", "soja", "milho"), letters, (query, after) => {
        const expanded = vocab.expandQuery(query);
        return vocab.matchesQuery(vocab.normalize(`tabela ${query}${after}`), expanded);
      }),
    );
  });
});
