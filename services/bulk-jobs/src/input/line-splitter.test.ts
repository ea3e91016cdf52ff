import { describe, expect, it } from 'vitest';
import { LineTooLongError, splitLines } from './line-splitter.js';

async function collect(pieces: (string | Buffer)[], max = 100): Promise<string[]> {
  const lines: string[] = [];
  for await (const batch of splitLines(
    (async function* () {
      yield* pieces;
    })(),
    max,
  )) {
    lines.push(...batch);
  }
  return lines;
}

describe('splitLines', () => {
  it('splits LF and CRLF, across buffer boundaries, keeping a last line without terminator', async () => {
    expect(await collect(['a\r\nb', 'c\n\nd', '\r', '\ne'])).toEqual(['a', 'bc', '', 'd', 'e']);
  });

  it('decodes a multi-byte character split between buffers', async () => {
    const bytes = Buffer.from('北京\n上海');
    expect(await collect([bytes.subarray(0, 4), bytes.subarray(4)])).toEqual(['北京', '上海']);
  });

  it('refuses a line longer than the limit, also when it never ends', async () => {
    await expect(collect(['x'.repeat(11) + '\n'], 10)).rejects.toBeInstanceOf(LineTooLongError);
    await expect(collect(['x'.repeat(6), 'x'.repeat(6)], 10)).rejects.toBeInstanceOf(LineTooLongError);
    await expect(collect(['x'.repeat(6), 'x'.repeat(6) + '\n'], 10)).rejects.toBeInstanceOf(LineTooLongError);
    expect(await collect(['x'.repeat(10) + '\r\n'], 10)).toEqual(['x'.repeat(10)]);
  });
});
