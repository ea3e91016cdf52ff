import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { EventConsumer, TOPICS, type EventProducer } from '@ipdata/common';
import { ProbeState, type ProbeResult } from '@ipdata/proto/events/v1/probe';
import type { StoredHeartbeat } from '../../traceroute/task-progress.js';
import type { ProgressUpdate, RedisProbeStateStore } from '../redis/probe-state.redis.js';

export interface ProbeResultConsumerConfig {
  kafka: Kafka;
  /**
   * One group shared by every bff-cn replica: each record is written once into the shared Redis
   * state, which every replica reads. Writes are idempotent (hops by TTL, first final wins), so a
   * record delivered again after a rebalance changes nothing.
   */
  groupId: string;
  fromBeginning: boolean;
  dlqProducer: EventProducer;
  store: RedisProbeStateStore;
}

/** probe.result.v1 → Redis: task progress (only for tasks bff-cn stored) and worker heartbeats. */
export function probeResultConsumer(config: ProbeResultConsumerConfig, logger: Logger): EventConsumer<ProbeResult> {
  return EventConsumer.fromConfig(
    {
      kafka: config.kafka,
      groupId: config.groupId,
      topic: TOPICS.probeResult,
      dlqProducer: config.dlqProducer,
      fromBeginning: config.fromBeginning,
      handler: async ({ event, time }) => {
        if (event.taskId === '') {
          const beat = heartbeatOf(event, time);
          if (beat !== undefined) await config.store.recordHeartbeat(beat);
          return;
        }
        const stored = await config.store.recordProgress(progressOf(event));
        if (!stored) logger.debug({ taskId: event.taskId }, 'result of an unknown task ignored');
      },
    },
    logger,
  );
}

export function progressOf(result: ProbeResult): ProgressUpdate {
  const final =
    result.state === ProbeState.PROBE_STATE_DONE
      ? { state: 'done' as const, error: '' }
      : result.state === ProbeState.PROBE_STATE_FAILED
        ? { state: 'failed' as const, error: result.error || '探测失败' }
        : undefined;
  return {
    taskId: result.taskId,
    started: true,
    hops: result.hops
      .filter((hop) => hop.ttl >= 1 && hop.ttl <= 255)
      .map((hop) => ({
        ttl: hop.ttl,
        ip: hop.ip,
        rttMs: hop.rttMs,
        sent: hop.sent,
        lost: hop.lost,
        otherIps: hop.otherIps,
        annotations: hop.annotations,
      })),
    ...(final ? { final } : {}),
  };
}

function heartbeatOf(result: ProbeResult, time: string): StoredHeartbeat | undefined {
  const beat = result.heartbeat;
  const sentAt = Date.parse(time);
  if (beat === undefined || result.workerId === '' || result.site === '' || Number.isNaN(sentAt)) return undefined;
  return {
    workerId: result.workerId,
    site: result.site,
    siteName: beat.siteName,
    running: beat.running,
    capacity: beat.capacity,
    sentAt,
    intervalSeconds: beat.intervalSeconds,
  };
}
