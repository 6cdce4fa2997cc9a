/**
 * The relevance gate (`npm run bench:relevance -- --gate`, run by `.ci/run`): the folder server's
 * MRR@10 on a fixed set of known-item queries, on corpora whose Debian packages `.ci/run`
 * installs (small ones, with no dependencies but debian-reference-common), compared with the
 * baseline committed in bench/relevance-baseline.json. A drop of more than 0.01 on any corpus
 * fails (exit code 1), naming the corpus and both numbers; so does a corpus whose queries or
 * documents are no longer those the baseline measured (a new package version), since the
 * numbers would not compare.
 *
 * `npm run bench:relevance -- --update-baseline` measures again and rewrites the baseline: on
 * purpose, in the commit that changes the ranking, with the reason in its message.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { CORPORA, ensureCorpusPackages, loadLanguageCorpora, type LanguageCorpus } from "./_language-corpora.js";
import type { Search } from "./_relevance-corpora.js";
import { evaluate, folderServer } from "./relevance-languages.js";

/**
 * The gate's corpora: the development corpora of seven languages (the Debian Reference) and one
 * Russian test corpus (the Developer's Reference), two scripts besides Latin and CJK, each with
 * at most GATE_QUERIES of its queries. All install from Debian with nothing else but
 * debian-reference-common, in a few seconds.
 */
export const GATE_CORPORA = [
  "debian-reference-en", "debian-reference-pt-br", "debian-reference-es", "debian-reference-de",
  "debian-reference-fr", "debian-reference-ja", "debian-reference-zh-cn", "developers-reference-ru",
] as const;
/** The Debian packages the gate needs; `.ci/run` installs those the committed baseline names. */
export const GATE_PACKAGES: readonly string[] = [...new Set(CORPORA.filter((c) => (GATE_CORPORA as readonly string[]).includes(c.name)).map((c) => c.package))];
/** At most this many queries per corpus (all of them: MAX_QUERIES is 300 too), the first ones of the corpus's list. */
export const GATE_QUERIES = 300;
/** The largest drop of MRR@10 that passes. */
export const GATE_TOLERANCE = 0.01;

export const BASELINE_FILE = fileURLToPath(new URL("./relevance-baseline.json", import.meta.url));

/** One corpus's measure, as the baseline keeps it. */
export interface GateMeasure {
  readonly mrr10: number;
  readonly recall10: number;
  readonly queries: number;
  readonly documents: number;
  /** sha256 of the queries and answers, the first 16 hex digits: the same queries, or not comparable. */
  readonly queriesHash: string;
  readonly package: string;
}
export interface Baseline {
  readonly note: string;
  readonly corpora: Readonly<Record<string, GateMeasure>>;
}

const hashOf = (corpus: LanguageCorpus) =>
  createHash("sha256").update(JSON.stringify(corpus.queries.map((q) => [q.query, q.answer]))).digest("hex").slice(0, 16);
const round = (value: number) => Math.round(value * 10_000) / 10_000;

/** The gate's corpora with their queries cut to GATE_QUERIES, or the reason they cannot be had. */
export function gateCorpora(names: readonly string[] = GATE_CORPORA, log: (line: string) => void = () => undefined): LanguageCorpus[] | string {
  const problem = ensureCorpusPackages(names, log);
  if (problem !== undefined) return problem;
  const { corpora, missing } = loadLanguageCorpora(names);
  if (missing.length > 0) return `missing: ${missing.join(", ")}`;
  return corpora.map((corpus) => ({ ...corpus, queries: corpus.queries.slice(0, GATE_QUERIES) }));
}

/** The folder server's measure on each corpus; `wrap` changes its search (a planted regression, in the gate's test). */
export async function measureGate(corpora: readonly LanguageCorpus[], wrap?: (search: Search) => Search): Promise<Record<string, GateMeasure>> {
  const measures: Record<string, GateMeasure> = {};
  for (const corpus of corpora) {
    const { rows, skipped } = await evaluate(corpus, [folderServer], wrap);
    const row = rows[0];
    if (row === undefined) throw new Error(`the folder server did not run on ${corpus.name}: ${skipped.join("; ")}`);
    measures[corpus.name] = {
      mrr10: round(row.mrr), recall10: round(row.recall10), queries: corpus.queries.length, documents: corpus.documents,
      queriesHash: hashOf(corpus), package: `${corpus.package} ${corpus.version}`,
    };
  }
  return measures;
}

