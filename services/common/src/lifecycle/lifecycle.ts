import type { Logger } from 'pino';
import { shutdownTelemetry } from '../telemetry/telemetry.js';

/**
 * Anything that owns a connection or a listener. Every such object has the same shape
 * (services/README.md, step 7): built by a static fromConfig(), then start() and shutdown(), registered here.
 */
export interface Component {
  readonly name: string;
  start(): Promise<void>;
  /** Stops taking new work, drains what is in flight, closes connections. */
  shutdown(): Promise<void>;
  /** Whether the component can do its job right now (dependency reachable). */
  isReady?(): Promise<boolean>;
}

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, boolean>;
}

export interface LifecycleOptions {
  logger: Logger;
  shutdownTimeoutMs?: number;
  /** Called instead of process.exit; tests replace it. */
  exit?: (code: number) => void;
}

/**
 * Starts components in registration order and shuts them down in reverse order. Readiness is
 * false until every component started, and false again as soon as shutdown begins, so load
 * balancers stop sending work before connections close.
 */
export class Lifecycle {
  private readonly components: Component[] = [];
  private readonly started: Component[] = [];
  /** Components whose health is reported in /readyz checks but does not decide readiness. */
  private readonly advisory = new Set<Component>();
  private state: 'idle' | 'starting' | 'running' | 'stopping' | 'stopped' = 'idle';
  private shutdownPromise: Promise<void> | undefined;

  constructor(private readonly options: LifecycleOptions) {}

  /**
   * `readiness: 'advisory'`: the component's isReady shows in the checks but does not make the
   * service unready, for dependencies the service keeps working without (bff-en answers while
   * Kafka is down; its usage events wait in a journal).
   */
  register<C extends Component>(component: C, options: { readiness?: 'required' | 'advisory' } = {}): C {
    this.components.push(component);
    if (options.readiness === 'advisory') this.advisory.add(component);
    return component;
  }

  get isRunning(): boolean {
    return this.state === 'running';
  }

  async start(): Promise<void> {
    this.state = 'starting';
    for (const component of this.components) {
      this.options.logger.debug({ component: component.name }, 'starting component');
      await component.start();
      this.started.push(component);
    }
    this.state = 'running';
    this.options.logger.info({ components: this.components.map((c) => c.name) }, 'service started');
  }

  async readiness(): Promise<ReadinessReport> {
    const checks: Record<string, boolean> = {};
    await Promise.all(
      this.components.map(async (component) => {
        checks[component.name] = component.isReady ? await component.isReady().catch(() => false) : true;
      }),
    );
    const ready =
      this.state === 'running' &&
      this.components.every((component) => this.advisory.has(component) || checks[component.name] !== false);
    return { ready, checks };
  }

  /** Idempotent; a second call waits for the first. */
  shutdown(reason = 'shutdown requested'): Promise<void> {
    this.shutdownPromise ??= this.runShutdown(reason);
    return this.shutdownPromise;
  }

  private async runShutdown(reason: string): Promise<void> {
    this.state = 'stopping';
    this.options.logger.info({ reason }, 'shutting down');
    for (const component of [...this.started].reverse()) {
      try {
        await component.shutdown();
      } catch (error) {
        this.options.logger.error({ err: error, component: component.name }, 'component failed to shut down cleanly');
      }
    }
    this.state = 'stopped';
    this.options.logger.info('shutdown complete');
    await shutdownTelemetry().catch(() => undefined);
  }

  /**
   * SIGTERM/SIGINT start a graceful shutdown bounded by shutdownTimeoutMs; a second signal (at
   * least a second after the first) or the timeout exits at once with a non-zero code. Copies of
   * the first signal arriving together (a process group and its leader both signalled, as
   * supervisors do) do not count as a second one.
   */
  handleSignals(signals: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT']): void {
    const exit = this.options.exit ?? ((code: number) => process.exit(code));
    let firstSignalAt = 0;
    for (const signal of signals) {
      process.on(signal, () => {
        if (this.shutdownPromise) {
          if (Date.now() - firstSignalAt < 1_000) return;
          this.options.logger.warn({ signal }, 'second signal, exiting now');
          exit(1);
          return;
        }
        firstSignalAt = Date.now();
        const timer = setTimeout(() => {
          this.options.logger.error({ timeoutMs: this.options.shutdownTimeoutMs }, 'shutdown timed out, exiting');
          exit(1);
        }, this.options.shutdownTimeoutMs ?? 25_000);
        timer.unref();
        void this.shutdown(signal).then(() => exit(0));
      });
    }
  }
}

/** Runs main, turning a failure to start into one log line and exit code 1. */
export async function runService(logger: Logger, lifecycle: Lifecycle): Promise<void> {
  lifecycle.handleSignals();
  try {
    await lifecycle.start();
  } catch (error) {
    logger.fatal({ err: error }, `failed to start: ${error instanceof Error ? error.message : String(error)}`);
    await lifecycle.shutdown('start failed');
    process.exit(1);
  }
}
