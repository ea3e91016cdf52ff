/** The `plat` header: `wap` for phones and tablets, `pc` otherwise (spec section 7), by user agent. */
export type Plat = 'wap' | 'pc';

// Phones and tablets by their user-agent tokens (Android tablets drop "Mobile" but keep "Android").
const MOBILE = /Android|iPhone|iPad|iPod|Mobile|Tablet|HarmonyOS|Windows Phone|IEMobile|BlackBerry|Opera Mini|Kindle|Silk/i;

export function platOf(userAgent: string): Plat {
  return MOBILE.test(userAgent) ? 'wap' : 'pc';
}
