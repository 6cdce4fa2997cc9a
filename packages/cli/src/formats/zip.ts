/**
 * Reads the entries of a zip (DOCX, ODT, EPUB) through fflate's streaming reader, within a cap
 * on the bytes they expand to. The cap counts the bytes really inflated, chunk by chunk, not the
 * sizes the archive declares: a zip bomb that lies about them stops as soon as it passes the cap,
 * having used no more memory than the cap.
 */
import { Unzip, UnzipInflate } from "fflate";
import { FormatError } from "./types.js";

/**
 * Inflates the entries of a zip whose names pass `keep`, all of them together within
 * `maxBytes`: `FormatError("zip-bomb")` past it, `FormatError("corrupt")` when the archive is
 * damaged or holds none of them.
 *
 * @example
 * const files = unzipWithin(bytes, 64 * 1024 * 1024, (name) => name.endsWith(".xml"));
 * new TextDecoder().decode(files.get("content.xml")); // => "<?xml …"
 */
export function unzipWithin(bytes: Uint8Array, maxBytes: number, keep: (name: string) => boolean): Map<string, Uint8Array> {
  const chunks = new Map<string, Uint8Array[]>();
  let total = 0;
  let failure: FormatError | undefined;
  let declared = 0;
  const unzip = new Unzip((file) => {
    if (!keep(file.name) || failure !== undefined) return;
    // A size the archive declares past the cap is refused before any inflating; a size it hides
    // or understates is caught by the count below.
    declared += file.originalSize ?? 0;
    if (declared > maxBytes) {
      failure = new FormatError("zip-bomb", `it declares more than ${maxBytes} bytes`);
      return;
    }
    const parts: Uint8Array[] = [];
    chunks.set(file.name, parts);
    file.ondata = (error, chunk, final) => {
      if (failure !== undefined) return;
      if (error !== null) {
        failure = new FormatError("corrupt", `${file.name}: ${error.message}`);
        return;
      }
      total += chunk.length;
      if (total > maxBytes) {
        failure = new FormatError("zip-bomb", `more than ${maxBytes} bytes`);
        file.terminate();
        return;
      }
      parts.push(chunk);
      void final;
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    // Fed in slices, so a bomb is stopped after one slice's worth of output, not the whole file's.
    for (let at = 0; at < bytes.length && failure === undefined; at += 65_536) {
      unzip.push(bytes.subarray(at, Math.min(bytes.length, at + 65_536)), at + 65_536 >= bytes.length);
    }
  } catch (error) {
    throw failure ?? new FormatError("corrupt", error instanceof Error ? error.message : String(error));
  }
  if (failure !== undefined) throw failure;
  if (chunks.size === 0) throw new FormatError("corrupt", "not a zip archive of this format");
  const out = new Map<string, Uint8Array>();
  for (const [name, parts] of chunks) out.set(name, concat(parts));
  return out;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const size = parts.reduce((sum, part) => sum + part.length, 0);
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const utf8 = new TextDecoder("utf-8");

/**
 * An entry of {@link unzipWithin}'s result as text, or `FormatError("corrupt")` when it is absent.
 *
 * @example
 * entryText(files, "content.xml"); // => "<?xml …"
 */
export function entryText(files: ReadonlyMap<string, Uint8Array>, name: string): string {
  const entry = files.get(name);
  if (entry === undefined) throw new FormatError("corrupt", `no ${name} inside`);
  return utf8.decode(entry);
}
