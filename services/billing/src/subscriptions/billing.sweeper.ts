import type { Logger } from 'pino';

export interface SweepResult {
  expiredOrders: number;
  appliedChanges: number;
}

/**
 * The period-end work: expires unpaid orders and applies due downgrades, cancellations and
 * renewals (unsent changes are the outbox relay's job). All of it reads the injectable clock.
 * app.ts runs it on a common PeriodicTask (SWEEP_INTERVAL_MS); tests call runOnce() directly
 * after moving the clock.
 */
export class BillingSweeper {
  private running: Promise<SweepResult> | undefined;

  constructor(
    private readonly tasks: {
      expireOrders: () => Promise<number>;
      applyDueChanges: () => Promise<number>;
    },
    private readonly logger: Logger,
  ) {}

  /** One sweep; overlapping calls (a test's and the timer's) share the one in progress. */
  runOnce(): Promise<SweepResult> {
    this.running ??= this.sweep().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async sweep(): Promise<SweepResult> {
    const result = {
      expiredOrders: await this.tasks.expireOrders(),
      appliedChanges: await this.tasks.applyDueChanges(),
    };
    if (result.expiredOrders + result.appliedChanges > 0) this.logger.info(result, 'sweep applied changes');
    return result;
  }
}
