import { NONE } from '../format/index.js';
import { compareAt, incrementAt, type WordsPerAddress } from './address.js';

/**
 * A complete partition of an address space, the shape every source is turned into before the
 * merge: range i covers starts[i] .. starts[i + 1] - 1 (the last one runs to the top of the
 * space) and carries values[i], a source-specific value id or NONE where the source has nothing.
 */
export interface Partition {
  words: WordsPerAddress;
  starts: Uint32Array;
  values: Uint32Array;
}

/** A Uint32Array that grows by doubling; `view()` is a copy of exactly the used part. */
export class GrowableU32 {
  private data: Uint32Array;
  length = 0;

  constructor(capacity = 1024) {
    this.data = new Uint32Array(capacity);
  }

  push(value: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = value;
  }

  pushFrom(source: Uint32Array, at: number, count: number): void {
    while (this.length + count > this.data.length) this.grow();
    for (let i = 0; i < count; i++) this.data[this.length++] = source[at + i] as number;
  }

  get(index: number): number {
    return this.data[index] as number;
  }

  set(index: number, value: number): void {
    this.data[index] = value;
  }

  truncate(length: number): void {
    this.length = length;
  }

  view(): Uint32Array {
    return this.data.slice(0, this.length);
  }

  private grow(): void {
    const next = new Uint32Array(this.data.length * 2);
    next.set(this.data);
    this.data = next;
  }
}

/**
 * Builds a Partition from ranges given in ascending, non-overlapping order. Gaps become NONE
 * ranges and a range whose value equals its neighbour's is folded into it, so the result is
 * the smallest partition with the same answers.
 */
export class PartitionBuilder {
  private readonly starts = new GrowableU32();
  private readonly values = new GrowableU32();
  /** First address not covered yet. */
  private readonly next: Uint32Array;
  private full = false;

  constructor(readonly words: WordsPerAddress) {
    this.next = new Uint32Array(words);
  }

  /** Adds first..last (inclusive). Throws if the range starts before the end of the previous one. */
  add(first: Uint32Array, firstAt: number, last: Uint32Array, lastAt: number, value: number): void {
    const words = this.words;
    if (this.full || compareAt(first, firstAt, this.next, 0, words) < 0) {
      throw new RangeError('ranges overlap or are not in ascending order');
    }
    if (compareAt(first, firstAt, this.next, 0, words) > 0) this.open(this.next, 0, NONE);
    this.open(first, firstAt, value);
    for (let w = 0; w < words; w++) this.next[w] = last[lastAt + w] as number;
    this.full = incrementAt(this.next, 0, words);
  }

  /** True once a range reached the top of the address space. */
  get complete(): boolean {
    return this.full;
  }

  finish(): Partition {
    if (!this.full) this.open(this.next, 0, NONE);
    return { words: this.words, starts: this.starts.view(), values: this.values.view() };
  }

  private open(start: Uint32Array, at: number, value: number): void {
    const count = this.values.length;
    if (count > 0 && this.values.get(count - 1) === value) return;
    this.starts.pushFrom(start, at, this.words);
    this.values.push(value);
  }
}
