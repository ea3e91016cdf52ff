import { describe, expect, it } from 'vitest';

import { readFlatStringBson } from './flat-bson.reader.js';

/** A BSON document of string elements, written after the BSON 1.1 specification. */
function bson(entries: [string, string][], type = 0x02): Buffer {
  const elements = entries.map(([key, value]) => {
    const text = Buffer.from(value, 'utf8');
    const length = Buffer.alloc(4);
    length.writeInt32LE(text.length + 1);
    return Buffer.concat([Buffer.from([type]), Buffer.from(key, 'utf8'), Buffer.from([0]), length, text, Buffer.from([0])]);
  });
  const body = Buffer.concat([...elements, Buffer.from([0])]);
  const size = Buffer.alloc(4);
  size.writeInt32LE(body.length + 4);
  return Buffer.concat([size, body]);
}

describe('readFlatStringBson', () => {
  it('reads string elements, UTF-8 included', () => {
    const map = readFlatStringBson(
      bson([
        ['138', '中国移动'],
        ['10', '北京市'],
      ]),
    );
    expect([...map]).toEqual([
      ['138', '中国移动'],
      ['10', '北京市'],
    ]);
  });

  it('reads an empty document', () => {
    expect(readFlatStringBson(bson([])).size).toBe(0);
  });

  it('refuses other element types, a wrong size and a truncated file', () => {
    expect(() => readFlatStringBson(bson([['1', 'x']], 0x10))).toThrow(/element type/);
    const good = bson([['138', '中国移动']]);
    expect(() => readFlatStringBson(good.subarray(0, good.length - 3))).toThrow(/document size/);
    const lying = Buffer.from(good);
    lying.writeInt32LE(200, 4 + 1 + 4); // the string length of the first element
    expect(() => readFlatStringBson(lying)).toThrow(/string length/);
  });
});
