/**
 * Handing back the memory an indexing freed. An indexing allocates several times what the index
 * keeps (file texts, token lists, postings merged away), and V8 collects that garbage only when
 * the program allocates again: a server that goes idle after indexing would keep it, and the
 * young generation V8 grew for it, for good. On the 20,000-file bench folder that is about 100 MB
 * of resident memory (docs/performance.md).
 *
 * Node has no stable call that collects garbage and shrinks the heap. `v8.queryObjects` (Node
 * 20.13 and later) runs exactly that collection before it counts objects, so the server calls it
 * once after an indexing, counting the instances of a class that has none. It is an experimental
 * API: its one-time warning is kept off stderr, and on a Node without it nothing happens.
 */
import * as v8 from "node:v8";

/** A class with no instances: what {@link releaseMemory} asks V8 to count. */
class NothingToCount {}

type QueryObjects = (constructor: new () => unknown, options: { format: "count" }) => number;

/**
 * Runs a full, memory-reducing garbage collection, so that the memory freed by an indexing goes
 * back to the system (tens to hundreds of milliseconds on a large index). Does nothing on a Node
 * without `v8.queryObjects`.
 *
 * @example
 * releaseMemory(); // after the first indexing
 */
export function releaseMemory(): void {
  const queryObjects = (v8 as { queryObjects?: QueryObjects }).queryObjects;
  if (typeof queryObjects !== "function") return;
  const emitWarning = process.emitWarning;
  // Its "ExperimentalWarning" would be a line of the server's log with nothing to act on.
  process.emitWarning = () => undefined;
  try {
    queryObjects(NothingToCount, { format: "count" });
  } finally {
    process.emitWarning = emitWarning;
  }
}
