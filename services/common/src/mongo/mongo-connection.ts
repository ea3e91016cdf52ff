import mongoose, { type Connection } from 'mongoose';
import type { Logger } from 'pino';
import { UnavailableError } from '../errors/domain-errors.js';
import { errorText } from '../errors/error-text.js';
import type { Component } from '../lifecycle/lifecycle.js';
import { retry } from '../lifecycle/retry.js';

export interface MongoConfig {
  url: string;
  /** Connection attempts at start-up before giving up. */
  connectAttempts?: number;
  serverSelectionTimeoutMs?: number;
}

/** Hides user and password when a URL is shown in an error or a log line. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    if (parsed.username) parsed.username = '***';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}

/**
 * One mongoose connection per service. Runs unchanged against real MongoDB (compose, k8s) and
 * FerretDB (local stack): code relies on neither multi-document transactions nor change
 * streams, which FerretDB 1.x does not have.
 */
export class MongoConnection implements Component {
  readonly name = 'mongo';
  private readonly conn: Connection;

  private constructor(
    private readonly config: MongoConfig,
    private readonly logger: Logger,
  ) {
    this.conn = mongoose.createConnection();
  }

  static fromConfig(config: MongoConfig, logger: Logger): MongoConnection {
    return new MongoConnection(config, logger);
  }

  /** Models are defined on this connection (not the global mongoose) so tests can isolate databases. */
  get connection(): Connection {
    return this.conn;
  }

  async start(): Promise<void> {
    const where = redactUrl(this.config.url);
    const attempts = this.config.connectAttempts ?? 10;
    try {
      await retry(
        () =>
          this.conn.openUri(this.config.url, {
            serverSelectionTimeoutMS: this.config.serverSelectionTimeoutMs ?? 3_000,
            // Indexes are created explicitly by repositories at start-up (syncIndexes) so a
            // failure to build one is a start-up error, not a silent background failure.
            autoIndex: false,
          }),
        {
          attempts,
          initialDelayMs: 250,
          maxDelayMs: 3_000,
          onRetry: (error, attempt, delayMs) =>
            this.logger.warn({ where, attempt, delayMs, reason: errorText(error) }, 'MongoDB not reachable yet, retrying'),
        },
      );
    } catch (error) {
      throw new UnavailableError(`cannot reach MongoDB at ${where} after ${attempts} attempts: ${errorText(error)}`, {
        cause: error,
      });
    }
    this.logger.info({ where }, 'connected to MongoDB');
  }

  async isReady(): Promise<boolean> {
    const db = this.conn.db;
    if (this.conn.readyState !== mongoose.ConnectionStates.connected || db === undefined) return false;
    try {
      await db.admin().ping({ timeoutMS: 1_000 });
      return true;
    } catch {
      return false;
    }
  }

  async shutdown(): Promise<void> {
    await this.conn.close();
  }
}
