import { UsageChannel, UsageResult, type UsageRecord } from './usage-record.js';

/** An accepted single lookup for unit tests (fixed time, account acc-1, key key-1), with overrides. */
export function sampleUsageRecord(requestId: string, overrides: Partial<UsageRecord> = {}): UsageRecord {
  return {
    requestId,
    channel: UsageChannel.USAGE_CHANNEL_PUBLIC_API,
    accountId: 'acc-1',
    apiKeyId: 'key-1',
    visitorId: '',
    endpoint: '/v1/ip/{ip}',
    ip: '8.8.8.8',
    ipVersion: 4,
    countryCode: 'US',
    province: '',
    result: UsageResult.USAGE_RESULT_FOUND,
    httpStatus: 200,
    latencyMs: 1.4,
    count: 1,
    freeCount: 0,
    time: new Date('2025-01-02T03:04:05.678Z'),
    ...overrides,
  };
}
