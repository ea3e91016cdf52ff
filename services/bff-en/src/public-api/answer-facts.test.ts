import { describe, expect, it } from 'vitest';
import { compactAnswerInfo, decodeCompactBatch } from '@ipdata/lookup-engine/client';
import { UsageResult } from '@ipdata/proto/events/v1/usage';
import { BatchLookupCompactResponse, IpInfo, ReservedReason } from '@ipdata/proto/lookup/v1/lookup';
import { compactAnswerFacts, answerFactsOf } from './answer-facts.js';

const first = Buffer.from([1, 2, 3, 0]);
const last = Buffer.from([1, 2, 3, 255]);

describe('compactAnswerFacts', () => {
  it("reads the facts answerFactsOf finds in the answer's IpInfo, without building it", () => {
    const message = BatchLookupCompactResponse.fromPartial({
      countries: [IpInfo.fromPartial({ countryCode: 'CN', zh: { country: '中国' } }), IpInfo.fromPartial({ countryCode: 'US' })],
      places: [IpInfo.fromPartial({ cityName: 'Guangzhou', zh: { province: '广东', city: '广州' } })],
      operators: [IpInfo.fromPartial({ asn: { asn: 4134 }, zh: { isp: '电信' } })],
      items: [
        { query: '1.2.3.4', country: 1, place: 1, operator: 1, first, last },
        // No operator part: the engine's IpInfo has no Chinese names, so no province either.
        { query: '1.2.3.5', country: 1, place: 1, operator: 0, first, last },
        { query: '1.2.3.6', country: 2, place: 1, operator: 1, first, last },
        { query: '1.2.3.7', first, last },
        { query: '1.2.3.8', country: 2, first, last, reserved: ReservedReason.RESERVED_REASON_DOCUMENTATION },
      ],
    });
    const batch = decodeCompactBatch(BatchLookupCompactResponse.encode(message).finish());
    const facts = Array.from({ length: batch.length }, (_, at) => compactAnswerFacts({ batch, at }));
    expect(facts).toEqual([
      { countryCode: 'CN', province: '广东', result: UsageResult.USAGE_RESULT_FOUND },
      { countryCode: 'CN', province: '', result: UsageResult.USAGE_RESULT_FOUND },
      { countryCode: 'US', province: '', result: UsageResult.USAGE_RESULT_FOUND },
      { countryCode: '', province: '', result: UsageResult.USAGE_RESULT_NOT_FOUND },
      { countryCode: 'US', province: '', result: UsageResult.USAGE_RESULT_RESERVED },
    ]);
    for (let at = 0; at < batch.length; at++) expect(facts[at]).toEqual(answerFactsOf(compactAnswerInfo(batch, at)));
  });
});
