import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NONE } from '../format/index.js';
import { readRangeList } from './privacy-rules.js';

const folder = mkdtempSync(join(tmpdir(), 'privacy-list-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function list(name: string, text: string) {
  const path = join(folder, name);
  writeFileSync(path, text);
  return { path, read: () => readRangeList(path) };
}

describe('privacy range lists', () => {
  it('reads IPv4 and IPv6 rows', () => {
    const rule = list('tor-exits.csv', 'start,end\n10.0.0.0,10.0.0.255\n2001:db8::,2001:db8::ff\n').read();
    expect(rule.id).toBe('tor:tor-exits.csv');
    expect([...rule.ipv4.starts]).toEqual([0, 0x0a000000, 0x0a000100]);
    expect([...rule.ipv4.values]).toEqual([NONE, 0, NONE]);
    expect(rule.ipv6.values.length).toBe(3);
  });

  it('refuses leading zeros, as the lookup engine refuses them in queries', () => {
    // Read as 10.0.0.1 the rule would flag other addresses than an octal reader's 8.0.0.1.
    const { path, read } = list('vpn-octal.csv', 'start,end\n10.0.0.0,10.0.0.9\n010.0.0.1,010.0.0.5\n');
    expect(read).toThrow(`${path}: line 3: expected start,end[,label] with two IPv4 or two IPv6 addresses`);
    expect(list('vpn-zone.csv', 'fe80::1%eth0,fe80::2\n').read).toThrow(/line 1: expected start,end/);
  });
});
