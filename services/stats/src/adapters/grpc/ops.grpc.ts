import { InvalidArgumentError } from '@ipdata/common';
import {
  ReplayState,
  type GetReplayRequest,
  type GetReplayResponse,
  type ReconcileQuotasRequest,
  type ReconcileQuotasResponse,
  type Replay,
  type StartReplayRequest,
  type StartReplayResponse,
} from '@ipdata/proto/stats/v1/stats';
import { collectionsFor } from '../../counters/rollup-generation.js';
import type { QuotaReconciler } from '../../reconcile/quota-reconciler.js';
import type { ReplayFrom, ReplayStatus, RollupReplays } from '../../replay/rollup-replay.js';

/**
 * ReconcileQuotas / StartReplay / GetReplay: proto request → domain → proto response. The lead's
 * stats.handler.ts wraps each in unary(), which maps the domain errors; the access policy lets
 * only `operator` call them (scripts/ops).
 */

export async function reconcileQuotas(
  reconciler: QuotaReconciler,
  request: ReconcileQuotasRequest,
): Promise<ReconcileQuotasResponse> {
  const result = await reconciler.reconcile(request.accountId ? { accountId: request.accountId } : {});
  return { accounts: result.accounts, countersRaised: result.countersRaised, monthStart: result.monthStart };
}

/** "0:120,3:55" → partition → offset. */
export function parseOffsets(text: string): Map<number, number> {
  const offsets = new Map<number, number>();
  for (const part of text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)) {
    const match = /^(\d+):(\d+)$/.exec(part);
    if (!match) throw new InvalidArgumentError(`offsets: "${part}" is not partition:offset`, { reason: 'invalid_offsets' });
    const partition = Number(match[1]);
    if (offsets.has(partition))
      throw new InvalidArgumentError(`offsets: partition ${partition} named twice`, { reason: 'invalid_offsets' });
    offsets.set(partition, Number(match[2]));
  }
  if (offsets.size === 0)
    throw new InvalidArgumentError('offsets: name at least one partition:offset', { reason: 'invalid_offsets' });
  return offsets;
}

export function replayFromProto(request: StartReplayRequest): ReplayFrom {
  if (request.earliest) return { kind: 'earliest' };
  if (request.time !== undefined) return { kind: 'time', time: request.time };
  if (request.offsets !== undefined) return { kind: 'offsets', offsets: parseOffsets(request.offsets) };
  throw new InvalidArgumentError('say where the replay starts: earliest, time or offsets', { reason: 'replay_from_required' });
}

const STATES: Record<ReplayStatus['state'], ReplayState> = {
  running: ReplayState.REPLAY_STATE_RUNNING,
  swapped: ReplayState.REPLAY_STATE_SWAPPED,
  failed: ReplayState.REPLAY_STATE_FAILED,
};

export function replayToProto(status: ReplayStatus): Replay {
  return {
    id: status.id,
    state: STATES[status.state],
    startedAt: status.startedAt,
    finishedAt: status.finishedAt,
    recordsRead: status.recordsRead,
    eventsCounted: status.eventsCounted,
    recordsLeft: status.recordsLeft,
    error: status.error ?? '',
    generation: Object.values(collectionsFor(status.generation)).join(','),
  };
}

export function startReplay(replays: RollupReplays, request: StartReplayRequest): StartReplayResponse {
  return { replay: replayToProto(replays.start(replayFromProto(request))) };
}

export function getReplay(replays: RollupReplays, request: GetReplayRequest): GetReplayResponse {
  if (!request.id) throw new InvalidArgumentError('id is required', { reason: 'id_required' });
  return { replay: replayToProto(replays.get(request.id)) };
}
