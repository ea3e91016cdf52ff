import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LineSplitter, parseHopLine, type TraceHop } from './traceroute-output.parser.js';

function fixture(name: string): string {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
}

function parseAll(text: string): TraceHop[] {
  return text.split('\n').flatMap((line) => parseHopLine(line) ?? []);
}

describe('parseHopLine on outputs recorded from Debian traceroute 2.1.2 (-n)', () => {
  it('reads the IPv4 loopback trace: one hop, three answers, the header skipped', () => {
    expect(parseAll(fixture('real-loopback-v4.txt'))).toEqual([
      { ttl: 1, ip: '127.0.0.1', otherIps: [], rttMs: [0.024, 0.005, 0.004], sent: 3, lost: 0, annotations: [] },
    ]);
  });

  it('reads the IPv6 loopback trace', () => {
    expect(parseAll(fixture('real-loopback-v6.txt'))).toEqual([
      { ttl: 1, ip: '::1', otherIps: [], rttMs: [0.019, 0.005, 0.005], sent: 3, lost: 0, annotations: [] },
    ]);
  });

  it('reads hops where every probe was lost', () => {
    const hops = parseAll(fixture('real-unanswered-v6.txt'));
    expect(hops.map((hop) => [hop.ttl, hop.ip, hop.sent, hop.lost, hop.rttMs.length])).toEqual([
      [1, '', 2, 2, 0],
      [2, '', 2, 2, 0],
      [3, '', 2, 2, 0],
    ]);
  });

  it('keeps the !N annotation of a network-unreachable answer', () => {
    const hops = parseAll(fixture('real-network-unreachable-v4.txt'));
    expect(hops).toHaveLength(2);
    expect(hops[1]).toEqual({
      ttl: 2,
      ip: '21.4.32.119',
      otherIps: [],
      rttMs: [0.451],
      sent: 1,
      lost: 0,
      annotations: ['!N'],
    });
  });
});

describe('parseHopLine on multi-hop samples in traceroute print_probe format', () => {
  const v4 = parseAll(fixture('synthetic-multi-hop-v4.txt'));
  const v6 = parseAll(fixture('synthetic-multi-hop-v6.txt'));

  it('reads every TTL once, in order', () => {
    expect(v4.map((hop) => hop.ttl)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(v6.map((hop) => hop.ttl)).toEqual([1, 2, 3, 4, 5]);
  });

  it('gives the first answering address as ip and the others of a load-balanced hop in otherIps', () => {
    expect(v4[2]).toMatchObject({ ip: '10.20.0.1', otherIps: ['10.20.0.5'], rttMs: [5.113, 5.87, 5.002], sent: 3, lost: 0 });
    expect(v6[1]).toMatchObject({ ip: '2001:db8:10::1', otherIps: ['2001:db8:10::2'], rttMs: [3.21, 3.3, 3.29] });
  });

  it('counts lost probes between answers', () => {
    expect(v4[1]).toMatchObject({ ip: '', sent: 3, lost: 3, rttMs: [] });
    expect(v4[3]).toMatchObject({ ip: '203.0.113.9', sent: 3, lost: 1 + 1, rttMs: [12.404] });
  });

  it('collects !H, !N, !X and !F-<mtu> annotations once each', () => {
    expect(v4[4]).toMatchObject({ ip: '203.0.113.77', annotations: ['!H'], sent: 3, lost: 1, rttMs: [20.001, 20.31] });
    expect(v4[5]).toMatchObject({ ip: '198.51.100.1', otherIps: ['198.51.100.2'], annotations: ['!N', '!X'], lost: 1 });
    expect(v4[6]).toMatchObject({ annotations: ['!F-1500'], rttMs: [33, 32.9, 33.1] });
    expect(v6[3]).toMatchObject({ ip: '2001:db8:20::9', annotations: ['!X'], sent: 3, lost: 1 });
  });

  it('prints IPv6 addresses in the canonical form of the project IP module', () => {
    expect(parseHopLine(' 2  2001:DB8:10:0:0:0:0:2  3.300 ms')).toMatchObject({ ip: '2001:db8:10::2' });
    expect(parseHopLine(' 2  ::ffff:192.0.2.1  3.300 ms')).toMatchObject({ ip: '192.0.2.1' });
  });

  it('reads the "name (address)" form traceroute prints without -n', () => {
    expect(parseHopLine(' 3  router.example (192.0.2.1)  1.000 ms  1.100 ms')).toMatchObject({ ip: '192.0.2.1', sent: 2 });
  });

  it('answers undefined for the header, blank lines, error texts and TTL-less lines', () => {
    for (const line of [
      'traceroute to 127.0.0.1 (127.0.0.1), 30 hops max, 60 byte packets',
      '',
      '   ',
      'no more than 10 probes per hop',
      ' 0  127.0.0.1  0.1 ms',
      ' 256  127.0.0.1  0.1 ms',
      ' 4',
      ' 5  garbage',
    ]) {
      expect(parseHopLine(line), line).toBeUndefined();
    }
  });

  it('ignores tokens it does not know and addresses that are not one valid address', () => {
    expect(parseHopLine(' 1  10.0.0.1  1.0 ms <MPLS:L=1,E=0,S=1,T=1> 010.0.0.2  2.0 ms')).toMatchObject({
      ip: '10.0.0.1',
      otherIps: [],
      rttMs: [1, 2],
    });
  });
});

describe('LineSplitter', () => {
  it('gives complete lines as chunks arrive, cut anywhere, and the rest at the end', () => {
    const splitter = new LineSplitter();
    expect(splitter.push('traceroute to ::1')).toEqual([]);
    expect(splitter.push(' (::1)\n 1  ::1  0.1')).toEqual(['traceroute to ::1 (::1)']);
    expect(splitter.push(' ms\r\n 2  *')).toEqual([' 1  ::1  0.1 ms']);
    expect(splitter.end()).toEqual([' 2  *']);
    expect(splitter.end()).toEqual([]);
  });

  it('drops a line longer than its limit instead of buffering it', () => {
    const splitter = new LineSplitter(10);
    expect(splitter.push('x'.repeat(25))).toEqual([]);
    expect(splitter.push('yyy\n 1  *\n')).toEqual([' 1  *']);
    expect(splitter.push('z'.repeat(11))).toEqual([]);
    expect(splitter.end()).toEqual([]);
  });
});
