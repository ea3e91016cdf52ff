// The login token lives in the `token` cookie (spec section 3), read at start-up and cleared on
// logout. The server sets it on the main site domain; clearing here covers the current host.
export const TOKEN_COOKIE = 'token';

export function readTokenCookie(cookie: string = document.cookie): string {
  for (const part of cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === TOKEN_COOKIE) return decodeURIComponent(rest.join('='));
  }
  return '';
}

export function clearTokenCookie(): void {
  document.cookie = `${TOKEN_COOKIE}=; Max-Age=0; path=/`;
}

/** Spec section 9: a login lasts 7 days, 30 with remember-me; the server's expiry wins when it sends one. */
const DEFAULT_LIFETIME_S = 7 * 86_400;

export function writeTokenCookie(token: string, expiresAt: string | null, now = Date.now()): void {
  const until = expiresAt ? Date.parse(expiresAt) : NaN;
  const maxAge = Number.isFinite(until) ? Math.max(0, Math.floor((until - now) / 1000)) : DEFAULT_LIFETIME_S;
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Max-Age=${maxAge}; path=/; SameSite=Lax${secure}`;
}
