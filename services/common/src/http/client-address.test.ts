import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ClientAddressResolver } from './client-address.js';

function request(peer: string, forwardedFor?: string): IncomingMessage {
  return {
    socket: { remoteAddress: peer },
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  } as unknown as IncomingMessage;
}

describe('ClientAddressResolver', () => {
  it('ignores X-Forwarded-For without trusted proxies (anyone can write it)', () => {
    const resolver = new ClientAddressResolver([]);
    expect(resolver.clientIp(request('203.0.113.9', '8.8.8.8'))).toBe('203.0.113.9');
    expect(resolver.clientIp(request('::ffff:198.51.100.7'))).toBe('198.51.100.7');
  });

  it('reads X-Forwarded-For from the right through trusted hops only', () => {
    const resolver = new ClientAddressResolver(['10.0.0.0/8', '2001:db8:1::/48']);
    expect(resolver.clientIp(request('10.1.2.3', '1.1.1.1, 8.8.4.4, 10.9.9.9'))).toBe('8.8.4.4');
    expect(resolver.clientIp(request('2001:db8:1:5::1', '2606:4700::1'))).toBe('2606:4700::1');
    // A spoofed left-most entry does not win over the address the proxy saw.
    expect(resolver.clientIp(request('10.1.2.3', '6.6.6.6, 9.9.9.9'))).toBe('9.9.9.9');
    // Not from a trusted proxy: the header is not believed.
    expect(resolver.clientIp(request('192.0.2.1', '8.8.8.8'))).toBe('192.0.2.1');
    // Garbage in the header: stop there and use the peer.
    expect(resolver.clientIp(request('10.1.2.3', 'not-an-ip'))).toBe('10.1.2.3');
  });

  it('refuses a malformed list at start', () => {
    expect(() => new ClientAddressResolver(['10.0.0.0/33'])).toThrow(/TRUSTED_PROXIES/);
    expect(() => new ClientAddressResolver(['proxy.local'])).toThrow(/TRUSTED_PROXIES/);
  });
});
