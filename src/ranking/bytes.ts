/**
 * Private helper of the index snapshot (./snapshot.ts): a growing byte buffer to write, and a
 * bounds-checked cursor to read, in a fixed little-endian layout whatever the machine. Every read
 * past the end, or of a value out of range, throws an `Error` saying so; the snapshot turns it
 * into the one `McpSearchError` its caller sees.
 *
 * Layouts: a varint is little-endian base 128 (at most 2^53); a typed array is its length as a
 * varint, then its values; a string list is its count, each string's length in UTF-16 code units
 * (varints), then one blob, UTF-8 when that round-trips (a lone surrogate does not), else UTF-16.
 */

const encoder = new TextEncoder();
/** True on a little-endian machine (nearly all): typed arrays are then copied, not read value by value. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const decoder = new TextDecoder("utf-8", { fatal: true });

/** Appends values to a buffer that doubles as it fills. */
export class ByteWriter {
  private bytes = new Uint8Array(1 << 16);
  private view = new DataView(this.bytes.buffer);
  length = 0;

  private room(needed: number): void {
    if (this.length + needed <= this.bytes.length) return;
    const next = new Uint8Array(Math.max(this.length + needed, this.bytes.length * 2));
    next.set(this.bytes.subarray(0, this.length));
    this.bytes = next;
    this.view = new DataView(next.buffer);
  }

  u8(value: number): void {
    this.room(1);
    this.bytes[this.length++] = value;
  }

  u32(value: number): void {
    this.room(4);
    this.view.setUint32(this.length, value, true);
    this.length += 4;
  }

  varint(value: number): void {
    this.room(8);
    while (value >= 128) {
      this.bytes[this.length++] = (value % 128) | 128;
      value = Math.floor(value / 128);
    }
    this.bytes[this.length++] = value;
  }

  raw(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** A length, then the bytes. */
  byteArray(bytes: Uint8Array): void {
    this.varint(bytes.length);
    this.raw(bytes);
  }

  int32Array(values: Int32Array | Uint32Array, length = values.length): void {
    this.varint(length);
    this.room(length * 4);
    const signed = values instanceof Int32Array;
    for (let i = 0; i < length; i++) {
      if (signed) this.view.setInt32(this.length, values[i]!, true);
      else this.view.setUint32(this.length, values[i]!, true);
      this.length += 4;
    }
  }

  float64Array(values: Float64Array, length = values.length): void {
    this.varint(length);
    this.room(length * 8);
    for (let i = 0; i < length; i++) {
      this.view.setFloat64(this.length, values[i]!, true);
      this.length += 8;
    }
  }

  strings(list: readonly string[]): void {
    this.varint(list.length);
    for (const text of list) this.varint(text.length);
    const blob = list.join("");
    const utf8 = encoder.encode(blob);
    let roundTrips = true;
    try {
      roundTrips = decoder.decode(utf8) === blob;
    } catch {
      roundTrips = false;
    }
    if (roundTrips) {
      this.u8(0);
      this.byteArray(utf8);
      return;
    }
    this.u8(1);
    this.varint(blob.length);
    this.room(blob.length * 2);
    for (let i = 0; i < blob.length; i++) {
      this.view.setUint16(this.length, blob.charCodeAt(i), true);
      this.length += 2;
    }
  }

  /** The bytes written so far (a view, not a copy). */
  result(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}

/** Reads what {@link ByteWriter} wrote, checking every bound. */
export class ByteReader {
  private readonly view: DataView;
  at: number;

  constructor(private readonly bytes: Uint8Array, from = 0, private readonly end = bytes.length) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.at = from;
  }

  private take(count: number): number {
    if (!(count >= 0) || this.at + count > this.end) throw new Error("it is cut short");
    const at = this.at;
    this.at += count;
    return at;
  }

  u8(): number {
    return this.bytes[this.take(1)] as number;
  }

  u32(): number {
    return this.view.getUint32(this.take(4), true);
  }

  varint(): number {
    let value = 0;
    for (let scale = 1; ; scale *= 128) {
      if (scale > 2 ** 49) throw new Error("it holds a number out of range");
      const byte = this.u8();
      value += (byte & 127) * scale;
      if (byte < 128) return value;
    }
  }

  /** A count of things, each of at least `unit` bytes still to come: checked before any allocation. */
  count(unit: number): number {
    const count = this.varint();
    if (count * unit > this.end - this.at) throw new Error("it is cut short");
    return count;
  }

  byteArray(): Uint8Array {
    const length = this.count(1);
    const at = this.take(length);
    return this.bytes.slice(at, at + length);
  }

  int32Array(): Int32Array {
    const length = this.count(4);
    if (LITTLE_ENDIAN) return new Int32Array(this.copy(length * 4));
    const values = new Int32Array(length);
    for (let i = 0; i < length; i++) values[i] = this.view.getInt32(this.take(4), true);
    return values;
  }

  uint32Array(): Uint32Array {
    const length = this.count(4);
    if (LITTLE_ENDIAN) return new Uint32Array(this.copy(length * 4));
    const values = new Uint32Array(length);
    for (let i = 0; i < length; i++) values[i] = this.view.getUint32(this.take(4), true);
    return values;
  }

  /** The next `length` bytes, copied into a buffer of their own (aligned for any typed array). */
  private copy(length: number): ArrayBuffer {
    const at = this.take(length);
    return this.bytes.slice(at, at + length).buffer;
  }

  float64Array(): Float64Array {
    const length = this.count(8);
    const values = new Float64Array(length);
    for (let i = 0; i < length; i++) values[i] = this.view.getFloat64(this.take(8), true);
    return values;
  }

  strings(): string[] {
    const count = this.count(1);
    const lengths: number[] = [];
    let total = 0;
    for (let i = 0; i < count; i++) {
      const length = this.varint();
      lengths.push(length);
      total += length;
    }
    const kind = this.u8();
    let blob: string;
    if (kind === 0) {
      const length = this.count(1);
      const at = this.take(length);
      try {
        blob = decoder.decode(this.bytes.subarray(at, at + length));
      } catch {
        throw new Error("a string is not valid UTF-8");
      }
    } else if (kind === 1) {
      const length = this.count(2);
      const units: string[] = [];
      for (let i = 0; i < length; i += 4096) {
        const chunk: number[] = [];
        for (let j = i; j < Math.min(length, i + 4096); j++) chunk.push(this.view.getUint16(this.take(2), true));
        units.push(String.fromCharCode(...chunk));
      }
      blob = units.join("");
    } else throw new Error("a string list has an unknown encoding");
    if (blob.length !== total) throw new Error("a string list does not match its lengths");
    const list: string[] = [];
    let at = 0;
    for (const length of lengths) {
      list.push(blob.slice(at, at + length));
      at += length;
    }
    return list;
  }

  /** True when every byte was read. */
  get done(): boolean {
    return this.at === this.end;
  }
}
