/**
 * `npm run bench:relevance`: the relevance bench in every language (bench/relevance-languages.ts),
 * or, with `--gate`, the CI's relevance gate against bench/relevance-baseline.json, and with
 * `--update-baseline`, that baseline measured and written again (bench/_relevance-gate.ts).
 *
 * Options: `--corpora a,b` (some corpora only), `--baseline FILE` (another baseline file).
 */
import { runGateCommand } from "./_relevance-gate.js";
import { runLanguageRelevance } from "./relevance-languages.js";

const args = process.argv.slice(2);
const value = (flag: string) => {
  const at = args.indexOf(flag);
  return at >= 0 ? args[at + 1] : undefined;
};
const names = value("--corpora")?.split(",");
const write = (text: string) => void process.stdout.write(text);
if (args.includes("--gate") || args.includes("--update-baseline")) {
  process.exitCode = await runGateCommand({ update: args.includes("--update-baseline"), baseline: value("--baseline"), names, write });
} else {
  await runLanguageRelevance(write, { ...(names === undefined ? {} : { names }), withVariants: process.env["RELEVANCE_VARIANTS"] === "1" });
}
