/**
 * The formats worker thread: reads one binary document per message with ./registry.ts and
 * answers with what it read, or why it read nothing. The folder server reads PDF, DOCX, ODT and
 * EPUB here because, in the calling thread, a reader holds the event loop for the whole document
 * (4.5 s for the 87 pages of bash(1) as PDF, about a second for it as DOCX, measured in
 * bench/formats.bench.ts), and searches would wait that long.
 */
import { parentPort } from "node:worker_threads";
import type { ExtractRequest, ExtractResult } from "./extract.js";
import { readInThisThread } from "./registry.js";
import { FormatError } from "./types.js";

parentPort?.on("message", ({ id, format, bytes, limits, timeLimitMs }: ExtractRequest) => {
  const answer = (result: ExtractResult) => parentPort?.postMessage({ id, result });
  readInThisThread(format, bytes, limits, timeLimitMs).then(
    (output) => answer({ ok: true, output }),
    (error: unknown) => {
      const failure = error instanceof FormatError ? error : new FormatError("corrupt", error instanceof Error ? error.message : String(error));
      answer({ ok: false, reason: failure.reason, detail: failure.detail });
    },
  );
});
