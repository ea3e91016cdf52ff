import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@ipdata/common';
import { writeJobInput } from './input-intake.js';

const LIMITS = { maxLines: 5, maxLineBytes: 64, maxInputBytes: 10_000 };

/** The directory's files once an open still on libuv's thread pool would have finished (it creates its file late). */
async function filesLeftIn(dir: string): Promise<string[]> {
  await sleep(100);
  return (await readdir(dir)).sort();
}

describe('writeJobInput', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bulk-intake-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('writes one value per data line and counts them', async () => {
    const path = join(dir, 'input');
    const result = await writeJobInput(Readable.from(['ip,x\r\n1.2.3.4,a\r\n', '\r\n"8.8.8.8",b\r\nbad']), path, 'auto', LIMITS);
    expect(result).toEqual({ lines: 3, bytes: 20, format: 'csv' });
    expect(await readFile(path, 'utf8')).toBe('1.2.3.4\n8.8.8.8\nbad\n');
  });

  it('accepts exactly maxLines and refuses one more with too_many_lines, without destroying the input or leaving a file', async () => {
    const ok = await writeJobInput(Readable.from(['1\n2\n3\n4\n5\n']), join(dir, 'a'), 'lines', LIMITS);
    expect(ok.lines).toBe(5);
    const input = Readable.from(['1\n2\n3\n4\n5\n6\n', '7\n']);
    const refusal = await writeJobInput(input, join(dir, 'b'), 'lines', LIMITS).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(InvalidArgumentError);
    expect(refusal).toMatchObject({ reason: 'too_many_lines', details: { maxLines: '5' } });
    expect(input.destroyed).toBe(false);
    expect(await filesLeftIn(dir)).toEqual(['a']);
  });

  it('refuses empty input (also only blank lines or only a header)', async () => {
    for (const body of ['', '\n\n  \n', 'ip\n']) {
      await expect(writeJobInput(Readable.from([body]), join(dir, 'e'), 'auto', LIMITS)).rejects.toMatchObject({
        reason: 'empty_input',
      });
    }
  });

  it('refuses a too long line and a too large upload', async () => {
    await expect(writeJobInput(Readable.from(['x'.repeat(65) + '\n']), join(dir, 'l'), 'auto', LIMITS)).rejects.toMatchObject({
      reason: 'line_too_long',
    });
    const big = Readable.from(Array.from({ length: 20 }, () => '\n'.repeat(1000)));
    await expect(writeJobInput(big, join(dir, 's'), 'auto', LIMITS)).rejects.toMatchObject({ reason: 'input_too_large' });
    expect(await filesLeftIn(dir)).toEqual([]);
  });
});
