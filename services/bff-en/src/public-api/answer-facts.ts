import { UsageResult } from '@ipdata/proto/events/v1/usage';
import { ReservedReason, type IpInfo } from '@ipdata/proto/lookup/v1/lookup';
import type { CompactAnswer } from '../lookups/lookup.ports.js';

/** What a usage event says about the address it answered (usage.lookup.v1: country_code, province, result). */
export interface AnswerFacts {
  countryCode: string;
  /** The Chinese province of a CN address ('' otherwise): the stats service's China map. */
  province: string;
  result: UsageResult;
}

/** The usage result of an answer: reserved, found (a country is known) or not found. */
function usageResult(reserved: ReservedReason, countryCode: string | undefined): UsageResult {
  if (reserved !== ReservedReason.RESERVED_REASON_UNSPECIFIED) return UsageResult.USAGE_RESULT_RESERVED;
  return countryCode !== undefined ? UsageResult.USAGE_RESULT_FOUND : UsageResult.USAGE_RESULT_NOT_FOUND;
}

export function answerFactsOf(info: IpInfo): AnswerFacts {
  return {
    countryCode: info.countryCode ?? '',
    province: info.countryCode === 'CN' ? (info.zh?.province ?? '') : '',
    result: usageResult(info.reserved, info.countryCode),
  };
}

/**
 * The same facts read from a compact answer's columns and parts, without its IpInfo: only its
 * country part is decoded (and, for CN, its place part), once per batch (CompactBatch.part).
 * As in the IpInfo the engine's answer makes (compactAnswerInfo), the Chinese names are the
 * answer's only when it names an operator part.
 */
export function compactAnswerFacts({ batch, at }: CompactAnswer): AnswerFacts {
  const columns = batch.columns;
  const country = columns.country[at] as number;
  const countryCode = country === 0 ? undefined : batch.part('countries', country).countryCode;
  const place = columns.place[at] as number;
  const province =
    countryCode === 'CN' && place !== 0 && columns.operator[at] !== 0 ? (batch.part('places', place).zh?.province ?? '') : '';
  return { countryCode: countryCode ?? '', province, result: usageResult(columns.reserved[at] as ReservedReason, countryCode) };
}
