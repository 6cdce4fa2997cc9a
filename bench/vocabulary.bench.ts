/**
 * Filtering 100k normalised names with `matchesQuery`, against a naive `includes` scan (no word
 * boundary, so it also returns the invented matches) and a `RegExp` built on every call.
 * Each iteration filters all 100k names: names per second = hz × 100,000.
 */
import { readFileSync } from "node:fs";
import { getMunicipalities } from "@brazilian-utils/brazilian-utils";
import { bench, describe } from "vitest";
import { createVocabulary, type ExpandedTerm } from "../src/index.js";

const NAME_COUNT = 100_000;
const vocab = createVocabulary({
  locale: "pt-BR",
  sourceName: "o IBGE",
  entries: [{ asked: "carros", source: ["automove"] }],
});
const cnae = JSON.parse(readFileSync(new URL("../test/fixtures/cnae-subclasses.json", import.meta.url), "utf8")) as [
  string,
  string,
][];
const municipalities = getMunicipalities().map((municipality) => municipality.name);
const names = Array.from({ length: NAME_COUNT }, (_, i) =>
  vocab.normalize(`${cnae[i % cnae.length]?.[1]} em ${municipalities[(i * 7) % municipalities.length]}`),
);
const expanded = vocab.expandQuery("comércio de carros");

function matchesByIncludes(text: string, terms: readonly ExpandedTerm[]): boolean {
  return terms.every((term) => term.patterns.some((pattern) => text.includes(pattern)));
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
function matchesByRegExp(text: string, terms: readonly ExpandedTerm[]): boolean {
  return terms.every((term) =>
    new RegExp(`(?:^|[^a-z0-9])(?:${term.patterns.map(escapeRegExp).join("|")})`).test(text),
  );
}

const viaVocabulary = names.filter((name) => vocab.matchesQuery(name, expanded)).length;
const viaRegExp = names.filter((name) => matchesByRegExp(name, expanded)).length;
const viaIncludes = names.filter((name) => matchesByIncludes(name, expanded)).length;
if (viaVocabulary !== viaRegExp || viaVocabulary === 0) {
  throw new Error(`The bench compares different answers: ${viaVocabulary} vs ${viaRegExp}.`);
}

const title = `filter ${NAME_COUNT.toLocaleString("en")} normalised names (${viaVocabulary} match; includes says ${viaIncludes})`;
describe(title, () => {
  bench("vocab.matchesQuery (indexOf + word-start check)", () => {
    names.filter((name) => vocab.matchesQuery(name, expanded));
  });
  bench("naive includes scan (no boundary)", () => {
    names.filter((name) => matchesByIncludes(name, expanded));
  });
  bench("RegExp built per call", () => {
    names.filter((name) => matchesByRegExp(name, expanded));
  });
});
