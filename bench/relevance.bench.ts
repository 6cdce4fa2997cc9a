/**
 * Puts the relevance benchmark (bench/relevance.ts) in `npm run bench`: it installs the Debian
 * corpora when missing, runs every engine and prints one table per corpus. The timed bench below
 * is a single search of the folder server's ranking, so vitest lists it; the table is the result.
 */
import { bench, describe } from "vitest";
import { createIndex } from "../src/index.js";
import { runRelevance } from "./relevance.js";

let printed = false;

describe("relevance", () => {
  const index = createIndex([{ id: "a", title: "Zip files", url: "https://example.org/a", text: "Read a zip file." }], { ranking: "bm25" });
  bench("known-item tables (printed above)", () => {
    index.search("zip file");
  }, {
    time: 0,
    iterations: 1,
    warmupIterations: 0,
    setup: async () => {
      if (printed) return;
      printed = true;
      await runRelevance((text) => process.stdout.write(text));
    },
  });
});
