import { describe, expect, it } from 'vitest';
import { checkTarget } from '../tasks/probe-target.js';
import { tracerouteArgs } from './traceroute-args.js';

const limits = { maxHops: 30, queriesPerHop: 3, waitMs: 3000 };

describe('tracerouteArgs', () => {
  it('builds -n, the family, bounded integers, "--" and the canonical address', () => {
    expect(tracerouteArgs({ family: 4, address: '192.0.2.1' }, limits)).toEqual([
      '-n',
      '-4',
      '-m',
      '30',
      '-q',
      '3',
      '-w',
      '3',
      '--',
      '192.0.2.1',
    ]);
    expect(tracerouteArgs({ family: 6, address: '2001:db8::1' }, { maxHops: 64, queriesPerHop: 1, waitMs: 250 })).toEqual([
      '-n',
      '-6',
      '-m',
      '64',
      '-q',
      '1',
      '-w',
      '0.25',
      '--',
      '2001:db8::1',
    ]);
  });

  it('refuses integers out of bounds rather than passing them on', () => {
    const target = { family: 4, address: '192.0.2.1' } as const;
    expect(() => tracerouteArgs(target, { ...limits, maxHops: 65 })).toThrow(RangeError);
    expect(() => tracerouteArgs(target, { ...limits, maxHops: 0 })).toThrow(RangeError);
    expect(() => tracerouteArgs(target, { ...limits, maxHops: 2.5 })).toThrow(RangeError);
    expect(() => tracerouteArgs(target, { ...limits, queriesPerHop: 11 })).toThrow(RangeError);
    expect(() => tracerouteArgs(target, { ...limits, waitMs: 99 })).toThrow(RangeError);
    expect(() => tracerouteArgs(target, { ...limits, waitMs: Number.NaN })).toThrow(RangeError);
  });

  it('never carries what a visitor typed: hostile targets never reach the argv', () => {
    for (const hostile of [
      '127.0.0.1; rm -rf /',
      '$(id)',
      '-I 127.0.0.1',
      '--module=/tmp/x.so',
      '127.0.0.1 -g 10.0.0.1',
      '`id`',
      '8.8.8.8\n-s 1.2.3.4',
      'example.com',
      ' 8.8.8.8',
      '08.8.8.8',
      'fe80::1%eth0',
    ]) {
      expect(checkTarget(hostile, true), hostile).toEqual({ ok: false, reason: 'invalid' });
    }
    const checked = checkTarget('2001:0DB8:0000::0001', true);
    if (!checked.ok) throw new Error('expected a valid target');
    const argv = tracerouteArgs(checked.target, limits);
    expect(argv.at(-1)).toBe('2001:db8::1');
    // Every element is a fixed flag, a decimal number, "--" or the canonical address.
    for (const arg of argv) expect(arg).toMatch(/^(-[n46mqw]|--|\d+(\.\d+)?|2001:db8::1)$/);
  });
});
