/**
 * The PDF worker thread: reads one PDF per message with ./pdf-extract.ts and answers with its
 * pages. The folder server runs PDF.js here because, in the calling thread, it holds the event
 * loop for the whole document (4.5 s for the 87 pages of bash(1), measured in
 * bench/formats.bench.ts), and searches would wait that long.
 */
import { parentPort } from "node:worker_threads";
import { extractPdfPages } from "./pdf-extract.js";

parentPort?.on("message", (message: { id: number; bytes: Uint8Array; deadline: number }) => {
  // The deadline crosses threads as a duration: performance.now() differs between them.
  void extractPdfPages(message.bytes, performance.now() + message.deadline).then((result) => parentPort?.postMessage({ id: message.id, result }));
});
