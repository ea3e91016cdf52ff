import type { Logger } from 'pino';
import { errorText } from '../errors/error-text.js';
import type { Component } from './lifecycle.js';

export interface PeriodicTaskConfig {
  /** Component name in logs and readiness checks, e.g. 'outbox-relay'. */
  name: string;
  intervalMs: number;
  run: () => Promise<unknown>;
}

/**
 * Runs a task every interval while the service runs (sweepers, outbox relays). A failed run is
 * logged and the next one happens on schedule: a dependency down for a while must not stop the
 * service. Runs never overlap (the next is scheduled after the previous ended), and shutdown
 * waits for a run in progress so it does not race the connections closing after it.
 */
export class PeriodicTask implements Component {
  readonly name: string;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;

  private constructor(
    private readonly config: PeriodicTaskConfig,
    private readonly logger: Logger,
  ) {
    this.name = config.name;
  }

  static fromConfig(config: PeriodicTaskConfig, logger: Logger): PeriodicTask {
    if (!(config.intervalMs > 0)) throw new RangeError(`${config.name}: intervalMs must be positive, got ${config.intervalMs}`);
    return new PeriodicTask(config, logger);
  }

  async start(): Promise<void> {
    this.stopped = false;
    this.schedule();
  }

  /**
   * Runs the task now (tests, or a caller that knows there is work); waits for a run already in
   * progress instead of starting a second one. Never rejects: errors are logged.
   */
  runNow(): Promise<void> {
    this.running ??= this.runOnce().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  async shutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.runNow().then(() => this.schedule());
    }, this.config.intervalMs);
    // A pending run must not keep a process alive that is otherwise done (tests, CLI tools).
    this.timer.unref();
  }

  private async runOnce(): Promise<void> {
    try {
      await this.config.run();
    } catch (error) {
      this.logger.warn({ err: error, task: this.name, reason: errorText(error) }, `${this.name} failed`);
    }
  }
}

/**
 * A start-up step as a Component: work that must finish before the next component starts
 * (creating indexes or topics) and has nothing to stop.
 */
export function startupStep(name: string, start: () => Promise<unknown>): Component {
  return {
    name,
    start: async () => {
      await start();
    },
    shutdown: async () => undefined,
  };
}
