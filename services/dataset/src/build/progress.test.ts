import { describe, expect, it } from 'vitest';
import { consoleReporter } from './progress.js';

function stream(isTTY: boolean) {
  const chunks: string[] = [];
  return { isTTY, chunks, write: (text: string) => chunks.push(text) > 0 };
}

describe('console progress', () => {
  it('prints plain percent lines at most about four times a second, and always 100 %', () => {
    const progress = stream(false);
    const summary = stream(false);
    let now = 0;
    const step = consoleReporter(progress, summary, () => now).step('merging IPv4 ranges');
    for (let i = 0; i <= 100; i++) {
      step(i / 100);
      now += 10; // 100 updates within one second
    }
    expect(progress.chunks[0]).toBe('dataset: merging IPv4 ranges   0%\n');
    expect(progress.chunks.at(-1)).toBe('dataset: merging IPv4 ranges 100%\n');
    expect(progress.chunks.length).toBeLessThanOrEqual(6);
    step(1);
    expect(progress.chunks.at(-1)).toBe('dataset: merging IPv4 ranges 100%\n');
    expect(summary.chunks).toEqual([]);
  });

  it('rewrites the line in place on a terminal and sends summary lines to the other stream', () => {
    const progress = stream(true);
    const summary = stream(false);
    const reporter = consoleReporter(progress, summary, () => 0);
    const step = reporter.step('hashing');
    step(0.5);
    step(1);
    reporter.say('built 2026.09.16-0123abcd');
    expect(progress.chunks).toEqual(['\rdataset: hashing  50%', '\rdataset: hashing 100%\n']);
    expect(summary.chunks).toEqual(['dataset: built 2026.09.16-0123abcd\n']);
  });
});
