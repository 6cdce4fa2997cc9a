/**
 * The stdio transport's read side, guarded. The SDK's `StdioServerTransport` keeps one read
 * buffer of at most 10 MiB (`STDIO_DEFAULT_MAX_BUFFER_SIZE`); a line over it makes the transport
 * close, and the server exits with status 0 leaving that request and the next unanswered. Here a
 * stream sits between stdin and the transport and hands it one line at a time: a line over the
 * limit is dropped as it streams in (never held whole) and answered with one JSON-RPC error, and
 * the server keeps serving. Lines the SDK would drop without a reply (a JSON-RPC batch among
 * them), or answer with a validation dump, are answered here too (./message-check.ts).
 */
import { Transform, type TransformCallback } from "node:stream";
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from "@modelcontextprotocol/server";
import { checkMessage, INVALID_REQUEST, PARSE_ERROR, type MessageRefusal } from "./message-check.js";

/**
 * The longest line read from stdin, in bytes, without its newline: the SDK's read buffer.
 *
 * @example
 * MAX_LINE_BYTES; // => 10485760 (10 MiB)
 */
export const MAX_LINE_BYTES: number = STDIO_DEFAULT_MAX_BUFFER_SIZE;

const NEWLINE = 0x0a;

/**
 * A stream of stdin's lines, each at most `maxLineBytes`, each pushed as its own chunk ending in
 * "\n". Refused lines are not pushed: `refuse` answers them.
 *
 * @example
 * process.stdin.pipe(createLineGuard((refusal) => void transport.send(errorOf(refusal)), log));
 */
export function createLineGuard(
  refuse: (refusal: MessageRefusal) => void,
  log: (line: string) => void,
  maxLineBytes: number = MAX_LINE_BYTES,
): Transform {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let discarding = false;

  function endLine(stream: Transform, tail: Buffer): void {
    if (discarding) {
      discarding = false;
      log(`refused a stdin line over ${maxLineBytes} bytes`);
      refuse({ id: null, code: INVALID_REQUEST, message: `Invalid Request: a line is at most ${maxLineBytes} bytes; this one was longer and was dropped.` });
      return;
    }
    const line = pending.length === 0 ? tail : Buffer.concat([...pending, tail]);
    pending = [];
    pendingBytes = 0;
    const text = line.toString("utf8").replace(/\r$/, "");
    if (text.trim() === "") return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      log("refused a stdin line that is not JSON");
      refuse({ id: null, code: PARSE_ERROR, message: "Parse error: the line is not JSON." });
      return;
    }
    // The SDK's stdio transport drops a JSON-RPC batch without a word (MCP has had no batches
    // since the 2025-06-18 revision): answer it with one error instead.
    const refusal: MessageRefusal | undefined = Array.isArray(message)
      ? { id: null, code: INVALID_REQUEST, message: "Invalid Request: a JSON-RPC batch is not accepted over stdio; send one message a line." }
      : checkMessage(message);
    if (refusal !== undefined) {
      refuse(refusal);
      return;
    }
    stream.push(Buffer.concat([line, Buffer.from("\n")]));
  }

  return new Transform({
    transform(this: Transform, chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      let start = 0;
      for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, start)) {
        const piece = chunk.subarray(start, at);
        if (!discarding && pendingBytes + piece.length > maxLineBytes) startDiscarding();
        endLine(this, discarding ? Buffer.alloc(0) : piece);
        start = at + 1;
      }
      const rest = chunk.subarray(start);
      if (!discarding && rest.length > 0) {
        if (pendingBytes + rest.length > maxLineBytes) startDiscarding();
        else {
          pending.push(rest);
          pendingBytes += rest.length;
        }
      }
      done();
    },
  });

  function startDiscarding(): void {
    discarding = true;
    pending = [];
    pendingBytes = 0;
  }
}
