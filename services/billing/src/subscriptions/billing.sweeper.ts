import type { Logger } from 'pino';
import type { Component } from '@ipdata/common';

export interface SweepResult {
  expiredOrders: number;
  appliedChanges: number;
  flushedOutboxes: number;
}

/**
 * The period-end scheduler: every interval it expires unpaid orders, applies due downgrades,
 * cancellations and renewals, and re-sends unsent subscription changes. All of it reads the
 * injectable clock, and tests call runOnce() directly after moving it.
 */
export class BillingSweeper implements Component {
  readonly name = 'billing-sweeper';
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<SweepResult> | undefined;

  constructor(
    private readonly tasks: {
      expireOrders: () => Promise<number>;
      applyDueChanges: () => Promise<number>;
      flushPending: () => Promise<number>;
    },
    private readonly intervalMs: number,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    this.timer = setInterval(() => {
      this.runOnce().catch((error: unknown) => this.logger.error({ err: error }, 'sweep failed'));
    }, this.intervalMs);
    this.timer.unref();
  }

  /** One sweep; overlapping calls share the one in progress. */
  runOnce(): Promise<SweepResult> {
    this.running ??= this.sweep().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  async shutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  private async sweep(): Promise<SweepResult> {
    const result = {
      expiredOrders: await this.tasks.expireOrders(),
      appliedChanges: await this.tasks.applyDueChanges(),
      flushedOutboxes: await this.tasks.flushPending(),
    };
    if (result.expiredOrders + result.appliedChanges + result.flushedOutboxes > 0)
      this.logger.info(result, 'sweep applied changes');
    return result;
  }
}
