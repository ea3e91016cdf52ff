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
