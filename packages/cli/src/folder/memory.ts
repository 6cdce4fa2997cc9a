/**
 * Handing back the memory an indexing freed. An indexing allocates several times what the index
 * keeps (file texts, token lists, postings merged away), and V8 collects that garbage only when
 * the program allocates again: a server that goes idle after indexing would keep it, and the
 * young generation V8 grew for it, for good. On the 20,000-file bench folder that is about 100 MB
 * of resident memory (docs/performance.md).
 *
 * Node has no stable call that collects garbage. V8's own `gc` function is one flag away: the
 * server sets `--expose-gc` at run time and takes `gc` from a fresh context (the main context
 * gets no global `gc`), then runs one full collection after an indexing. It used to call
 * `v8.queryObjects`, which runs a memory-reducing collection before it counts objects, but that
 * held the thread for 1.0 to 2.8 s on the 20,000-file folder, where one full collection takes
 * 40 to 90 ms and hands back as much (measured in the scale bench's process: 253 MB before, 173 to
 * 187 MB a few seconds after, either way). On a Node where the flag cannot be set, nothing happens.
 */
import * as v8 from "node:v8";
import * as vm from "node:vm";

/** V8's `gc`, taken once; `null` when it cannot be had. */
let collect: (() => void) | null | undefined;

function collector(): (() => void) | null {
  if (collect !== undefined) return collect;
  try {
    v8.setFlagsFromString("--expose-gc");
    const gc: unknown = vm.runInNewContext("typeof gc === 'function' ? gc : undefined");
    collect = typeof gc === "function" ? (gc as () => void) : null;
  } catch {
    collect = null;
  }
  return collect;
}

/**
 * Runs one full garbage collection, so that the memory freed by an indexing goes back to the
 * system (tens of milliseconds on a large index: the index itself lives in typed arrays, outside
 * the collected heap). Does nothing on a Node where V8's `gc` cannot be had.
 *
 * @example
 * releaseMemory(); // after the first indexing
 */
export function releaseMemory(): void {
  // A plain full collection: V8's "last-resort" flavour handed back less in a measure (14 MB of
  // 48 MB of dead buffers, against all of them).
  collector()?.();
}
