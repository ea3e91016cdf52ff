/**
 * The apps make no request off the machine under test: fonts, icons and maps come from npm
 * packages in the build. A test page lets loopback through and blocks (and records) the rest.
 */

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
/** Schemes that never leave the browser. */
const IN_BROWSER_SCHEMES = new Set(['data:', 'blob:', 'about:', 'chrome:', 'chrome-error:', 'devtools:']);

/** Whether a request URL stays on this machine (loopback by name or address) or in the browser. */
export function isLocalUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (IN_BROWSER_SCHEMES.has(parsed.protocol)) return true;
  return LOCAL_HOSTS.has(parsed.hostname.toLowerCase());
}

/**
 * Chromium flag: every host but loopback (names and address literals alike) resolves to nothing, a second wall behind the
 * request routing (it also covers what routing does not see, such as DNS prefetch).
 */
export const HOST_RESOLVER_RULES = '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1, EXCLUDE [::1]';
