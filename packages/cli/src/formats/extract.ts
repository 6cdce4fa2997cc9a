/**
 * Reading a binary document off the event loop: in the formats worker thread (./worker.ts), one
 * document at a time, under a time limit that stops the worker when a reader never ends. Run from
 * source (tests), where no built worker sits beside this module, the documents are read in the
 * calling thread instead (./registry.ts). Imported on the first binary document only.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { readInThisThread, type BinaryFormat } from "./registry.js";
import { FormatError, type FormatLimits, type FormatOutput, type UnreadableReason } from "./types.js";

/**
 * One document for the worker: its format, its bytes (handed over, not copied) and the limits.
 *
 * @example
 * const request: ExtractRequest = { id: 1, format: "pdf", bytes, limits, timeLimitMs: 30_000 };
 */
export interface ExtractRequest {
  readonly id: number;
  readonly format: BinaryFormat;
  readonly bytes: Uint8Array;
  readonly limits: FormatLimits;
  readonly timeLimitMs: number;
}

/**
 * The worker's answer: what the format read, or why it read nothing.
 *
 * @example
 * const result: ExtractResult = { ok: false, reason: "encrypted", detail: "needs a password" };
 */
export type ExtractResult =
  | { readonly ok: true; readonly output: FormatOutput }
  | { readonly ok: false; readonly reason: UnreadableReason; readonly detail: string | undefined };

/** The worker file beside this module once built; absent when run from source. */
const WORKER_FILE = new URL("./formats-worker.js", import.meta.url);
/** How long past its time limit a document may take before its worker is stopped (ms). */
const GRACE_MS = 1000;
/**
 * The formats worker's heap: its old generation at most 1 GiB, its young one 64 MiB. A reader
 * past it stops the worker (`reader-failed`), not the server: without it a 2.2 MB DOCX took the
 * process to 3.9 GB. The bash(1) PDF, at 522 pages, takes 40 to 120 MB (docs/performance.md).
 */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 1024, maxYoungGenerationSizeMb: 64 } as const;

/** The running worker, and the requests sent to it that wait for an answer: only its own. */
let worker: { readonly thread: Worker; readonly waiting: Map<number, (result: ExtractResult) => void> } | undefined;
let nextId = 0;
/** One document at a time: the time limit counts one file's work only. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * Reads a binary document, in the formats worker when the bin is built. Throws `FormatError`
 * when it gives no text (./types.ts): `timeout` past `timeLimitMs` (the worker is then stopped,
 * and the next document starts a new one), `reader-failed` when the worker stops for another
 * reason (a crash, its memory limit) before it answers.
 *
 * @example
 * const read = await readBinary("pdf", bytes, { maxTextChars: 1048576, maxUnzippedBytes: 67108864 }, 30_000);
 * read.pages?.length; // => 4
 */
export async function readBinary(format: BinaryFormat, bytes: Uint8Array, limits: FormatLimits, timeLimitMs: number): Promise<FormatOutput> {
  const turn = queue.then(async () => {
    const reader = startWorker();
    if (reader === undefined) return readInThisThread(format, bytes, limits, timeLimitMs);
    const read = await readInWorker(reader, { format, bytes, limits, timeLimitMs });
    if (!read.ok) throw new FormatError(read.reason, read.detail);
    return read.output;
  });
  queue = turn.catch(() => undefined);
  return turn;
}

function startWorker(): NonNullable<typeof worker> | undefined {
  if (worker !== undefined) return worker;
  if (WORKER_FILE.protocol !== "file:" || !existsSync(fileURLToPath(WORKER_FILE))) return undefined;
  const started = { thread: new Worker(WORKER_FILE, { resourceLimits: WORKER_LIMITS }), waiting: new Map<number, (result: ExtractResult) => void>() };
  started.thread.on("message", ({ id, result }: { id: number; result: ExtractResult }) => {
    started.waiting.get(id)?.(result);
    started.waiting.delete(id);
  });
  // A worker that stops fails the requests it was given, and only those: a stopped worker's
  // exit comes after its replacement has taken the next document.
  const fail = (detail: string) => {
    if (worker === started) worker = undefined;
    for (const [id, settle] of started.waiting) {
      settle({ ok: false, reason: "reader-failed", detail });
      started.waiting.delete(id);
    }
  };
  started.thread.on("error", (error) => fail(error.message));
  started.thread.on("exit", (code) => fail(`its worker thread exited with code ${code}`));
  // Held only while a document is being read (readInWorker): an idle reader never keeps the process alive.
  started.thread.unref();
  worker = started;
  return started;
}

/** Reads one document in the worker; past the time limit and its grace, the worker is stopped. */
function readInWorker(reader: NonNullable<typeof worker>, request: Omit<ExtractRequest, "id">): Promise<ExtractResult> {
  const id = nextId++;
  const { thread, waiting } = reader;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      // A reader that never ends its work is stopped the only way it can be: with its thread.
      if (worker === reader) worker = undefined;
      void thread.terminate();
      resolve({ ok: false, reason: "timeout", detail: `over ${request.timeLimitMs} ms` });
    }, request.timeLimitMs + GRACE_MS);
    timer.unref();
    thread.ref();
    waiting.set(id, (result) => {
      clearTimeout(timer);
      if (waiting.size <= 1) thread.unref();
      resolve(result);
    });
    // A copy with its own memory, handed over: a Buffer's slice would share (and hand over) the
    // memory of Node's buffer pool.
    const bytes = new Uint8Array(request.bytes);
    thread.postMessage({ ...request, id, bytes } satisfies ExtractRequest, [bytes.buffer]);
  });
}
