import { resolve } from 'node:path';
import type { Redis } from 'ioredis';
import { BulkJobs } from '@ipdata/bulk-jobs';
import { type Lifecycle, MongoConnection, moduleLogger, systemClock, type Logger } from '@ipdata/common';
import type { LookupServiceClient } from '@ipdata/proto/lookup/v1/lookup';
import { BatchLookupProcessor } from '../batch/batch.processor.js';
import { BatchService } from '../batch/batch.service.js';
import { billingVipCheck } from '../batch/vip-check.js';
import type { BffCnConfig } from '../config.js';
import type { SessionResolver } from '../face-a/face-a.dispatcher.js';
import type { UsageEmitter } from '../usage/usage-emitter.js';
import type { VipBilling } from '../vip/vip.ports.js';
import { GrpcBatchLookupEngine } from './grpc/batch-lookup.adapter.js';
import { RedisVisitorRateLimiter } from './redis/visitor-limit.redis.js';

/** Jobs and their files are only needed until the call answered; kept a little for support. */
const BATCH_TTL_MS = 60 * 60 * 1000;

/**
 * The batch calls' parts: MongoDB (the bulk engine's jobs), the shared bulk engine (registered
 * after Mongo so it stops first: a running job checkpoints and is handed back), the processor on
 * the lookup engine's tuned client, and the batch call limit in Redis.
 */
export function wireBatch(deps: {
  config: BffCnConfig;
  lifecycle: Lifecycle;
  lookupClient: LookupServiceClient;
  usage: UsageEmitter;
  redis: Redis;
  sessions: SessionResolver;
  billing: VipBilling;
  redisPrefix: string;
  logger: Logger;
}): BatchService {
  const { config, lifecycle, logger } = deps;
  const mongo = lifecycle.register(MongoConnection.fromConfig({ url: config.MONGO_URL }, moduleLogger(logger, 'mongo')));
  const jobs = lifecycle.register(
    BulkJobs.fromConfig(
      {
        mongo,
        // Not bff-en's `bulk_jobs`: under `make up` both BFFs use the database `ipdata`.
        collectionPrefix: 'face_a_batch',
        directory: resolve(config.BATCH_DIR),
        processor: new BatchLookupProcessor({
          engine: new GrpcBatchLookupEngine(deps.lookupClient, config.GRPC_DEADLINE_MS),
          usage: deps.usage,
        }),
        // The engine's batch size: one BatchLookupCompact call per chunk.
        chunkSize: 1_000,
        concurrency: config.BATCH_CONCURRENT_JOBS,
        maxLines: Math.max(config.BATCH_MAX_ROWS, config.BATCH_VIP_MAX_ROWS),
        maxInputBytes: config.UPLOAD_MAX_BYTES * 4,
        ttlMs: BATCH_TTL_MS,
        sweepIntervalMs: 10 * 60 * 1000,
      },
      moduleLogger(logger, 'bulk-jobs'),
    ),
  );
  return new BatchService({
    jobs,
    limiter: new RedisVisitorRateLimiter(deps.redis, {
      limit: config.BATCH_RATE_LIMIT,
      windowSeconds: config.BATCH_RATE_WINDOW_SECONDS,
      prefix: deps.redisPrefix,
      scope: 'batch',
    }),
    sessions: deps.sessions,
    vip: billingVipCheck(deps.billing, systemClock, moduleLogger(logger, 'batch')),
    limits: {
      maxRows: config.BATCH_MAX_ROWS,
      vipMaxRows: config.BATCH_VIP_MAX_ROWS,
      waitMs: config.BATCH_WAIT_SECONDS * 1000,
    },
    logger: moduleLogger(logger, 'batch'),
  });
}
