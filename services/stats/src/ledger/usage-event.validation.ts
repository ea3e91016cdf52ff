import { UsageChannel, type UsageEvent } from '@ipdata/proto/events/v1/usage';

/** Most lookups one event may count: a bulk chunk is far smaller; more is a broken producer. */
export const MAX_EVENT_COUNT = 1_000_000;
const MAX_ENDPOINT_LENGTH = 200;
const MAX_ID_LENGTH = 200;
/** An event from the future beyond clock skew would open an hour that has not begun. */
const MAX_FUTURE_MS = 24 * 3600 * 1000;

const CHANNELS = new Set<number>([
  UsageChannel.USAGE_CHANNEL_PUBLIC_API,
  UsageChannel.USAGE_CHANNEL_WEB_EN,
  UsageChannel.USAGE_CHANNEL_WEB_CN,
]);

/**
 * Why a ledger record can never be counted (it goes to the DLQ with this reason), or null when it
 * is fine. Only what would make the rollups wrong is refused; unknown extra fields are not.
 */
export function usageEventProblem(event: UsageEvent, now: Date): string | null {
  const id = event.meta?.id ?? '';
  const time = event.meta?.time;
  if (id === '' || id.length > MAX_ID_LENGTH) return `meta.id must be 1 to ${MAX_ID_LENGTH} characters`;
  if (!time || Number.isNaN(time.getTime())) return 'meta.time is missing';
  if (time.getTime() > now.getTime() + MAX_FUTURE_MS) return `meta.time ${time.toISOString()} is more than a day in the future`;
  if (!CHANNELS.has(event.channel)) return `channel ${event.channel} is not a known usage channel`;
  if (event.endpoint === '' || event.endpoint.length > MAX_ENDPOINT_LENGTH) {
    return `endpoint must be 1 to ${MAX_ENDPOINT_LENGTH} characters`;
  }
  if (event.count > MAX_EVENT_COUNT || event.freeCount > MAX_EVENT_COUNT) {
    return `count ${event.count} / free_count ${event.freeCount} above ${MAX_EVENT_COUNT}`;
  }
  if (event.channel === UsageChannel.USAGE_CHANNEL_PUBLIC_API && (event.apiKeyId === '' || event.accountId === '')) {
    return 'a public API event needs api_key_id and account_id';
  }
  if (event.accountId.includes('|') || event.apiKeyId.includes('|')) return 'account_id and api_key_id must not contain "|"';
  return null;
}