/**
 * Compares measures with the baseline: one failure line per corpus whose MRR@10 dropped by more
 * than GATE_TOLERANCE, or whose queries or documents changed; lines for gains too, as notes.
 */
export function compareWithBaseline(measures: Readonly<Record<string, GateMeasure>>, baseline: Baseline): { failures: string[]; notes: string[] } {
  const failures: string[] = [];
  const notes: string[] = [];
  for (const [name, now] of Object.entries(measures)) {
    const then = baseline.corpora[name];
    if (then === undefined) {
      failures.push(`${name}: not in the baseline; run npm run bench:relevance -- --update-baseline`);
      continue;
    }
    if (then.queriesHash !== now.queriesHash || then.documents !== now.documents) {
      failures.push(`${name}: the corpus changed (${then.package}, ${then.queries} queries, ${then.documents} documents in the baseline; ${now.package}, ${now.queries} queries, ${now.documents} documents now), so MRR@10 ${now.mrr10.toFixed(4)} does not compare with ${then.mrr10.toFixed(4)}; measure again with --update-baseline`);
      continue;
    }
    const change = now.mrr10 - then.mrr10;
    // The rounding to 4 digits cannot make a drop of exactly 0.01 fail.
    if (change < -GATE_TOLERANCE - 1e-9) failures.push(`${name}: MRR@10 dropped from ${then.mrr10.toFixed(4)} (baseline) to ${now.mrr10.toFixed(4)} (now), by ${(-change).toFixed(4)}, more than ${GATE_TOLERANCE}`);
    else if (change > GATE_TOLERANCE) notes.push(`${name}: MRR@10 rose from ${then.mrr10.toFixed(4)} to ${now.mrr10.toFixed(4)}; --update-baseline keeps the gain`);
  }
  return { failures, notes };
}

export function readBaseline(file = BASELINE_FILE): Baseline {
  return JSON.parse(readFileSync(file, "utf8")) as Baseline;
}

/** `--gate` and `--update-baseline`: returns the exit code. */
export async function runGateCommand(options: { update: boolean; baseline?: string | undefined; names?: readonly string[] | undefined; write: (text: string) => void }): Promise<number> {
  const started = performance.now();
  const file = options.baseline ?? BASELINE_FILE;
  const names = options.names ?? GATE_CORPORA;
  const corpora = gateCorpora(names, (line) => options.write(`relevance gate: ${line}\n`));
  if (typeof corpora === "string") {
    options.write(`relevance gate: FAILED, its corpora cannot be had: ${corpora}\n`);
    return 1;
  }
  const measures = await measureGate(corpora);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  for (const [name, m] of Object.entries(measures)) options.write(`relevance gate: ${name.padEnd(24)} MRR@10 ${m.mrr10.toFixed(4)}  recall@10 ${m.recall10.toFixed(4)}  (${m.queries} queries, ${m.documents} documents)\n`);
  if (options.update) {
    const kept = options.names === undefined ? {} : (() => { try { return readBaseline(file).corpora; } catch { return {}; } })();
    const baseline: Baseline = {
      note: "The relevance gate's baseline: the folder server's MRR@10 per corpus (bench/_relevance-gate.ts). Rewritten on purpose by `npm run bench:relevance -- --update-baseline`.",
      corpora: { ...kept, ...measures },
    };
    writeFileSync(file, `${JSON.stringify(baseline, null, 2)}\n`);
    options.write(`relevance gate: baseline written to ${file} (${seconds} s)\n`);
    return 0;
  }
  const { failures, notes } = compareWithBaseline(measures, readBaseline(file));
  for (const note of notes) options.write(`relevance gate: note: ${note}\n`);
  for (const failure of failures) options.write(`relevance gate: FAILED ${failure}\n`);
  options.write(`relevance gate: ${failures.length === 0 ? "passed" : "FAILED"}, ${Object.keys(measures).length} corpora in ${seconds} s\n`);
  return failures.length === 0 ? 0 : 1;
}
