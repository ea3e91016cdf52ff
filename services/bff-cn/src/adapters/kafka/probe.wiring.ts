import type { Kafka } from 'kafkajs';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { TOPICS, ensureTopics, moduleLogger, startupStep, topicSpecs, type EventProducer, type Lifecycle } from '@ipdata/common';
import type { BffCnConfig } from '../../config.js';
import type { IpLookupEngine } from '../../lookups/lookup.ports.js';
import { DnsTargetResolver } from '../../traceroute/target-resolver.js';
import { TracerouteService } from '../../traceroute/traceroute.service.js';
import { RedisProbeStateStore, RedisProbeTaskLimiter } from '../redis/probe-state.redis.js';
import { probeResultConsumer } from './probe.result-consumer.js';
import { KafkaProbeTaskPublisher } from './probe.task-publisher.js';

export interface TracerouteWiring {
  config: BffCnConfig;
  lifecycle: Lifecycle;
  kafka: Kafka;
  producer: EventProducer;
  redis: Redis;
  engine: IpLookupEngine;
  redisPrefix: string;
  logger: Logger;
}

/**
 * Network detection's parts, kept out of app.ts: the probe topics, the Redis state, the
 * probe.result.v1 consumer (advisory: lookups go on while it is down; tasks then stay pending and
 * time out) and the service behind traceroute_task_*.
 */
export function wireTraceroute(w: TracerouteWiring): TracerouteService {
  const { config, lifecycle, logger } = w;
  lifecycle.register(
    startupStep('probe-topics', () => ensureTopics(w.kafka, topicSpecs([TOPICS.probeTask, TOPICS.probeResult]), logger)),
  );
  const store = new RedisProbeStateStore(w.redis, { prefix: w.redisPrefix, ttlSeconds: config.PROBE_STATE_TTL_SECONDS });
  lifecycle.register(
    probeResultConsumer(
      {
        kafka: w.kafka,
        groupId: config.PROBE_RESULTS_GROUP_ID,
        fromBeginning: config.PROBE_RESULTS_NEW_GROUP_START === 'earliest',
        dlqProducer: w.producer,
        store,
      },
      moduleLogger(logger, 'probe-results'),
    ),
    { readiness: 'advisory' },
  );
  const resolver = new DnsTargetResolver({ servers: config.DNS_SERVERS, timeoutMs: config.DNS_TIMEOUT_MS });
  lifecycle.register({
    name: 'dns-resolver',
    start: () => Promise.resolve(),
    shutdown: () => Promise.resolve(resolver.shutdown()),
  });
  return new TracerouteService(
    {
      allowPrivate: config.PROBE_ALLOW_PRIVATE,
      maxHops: config.PROBE_MAX_HOPS,
      taskTtlMs: config.PROBE_TASK_TTL_SECONDS * 1000,
      resultGraceMs: config.PROBE_RESULT_GRACE_SECONDS * 1000,
    },
    {
      publisher: new KafkaProbeTaskPublisher(w.producer),
      store,
      limiter: new RedisProbeTaskLimiter(w.redis, {
        limit: config.PROBE_TASK_LIMIT,
        windowSeconds: config.PROBE_TASK_WINDOW_SECONDS,
        prefix: w.redisPrefix,
      }),
      resolver,
      engine: w.engine,
      logger: moduleLogger(logger, 'traceroute'),
    },
  );
}
