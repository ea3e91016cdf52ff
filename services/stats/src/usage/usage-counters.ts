import { counterKey, decodeCounterKey } from '../counters/counter-delta.js';

/**
 * The counters of a usage_rollups document (DESIGN: one per partition, account, key, channel,
 * granularity and period). The fold writes them, the queries and the closer read them.
 */
export const USAGE_COUNTERS = {
  /** Σ count: lookups against the quota. */
  lookups: 'lookups',
  /** Accepted requests (events). */
  requests: 'requests',
  /** Σ free_count: reserved or invalid items answered free. */
  free: 'free',
} as const;

/** Prefixes of the data-valued counters (names through counterKey). */
export const USAGE_PREFIXES = {
  /** Requests per endpoint. */
  endpointRequests: 'e:',
  /** Lookups per endpoint. */
  endpointLookups: 'le:',
  /** Requests per HTTP status. */
  status: 's:',
} as const;

export const endpointRequestsKey = (endpoint: string) => counterKey(USAGE_PREFIXES.endpointRequests, endpoint);
export const endpointLookupsKey = (endpoint: string) => counterKey(USAGE_PREFIXES.endpointLookups, endpoint);
export const statusKey = (status: number) => counterKey(USAGE_PREFIXES.status, String(status));

/** A usage bucket as the queries answer it. */
export interface UsageTotals {
  lookups: number;
  requests: number;
  free: number;
  requestsByEndpoint: Record<string, number>;
  lookupsByEndpoint: Record<string, number>;
  requestsByStatus: Record<number, number>;
}

export function emptyTotals(): UsageTotals {
  return { lookups: 0, requests: 0, free: 0, requestsByEndpoint: {}, lookupsByEndpoint: {}, requestsByStatus: {} };
}

/** Adds a document's counters into `into` (carries `cr:*` and unknown counters are not usage). */
export function addUsageCounters(into: UsageTotals, counters: Readonly<Record<string, number>>): UsageTotals {
  for (const [field, value] of Object.entries(counters)) {
    if (field === USAGE_COUNTERS.lookups) into.lookups += value;
    else if (field === USAGE_COUNTERS.requests) into.requests += value;
    else if (field === USAGE_COUNTERS.free) into.free += value;
    else {
      const endpoint = decodeCounterKey(USAGE_PREFIXES.endpointRequests, field);
      if (endpoint !== null) {
        into.requestsByEndpoint[endpoint] = (into.requestsByEndpoint[endpoint] ?? 0) + value;
        continue;
      }
      const lookedUp = decodeCounterKey(USAGE_PREFIXES.endpointLookups, field);
      if (lookedUp !== null) {
        into.lookupsByEndpoint[lookedUp] = (into.lookupsByEndpoint[lookedUp] ?? 0) + value;
        continue;
      }
      const status = decodeCounterKey(USAGE_PREFIXES.status, field);
      if (status !== null) into.requestsByStatus[Number(status)] = (into.requestsByStatus[Number(status)] ?? 0) + value;
    }
  }
  return into;
}
