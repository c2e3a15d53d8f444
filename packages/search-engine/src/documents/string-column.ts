/**
 * Many short strings stored as one long string plus offsets: a few bytes of overhead per string
 * instead of a heap object each, and a snapshot section that loads with one decode.
 */
export class StringColumn {
  constructor(
    readonly text: string,
    /** length + 1 offsets in UTF-16 code units; string i is text[offsets[i], offsets[i + 1]). */
    readonly offsets: Uint32Array,
  ) {}

  static from(values: readonly string[]): StringColumn {
    const offsets = new Uint32Array(values.length + 1);
    let at = 0;
    for (let i = 0; i < values.length; i++) {
      offsets[i] = at;
      at += values[i]!.length;
    }
    offsets[values.length] = at;
    // join('') of many parts can exceed the engine's string limit only far beyond 500k products.
    return new StringColumn(values.join(''), offsets);
  }

  get size(): number {
    return this.offsets.length - 1;
  }

  get(i: number): string {
    return this.text.slice(this.offsets[i]!, this.offsets[i + 1]!);
  }

  lengthOf(i: number): number {
    return this.offsets[i + 1]! - this.offsets[i]!;
  }

  /** Code-unit comparison of string i with s (the order of Array.prototype.sort on strings). */
  compare(i: number, s: string): number {
    const a = this.offsets[i]!;
    const len = this.offsets[i + 1]! - a;
    const n = Math.min(len, s.length);
    const text = this.text;
    for (let k = 0; k < n; k++) {
      const d = text.charCodeAt(a + k) - s.charCodeAt(k);
      if (d !== 0) return d;
    }
    return len - s.length;
  }

  equals(i: number, s: string): boolean {
    const a = this.offsets[i]!;
    if (this.offsets[i + 1]! - a !== s.length) return false;
    const text = this.text;
    for (let k = 0; k < s.length; k++) if (text.charCodeAt(a + k) !== s.charCodeAt(k)) return false;
    return true;
  }

  /** Does string i start with the first `len` characters of s? */
  hasPrefix(i: number, s: string, len = s.length): boolean {
    const a = this.offsets[i]!;
    if (this.offsets[i + 1]! - a < len) return false;
    const text = this.text;
    for (let k = 0; k < len; k++) if (text.charCodeAt(a + k) !== s.charCodeAt(k)) return false;
    return true;
  }
}

/** A growable typed array used while building. */
export class GrowableU32 {
  data: Uint32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Uint32Array(capacity);
  }
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Uint32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  toArray(): Uint32Array {
    return this.data.slice(0, this.length);
  }
}

export class GrowableU8 {
  data: Uint8Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Uint8Array(capacity);
  }
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Uint8Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
}
