import { describe, expect, it } from 'vitest';
import { SignedLinks } from './signed-link.js';

describe('SignedLinks', () => {
  const links = new SignedLinks('a-secret-of-at-least-32-characters!!');
  const now = Date.UTC(2030, 0, 1);

  it('verifies its own token until it expires, for its purpose only', () => {
    const { token, payload } = links.issue({ sub: 'acc-1', purpose: 'confirm_email', exp: now + 1000, ver: 7 });
    expect(links.verify(token, 'confirm_email', now)).toEqual(payload);
    expect(payload.ver).toBe(7);
    expect(links.verify(token, 'reset_password', now)).toBeUndefined();
    expect(links.verify(token, 'confirm_email', now + 1000)).toBeUndefined();
  });

  it('refuses tokens signed with another secret or with a changed payload', () => {
    const { token } = new SignedLinks('another-secret-of-at-least-32-chars!').issue({
      sub: 'a',
      purpose: 'confirm_email',
      exp: now + 1000,
      ver: 0,
    });
    expect(links.verify(token, 'confirm_email', now)).toBeUndefined();
    const [, signature] = links.issue({ sub: 'a', purpose: 'confirm_email', exp: now + 1000, ver: 0 }).token.split('.');
    const body = Buffer.from(JSON.stringify({ sub: 'b', purpose: 'confirm_email', exp: now + 1000, jti: 'x' })).toString(
      'base64url',
    );
    expect(links.verify(`${body}.${signature}`, 'confirm_email', now)).toBeUndefined();
    expect(links.verify('a.b.c', 'confirm_email', now)).toBeUndefined();
  });
});
