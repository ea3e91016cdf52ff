import { webApi } from '../../api/web.api.js';
import type { WebData } from '../../api/web-api.types.js';

/**
 * Public DNS resolvers on every continent: well-known addresses anyone can check. Only the
 * addresses are ours; where they are, and whose network, is what the lookup answers today.
 */
export const RESOLVERS = [
  '208.67.222.222',
  '200.221.11.100',
  '84.200.69.80',
  '77.88.8.8',
  '196.216.2.1',
  '223.5.5.5',
  '168.126.63.1',
  '203.50.2.71',
] as const;

export interface LiveLookup {
  ip: string;
  place: string;
  network: string;
  latitude: number;
  longitude: number;
}

/** The lookup tool is limited per visitor address: a visitor's session reuses one round of answers. */
const STORAGE_KEY = 'ipdata.home.live-lookups';
const KEEP_MS = 60 * 60 * 1000;

function remembered(): LiveLookup[] | undefined {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as { at: number; lookups: LiveLookup[] } | null;
    return saved && Date.now() - saved.at < KEEP_MS && saved.lookups.length > 0 ? saved.lookups : undefined;
  } catch {
    return undefined;
  }
}

function remember(lookups: LiveLookup[]): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ at: Date.now(), lookups }));
  } catch {
    // Storage full or disabled: the next visit asks again.
  }
}

type LookupAnswer = WebData<'lookUp'>;

function liveLookupOf(answer: LookupAnswer): LiveLookup | undefined {
  const info = answer.results[0];
  if (!info || info.latitude === null || info.longitude === null) return undefined;
  const network = (info.asn as { asn_name?: string | null; organization?: string | null } | null) ?? null;
  return {
    ip: info.ip,
    place: [info.city_name, info.region_name, info.country_name].filter(Boolean).join(', ') || 'Unknown',
    network: network?.asn_name ?? network?.organization ?? '',
    latitude: info.latitude,
    longitude: info.longitude,
  };
}

/**
 * The home page's map: each resolver looked up through the site's lookup tool (/api/lookup), the
 * same data the API answers. Silent: a failed lookup leaves its pin out rather than showing a toast.
 */
export const liveLookupsApi = webApi.injectEndpoints({
  endpoints: (build) => ({
    liveLookups: build.query<LiveLookup[], void>({
      queryFn: async (_arg, _api, _extra, baseQuery) => {
        const saved = remembered();
        if (saved) return { data: saved };
        const answers = await Promise.all(
          RESOLVERS.map(async (ip) => baseQuery({ url: '/api/lookup', params: { q: ip }, silent: true })),
        );
        const lookups = answers.flatMap((answer) => {
          const found = answer.data ? liveLookupOf(answer.data as LookupAnswer) : undefined;
          return found ? [found] : [];
        });
        if (lookups.length === 0) {
          const failed = answers.find((answer) => answer.error)?.error;
          return { error: failed ?? { error: 'BAD_ANSWER', msg: 'No answer' } };
        }
        remember(lookups);
        return { data: lookups };
      },
      keepUnusedDataFor: 3600,
    }),
  }),
});
