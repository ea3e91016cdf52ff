/**
 * Rebuilds the usage and trend rollups from the ledger (usage.lookup.v1) into fresh collections
 * and swaps them in: calls stats' StartReplay as `operator`, polls GetReplay and prints a JSON
 * line per poll (progress) and the final state. Exit code 1 when the replay failed (the live
 * rollups are then unchanged).
 *
 *   make usage-replay FROM=earliest|<ISO time>|<partition:offset,...>
 *   node --conditions=source --import tsx scripts/ops/usage-replay.ts --from earliest
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { errorText } from '@ipdata/common';
import { ReplayState, type Replay, type StartReplayRequest } from '@ipdata/proto/stats/v1/stats';
import { printJson, statsOperatorClient } from './stats-client.js';

const { values } = parseArgs({
  options: { from: { type: 'string', default: 'earliest' }, 'interval-ms': { type: 'string', default: '1000' } },
});

function startRequest(from: string): Partial<StartReplayRequest> {
  if (from === 'earliest') return { earliest: true };
  if (/^\d+:\d+(,\d+:\d+)*$/.test(from)) return { offsets: from };
  const time = new Date(from);
  if (Number.isNaN(time.getTime())) throw new Error(`FROM must be earliest, an ISO time or partition:offset,...; got "${from}"`);
  return { time };
}

function view(replay: Replay | undefined) {
  if (!replay) return {};
  return {
    id: replay.id,
    state: ReplayState[replay.state]?.replace('REPLAY_STATE_', '').toLowerCase(),
    recordsRead: replay.recordsRead,
    eventsCounted: replay.eventsCounted,
    recordsLeft: replay.recordsLeft,
    generation: replay.generation,
    startedAt: replay.startedAt?.toISOString(),
    finishedAt: replay.finishedAt?.toISOString(),
    ...(replay.error ? { error: replay.error } : {}),
  };
}

const client = statsOperatorClient();
const { stats, address } = client;
try {
  const from = values.from ?? 'earliest';
  let replay = (await stats.startReplay(startRequest(from))).replay;
  printJson({ stats: address, from, ...view(replay) });
  while (replay?.state === ReplayState.REPLAY_STATE_RUNNING) {
    await sleep(Number(values['interval-ms']));
    replay = (await stats.getReplay({ id: replay.id })).replay;
    printJson(view(replay));
  }
  if (replay?.state !== ReplayState.REPLAY_STATE_SWAPPED) process.exitCode = 1;
} catch (error) {
  printJson({ stats: address, error: errorText(error) });
  process.exitCode = 1;
} finally {
  client.close();
}
