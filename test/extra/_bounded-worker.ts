/**
 * Runs a script in a worker thread with a time bound, for the pathological-input tests of the
 * extra tier: a case that is not linear is still running at the bound, and is stopped there.
 * Not a test file itself.
 */
import { Worker } from "node:worker_threads";

/**
 * The first message of `code` (a CommonJS script run as a worker, which posts one message); a
 * rejection naming `late` when none came within `boundMs` (the worker is then stopped), or with
 * the worker's error.
 *
 * @example
 * const out = await runBoundedWorker<{ n: number }>('require("node:worker_threads").parentPort.postMessage({ n: 1 })', 1000, "still running");
 * out.n; // => 1
 */
export function runBoundedWorker<T>(code: string, boundMs: number, late: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error(late));
    }, boundMs);
    worker.once("message", (message: T) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(message);
    });
    worker.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
