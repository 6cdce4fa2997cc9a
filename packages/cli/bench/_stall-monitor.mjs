/**
 * Loaded into the served bin by the scale bench (`node --import`), never by the product: it
 * measures the longest event-loop stall with `perf_hooks.monitorEventLoopDelay`, the delay past
 * due of a timer that should fire every 5 ms. Every 100 ms it writes the longest stall since the
 * last reset, in milliseconds, to the file named by MCP_SEARCH_STALL_FILE; SIGUSR2 resets it, so
 * the bench can read one phase (indexing, the work after it, edits) at a time.
 */
import { renameSync, writeFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { isMainThread } from "node:worker_threads";

const file = process.env.MCP_SEARCH_STALL_FILE;
// A worker thread (the formats worker) runs this too, since it inherits --import: only the main
// thread's loop answers requests, and two writers of one file would mix their numbers.
if (file !== undefined && isMainThread) {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  // Written aside, then renamed: the bench never reads half a file.
  const write = () => {
    writeFileSync(`${file}.tmp`, JSON.stringify({ maxMs: histogram.max / 1e6 }));
    renameSync(`${file}.tmp`, file);
  };
  setInterval(write, 100).unref();
  process.on("SIGUSR2", () => {
    histogram.reset();
    write();
  });
}
