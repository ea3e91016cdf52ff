import { ANSWER_ERROR, checkAddress, compactBatchItems, type CompactBatch } from '@ipdata/lookup-engine/client';
import { IpInfo, ReservedReason } from '@ipdata/proto/lookup/v1/lookup';
import type { CompactAnswer, LookupEngine } from '../lookups/lookup.ports.js';

/**
 * An input answered with data: by the engine (answer `at` of the call's compact batch), or here
 * (a special-purpose address).
 */
export type AnsweredItem = CompactAnswer | { info: IpInfo };

/** One answered input of a batch or bulk chunk, or why there is none. */
export type BatchItem = AnsweredItem | { query: string; code: 'invalid_ip' | 'quota_exceeded'; message: string };

export const isAnswered = (item: BatchItem): item is AnsweredItem => !('code' in item);

export type RefusedItem = Extract<BatchItem, { code: string }>;

/**
 * Each item through `answered` (with its IpInfo) or `refused`, in order: for views, CSV and
 * field selection. Each compact batch is expanded once (compactBatchItems: the addresses of a
 * response share one string).
 */
export function mapBatchItems<R>(
  items: readonly BatchItem[],
  answered: (info: IpInfo) => R,
  refused: (item: RefusedItem) => R,
): R[] {
  const expanded = new Map<CompactBatch, ReturnType<typeof compactBatchItems>>();
  return items.map((item) => {
    if (!isAnswered(item)) return refused(item);
    if ('info' in item) return answered(item.info);
    let infos = expanded.get(item.batch);
    if (infos === undefined) {
      infos = compactBatchItems(item.batch);
      expanded.set(item.batch, infos);
    }
    return answered(infos[item.at]?.info as IpInfo);
  });
}

/** The engine's answers to up to 1,000 public addresses, in order: an AnsweredItem, or undefined for a failed one. */
export type BatchLookupFn = (ips: string[]) => Promise<Array<AnsweredItem | undefined>>;

/**
 * Answers kept in the engine's compact form (POST /v1/batch renders them from their parts):
 * the response's bytes live until the batch is answered.
 */
export function compactAnswers(engine: LookupEngine): BatchLookupFn {
  return async (ips) => {
    const batch = await engine.batchLookupParts(ips);
    const answers = new Array<AnsweredItem | undefined>(batch.length);
    for (let at = 0; at < batch.length; at++) answers[at] = batch.columns.form[at] === ANSWER_ERROR ? undefined : { batch, at };
    return answers;
  };
}

/**
 * Answers decoded into objects when they arrive (bulk jobs): nothing of the response outlives
 * its decoding. Measured on 300,000-line jobs: holding the compact response across the chunk's
 * reservation instead raised bff-en's peak RSS from ~430 to ~600 MiB and cost ~9% lines/s.
 */
export function decodedAnswers(engine: LookupEngine): BatchLookupFn {
  return async (ips) =>
    (await engine.batchLookup(ips)).map((item) => (item.info === undefined ? undefined : { info: item.info }));
}

export interface BatchOutcome {
  items: BatchItem[];
  /** Public addresses answered: what the quota counted. */
  granted: number;
  /** Inputs answered free (invalid or special-purpose). */
  free: number;
  /** Public addresses refused because the quota had no room. */
  refused: number;
}

function queryText(input: unknown): string {
  return typeof input === 'string' ? input : (JSON.stringify(input) ?? String(input));
}

/**
 * The counting rules of POST /v1/batch and POST /v1/bulk, in one place: invalid inputs and
 * special-purpose addresses are answered free; every public address is looked up (at most
 * 1,000 per call), then `reserve(n)` says how many of them the quota grants, and the first
 * `granted` (in input order) are answered while the rest carry `quota_exceeded`. Looked up
 * before reserving: a failed lookup is never charged. `lookup` is compactAnswers or
 * decodedAnswers.
 */
export async function lookUpBatch(
  inputs: readonly unknown[],
  lookup: BatchLookupFn,
  reserve: (count: number) => Promise<number>,
): Promise<BatchOutcome> {
  const items = new Array<BatchItem>(inputs.length);
  const publicAt: number[] = [];
  const publicIps: string[] = [];
  let free = 0;
  for (let index = 0; index < inputs.length; index++) {
    const input = inputs[index];
    const address = typeof input === 'string' ? checkAddress(input) : undefined;
    if (address === undefined) {
      free++;
      const query = queryText(input);
      items[index] = { query, code: 'invalid_ip', message: `"${query.slice(0, 100)}" is not an IPv4 or IPv6 address.` };
    } else if (address.reserved !== ReservedReason.RESERVED_REASON_UNSPECIFIED) {
      free++;
      items[index] = { info: IpInfo.fromPartial({ ip: address.text, reserved: address.reserved }) };
    } else {
      publicAt.push(index);
      publicIps.push(address.text);
    }
  }
  const answers = publicIps.length === 0 ? [] : await lookup(publicIps);
  const granted = await reserve(publicIps.length);
  let answered = 0;
  for (let i = 0; i < publicAt.length; i++) {
    const index = publicAt[i] as number;
    const answer = answers[i];
    if (answered < granted && answer !== undefined) {
      items[index] = answer;
      answered++;
    } else {
      items[index] = {
        query: queryText(inputs[index]),
        code: 'quota_exceeded',
        message: 'Not looked up: the monthly quota has no room for this address.',
      };
    }
  }
  return { items, granted: answered, free, refused: publicAt.length - answered };
}
