import { describe, expect, it } from 'vitest';
import { prefixNetwork, rangeText, sourceAddress } from './source-address.js';

describe('source addresses', () => {
  it('asks IPv4-mapped IPv6 as IPv4 and refuses malformed text', () => {
    expect(sourceAddress('::ffff:8.8.8.8')).toEqual({ family: 4, words: Uint32Array.of(0x08080808) });
    expect(sourceAddress('2001:db8::1')?.family).toBe(6);
    expect(sourceAddress('1.2.3')).toBeNull();
  });

  it('names networks by prefix and ranges as one CIDR when they are one', () => {
    const v4 = sourceAddress('8.8.8.8');
    const v6 = sourceAddress('2001:4860:4860::8888');
    if (v4 === null || v6 === null) throw new Error('parse');
    expect(prefixNetwork(v4, 24)).toBe('8.8.8.0/24');
    expect(prefixNetwork(v4, 0)).toBe('0.0.0.0/0');
    expect(prefixNetwork(v6, 36)).toBe('2001:4860:4000::/36');
    expect(rangeText(4, Uint32Array.of(0x01010100), Uint32Array.of(0x010101ff))).toBe('1.1.1.0/24');
    expect(rangeText(4, Uint32Array.of(0x01010100), Uint32Array.of(0x01010200))).toBe('1.1.1.0 - 1.1.2.0');
  });
});
