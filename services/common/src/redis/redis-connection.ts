import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { UnavailableError } from '../errors/domain-errors.js';
import type { Component } from '../lifecycle/lifecycle.js';
import { retry } from '../lifecycle/retry.js';
import { errorText } from '../errors/error-text.js';
import { redactUrl } from '../mongo/mongo-connection.js';

export interface RedisConfig {
  url: string;
  connectAttempts?: number;
  /** A command that gets no answer within this time fails instead of hanging a request. */
  commandTimeoutMs?: number;
}

export class RedisConnection implements Component {
  readonly name = 'redis';
  readonly client: Redis;

  private constructor(
    private readonly config: RedisConfig,
    private readonly logger: Logger,
  ) {
    this.client = new Redis(config.url, {
      lazyConnect: true,
      commandTimeout: config.commandTimeoutMs ?? 2_000,
      // Fail fast while disconnected; callers decide whether to retry, reconnects go on in the background.
      maxRetriesPerRequest: 1,
      retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 5), 2_000),
    });
    // Without a listener ioredis reports every failed reconnect as an unhandled error.
    this.client.on('error', (error: Error) => this.logger.debug({ reason: error.message }, 'redis connection error'));
  }

  static fromConfig(config: RedisConfig, logger: Logger): RedisConnection {
    return new RedisConnection(config, logger);
  }

  async start(): Promise<void> {
    const where = redactUrl(this.config.url);
    const attempts = this.config.connectAttempts ?? 10;
    try {
      await retry(
        async () => {
          if (this.client.status === 'wait' || this.client.status === 'end') await this.client.connect();
          await this.client.ping();
        },
        {
          attempts,
          initialDelayMs: 250,
          maxDelayMs: 3_000,
          onRetry: (error, attempt, delayMs) =>
            this.logger.warn({ where, attempt, delayMs, reason: errorText(error) }, 'Redis not reachable yet, retrying'),
        },
      );
    } catch (error) {
      this.client.disconnect();
      throw new UnavailableError(`cannot reach Redis at ${where} after ${attempts} attempts: ${errorText(error)}`, {
        cause: error,
      });
    }
    this.logger.info({ where }, 'connected to Redis');
  }

  async isReady(): Promise<boolean> {
    if (this.client.status !== 'ready') return false;
    try {
      return (await this.client.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async shutdown(): Promise<void> {
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }
}
