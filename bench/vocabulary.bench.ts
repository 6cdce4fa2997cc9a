/**
 * Filtering 100k normalised names with `matchesQuery`, against a naive `includes` scan (no word
 * boundary, so it also returns the invented matches) and a `RegExp` built on every call.
 * Each iteration filters all 100k names: names per second = hz × 100,000.
 */
import { readFileSync } from "node:fs";
import { getMunicipalities } from "@brazilian-utils/brazilian-utils";
import { bench, describe } from "vitest";
import { createVocabulary, type ExpandedTerm } from "../src/index.js";
import { buildCorpus } from "./_corpora.js";

const NAME_COUNT = 100_000;
const vocab = createVocabulary({
  locale: "pt-BR",
  sourceName: "o IBGE",
  entries: [
    { asked: "carros", source: ["automove", "automóveis"] },
    { asked: "frutas", source: ["fruticultura", "pomar"] },
  ],
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

// The issue-17 target: `matchesQuery` against the obvious implementation it replaces, a plain
// loop of `indexOf` with a word-start check, over about 10k real catalogue names (the IBGE
// municipalities, the CNAE subclasses and the CBO occupations, as their titles) and 10 queries
// of every kind: one word, a plural, a phrase, a table word, a prefix being typed.
const catalogue = buildCorpus("pt", 10_000).map((entry) => vocab.normalize(entry.title));
const QUERIES = [
  "soja",
  "comércio varejista",
  "fabricação de produtos",
  "professores",
  "São José",
  "carros",
  "serviços de saúde",
  "pro",
  "técnico em enfermagem",
  "cultivo de frutas",
];
const expansions = QUERIES.map((query) => vocab.expandQuery(query));

const isWordCode = (code: number) => (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
function matchesByIndexOfLoop(text: string, terms: readonly ExpandedTerm[]): boolean {
  if (terms.length === 0) return false;
  for (const term of terms) {
    let found = false;
    for (const pattern of term.patterns) {
      if (pattern === "") continue;
      for (let at = text.indexOf(pattern); at !== -1 && !found; at = text.indexOf(pattern, at + 1)) {
        found = at === 0 || !isWordCode(text.charCodeAt(at - 1));
      }
      if (found) break;
    }
    if (!found) return false;
  }
  return true;
}

const countAll = (matches: (text: string, terms: readonly ExpandedTerm[]) => boolean) => {
  let count = 0;
  for (const terms of expansions) for (const name of catalogue) if (matches(name, terms)) count += 1;
  return count;
};
for (const terms of expansions) {
  const fast = catalogue.filter((name) => vocab.matchesQuery(name, terms));
  const plain = catalogue.filter((name) => matchesByIndexOfLoop(name, terms));
  if (fast.join("\n") !== plain.join("\n")) throw new Error(`matchesQuery and the indexOf loop disagree on ${JSON.stringify(terms)}`);
}

/** CPU time of one call, user plus system: a shared VM sometimes books user time as system. */
function cpuMicroseconds(run: () => void): number {
  const start = process.cpuUsage();
  run();
  const spent = process.cpuUsage(start);
  return spent.user + spent.system;
}

const median = (values: readonly number[]) => values.slice().sort((a, b) => a - b)[values.length >> 1] ?? NaN;

/**
 * The ratio, measured here as well as by the bench table: 40 rounds, each timing both on the
 * whole catalogue back to back (the first one alternating), in CPU time rather than wall time,
 * which other processes on a shared machine inflate. It reports the median of the 40 per-round
 * ratios, and each side's median for runs per second: a minimum is not robust here, as a round
 * whose time the VM books late reads several times too fast.
 */
function measureRatio(): { ratio: number; fastPerSecond: number; plainPerSecond: number } {
  const fast: number[] = [];
  const plain: number[] = [];
  for (let round = 0; round < 40; round += 1) {
    const timeFast = () => fast.push(cpuMicroseconds(() => countAll(vocab.matchesQuery)));
    const timePlain = () => plain.push(cpuMicroseconds(() => countAll(matchesByIndexOfLoop)));
    if (round % 2 === 0) {
      timeFast();
      timePlain();
    } else {
      timePlain();
      timeFast();
    }
  }
  return {
    ratio: median(plain.map((time, round) => time / (fast[round] ?? NaN))),
    fastPerSecond: 1e6 / median(fast),
    plainPerSecond: 1e6 / median(plain),
  };
}
const measured = measureRatio();
console.log(
  `matchesQuery vs the plain indexOf loop, ${catalogue.length} names × ${QUERIES.length} queries ` +
    `(${countAll(vocab.matchesQuery)} matches, identical): ${measured.fastPerSecond.toFixed(0)} runs/s against ` +
    `${measured.plainPerSecond.toFixed(0)}, ${measured.ratio.toFixed(2)}× the throughput (target ≥ 1.5×)`,
);

describe(`match ${catalogue.length.toLocaleString("en")} real names against ${QUERIES.length} queries`, () => {
  bench("vocab.matchesQuery (compiled once per expansion)", () => {
    countAll(vocab.matchesQuery);
  });
  bench("plain indexOf loop with a word-start check", () => {
    countAll(matchesByIndexOfLoop);
  });
});
