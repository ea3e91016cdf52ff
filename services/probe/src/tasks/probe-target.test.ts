import { describe, expect, it } from 'vitest';
import { checkTarget } from './probe-target.js';

describe('checkTarget', () => {
  it('accepts public addresses in canonical form, IPv4-mapped IPv6 as IPv4', () => {
    expect(checkTarget('8.8.8.8', false)).toEqual({ ok: true, target: { family: 4, address: '8.8.8.8' } });
    expect(checkTarget('2400:3200:0:0::1', false)).toEqual({ ok: true, target: { family: 6, address: '2400:3200::1' } });
    expect(checkTarget('::ffff:8.8.4.4', false)).toEqual({ ok: true, target: { family: 4, address: '8.8.4.4' } });
  });

  it('refuses private, loopback, link-local, shared, documentation and other special ranges by default', () => {
    for (const address of [
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '127.0.0.1',
      '169.254.1.1',
      '100.64.0.1',
      '192.0.2.1',
      '198.18.0.1',
      '240.0.0.1',
      '::1',
      'fc00::1',
      'fe80::1',
      '2001:db8::1',
      '::ffff:10.0.0.1',
    ]) {
      expect(checkTarget(address, false), address).toEqual({ ok: false, reason: 'refused' });
    }
  });

  // 255.255.255.255 is not in the list: the lookup engine's table classifies it as 240.0.0.0/4 (OTHER) first.
  it('allows those with allowPrivate, but never multicast or the unspecified address', () => {
    for (const address of ['10.1.2.3', '127.0.0.1', '::1', '192.0.2.1', 'fe80::1']) {
      expect(checkTarget(address, true).ok, address).toBe(true);
    }
    for (const address of ['224.0.0.1', '239.1.1.1', 'ff02::1', '0.0.0.0', '::']) {
      expect(checkTarget(address, true), address).toEqual({ ok: false, reason: 'refused' });
    }
  });

  it('refuses anything that is not exactly one address', () => {
    for (const text of ['', 'localhost', '1.2.3', '1.2.3.4/32', '1.2.3.4 ', '[::1]', '1.2.3.4:80']) {
      expect(checkTarget(text, true), text).toEqual({ ok: false, reason: 'invalid' });
    }
  });
});
