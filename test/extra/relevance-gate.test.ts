/**
 * The relevance gate (bench/_relevance-gate.ts, `npm run bench:relevance -- --gate` in .ci/run):
 * it passes on the current ranking, and fails, naming the corpus and both numbers, on a planted
 * ranking regression (each search's first two results swapped) and on a baseline raised by 0.02.
 * It needs the Debian packages that .ci/run installs (GATE_PACKAGES); without them it skips.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  compareWithBaseline, GATE_PACKAGES, gateCorpora, measureGate, readBaseline, type Baseline, type GateMeasure,
} from "../../bench/_relevance-gate.js";
import type { LanguageCorpus } from "../../bench/_language-corpora.js";

const installed = GATE_PACKAGES.every((pkg) => {
  try {
    return execFileSync("dpkg-query", ["-W", "-f=${Status}", pkg], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }) === "install ok installed";
  } catch {
    return false;
  }
});

const measure = (mrr10: number, queriesHash = "0123456789abcdef"): GateMeasure => ({ mrr10, recall10: 0.9, queries: 300, documents: 427, queriesHash, package: "debian-reference-pt-br 2.0" });
const baselineOf = (corpora: Record<string, GateMeasure>): Baseline => ({ note: "", corpora });

describe("the relevance gate's comparison", () => {
  it("passes a drop of exactly 0.01 and fails a drop of 0.0101, naming the corpus and both numbers", () => {
    expect(compareWithBaseline({ a: measure(0.69) }, baselineOf({ a: measure(0.7) })).failures).toStrictEqual([]);
    expect(compareWithBaseline({ a: measure(0.6899) }, baselineOf({ a: measure(0.7) })).failures).toStrictEqual([
      "a: MRR@10 dropped from 0.7000 (baseline) to 0.6899 (now), by 0.0101, more than 0.01",
    ]);
  });

  it("fails a corpus whose queries changed, and one missing from the baseline; notes a gain", () => {
    const { failures, notes } = compareWithBaseline({ a: measure(0.7, "ffffffffffffffff"), b: measure(0.5), c: measure(0.8) }, baselineOf({ a: measure(0.7), c: measure(0.7) }));
    expect(failures).toHaveLength(2);
    expect(failures[0]).toMatch(/^a: the corpus changed/);
    expect(failures[1]).toMatch(/^b: not in the baseline/);
    expect(notes).toStrictEqual(["c: MRR@10 rose from 0.7000 to 0.8000; --update-baseline keeps the gain"]);
  });
});

describe.skipIf(!installed)("the relevance gate on its Debian corpora", () => {
  let corpora: LanguageCorpus[] = [];
  let current: Record<string, GateMeasure> = {};
  beforeAll(async () => {
    const found = gateCorpora();
    if (typeof found === "string") throw new Error(found);
    corpora = found;
    current = await measureGate(corpora);
  });

  it("passes on the current ranking: no corpus below its committed baseline by more than 0.01", () => {
    expect(compareWithBaseline(current, readBaseline())).toMatchObject({ failures: [] });
  });

  it("fails on a planted ranking regression: each search's first two results swapped", async () => {
    const corpus = corpora.find((c) => c.name === "debian-reference-pt-br")!;
    const planted = await measureGate([corpus], (search) => async (query) => {
      const [first, second, ...rest] = await search(query);
      return first === undefined || second === undefined ? [first, second, ...rest].filter((id) => id !== undefined) : [second, first, ...rest];
    });
    const now = planted["debian-reference-pt-br"]!;
    const then = readBaseline().corpora["debian-reference-pt-br"]!;
    expect(now.mrr10).toBeLessThan(then.mrr10 - 0.01);
    expect(compareWithBaseline(planted, readBaseline()).failures).toStrictEqual([
      `debian-reference-pt-br: MRR@10 dropped from ${then.mrr10.toFixed(4)} (baseline) to ${now.mrr10.toFixed(4)} (now), by ${(then.mrr10 - now.mrr10).toFixed(4)}, more than 0.01`,
    ]);
  });

  it("fails on a baseline raised by 0.02, and the command exits 1 naming the corpus and both numbers", () => {
    const committed = readBaseline();
    const raised = { ...committed, corpora: { ...committed.corpora, "debian-reference-ja": { ...committed.corpora["debian-reference-ja"]!, mrr10: committed.corpora["debian-reference-ja"]!.mrr10 + 0.02 } } };
    expect(compareWithBaseline(current, raised).failures).toStrictEqual([expect.stringMatching(/^debian-reference-ja: MRR@10 dropped from /)]);
    const dir = mkdtempSync(join(tmpdir(), "mcp-search-gate-"));
    try {
      writeFileSync(join(dir, "baseline.json"), JSON.stringify(raised));
      const run = spawnSync(process.execPath, ["--import", "tsx", "bench/relevance-run.ts", "--gate", "--corpora", "debian-reference-ja", "--baseline", join(dir, "baseline.json")], { encoding: "utf8" });
      const then = raised.corpora["debian-reference-ja"].mrr10.toFixed(4);
      const now = current["debian-reference-ja"]!.mrr10.toFixed(4);
      expect({ status: run.status, stdout: run.stdout }).toMatchObject({
        status: 1,
        stdout: expect.stringContaining(`FAILED debian-reference-ja: MRR@10 dropped from ${then} (baseline) to ${now} (now)`),
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
