import { InvalidArgumentError } from '@ipdata/common';
import { INPUT_LIMITS } from '../shared/input-limits.js';

/**
 * Where a checkout may send the buyer back: only to the sites' own origins
 * (CHECKOUT_RETURN_ORIGINS). A caller-supplied return URL on any other origin would make the
 * checkout an open redirect (a phishing page behind our payment page), so it is refused when
 * the order is created and, should a stored session still carry one, never followed.
 */
export class ReturnUrlPolicy {
  private readonly origins: ReadonlySet<string>;

  constructor(origins: readonly string[]) {
    this.origins = new Set(origins.map((origin) => new URL(origin).origin));
  }

  /** CHECKOUT_RETURN_ORIGINS: comma-separated origins, e.g. "https://ipdata.example,https://cn.ipdata.example". */
  static fromList(list: string): ReturnUrlPolicy {
    return new ReturnUrlPolicy(parseOriginList(list).origins);
  }

  get allowedOrigins(): readonly string[] {
    return [...this.origins];
  }

  allows(returnUrl: string): boolean {
    if (returnUrl.length > INPUT_LIMITS.url) return false;
    let url: URL;
    try {
      url = new URL(returnUrl);
    } catch {
      return false;
    }
    // Credentials in a URL only serve to disguise the real host (https://site@evil.example).
    if (url.username !== '' || url.password !== '') return false;
    return (url.protocol === 'http:' || url.protocol === 'https:') && this.origins.has(url.origin);
  }

  /** Throws INVALID_ARGUMENT (field return_url) unless the URL is on an allowed origin. */
  check(returnUrl: string): string {
    if (returnUrl.length > INPUT_LIMITS.url) {
      throw new InvalidArgumentError(`return_url is longer than ${INPUT_LIMITS.url} characters`, {
        reason: 'too_long',
        details: { field: 'return_url' },
      });
    }
    if (!this.allows(returnUrl)) {
      throw new InvalidArgumentError('return_url must be an http(s) URL on one of the sites (CHECKOUT_RETURN_ORIGINS)', {
        reason: 'return_url_not_allowed',
        details: { field: 'return_url' },
      });
    }
    return returnUrl;
  }
}

/**
 * Parses an origin list; each entry must be exactly an origin (scheme, host, optional port,
 * no path, query or credentials), so the list cannot be misread as URL prefixes.
 */
export function parseOriginList(list: string): { origins: string[]; problems: string[] } {
  const origins: string[] = [];
  const problems: string[] = [];
  for (const entry of list.split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {
      url = undefined;
    }
    const exact =
      url && (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === entry.replace(/\/$/, '').toLowerCase();
    if (!url || !exact) problems.push(`"${entry}" is not an origin like https://site.example[:port]`);
    else origins.push(url.origin);
  }
  if (origins.length === 0 && problems.length === 0) problems.push('no origin given');
  return { origins, problems };
}
