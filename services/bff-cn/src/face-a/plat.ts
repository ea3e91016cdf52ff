/** Face A's `plat` header: `wap` for phones and tablets, `pc` otherwise (spec section 7). */
export type Plat = 'pc' | 'wap';

/**
 * The platform a request came from. Missing, empty or unknown values count as `pc` (the spec's
 * default) instead of failing the call: the header only labels visits and usage, and a client
 * with a broken header should still get its answer. Case and surrounding spaces are ignored.
 */
export function platOf(header: string | string[] | undefined): Plat {
  const value = (Array.isArray(header) ? header[0] : header)?.trim().toLowerCase();
  return value === 'wap' ? 'wap' : 'pc';
}
