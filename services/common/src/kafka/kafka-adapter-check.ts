import { createRequire } from 'node:module';
import type { Logger } from 'pino';
import type { Component } from '../lifecycle/lifecycle.js';

/**
 * The Kafka client the services are tested with: kafkajs at the version package-lock.json pins
 * (kafka-adapter-check.test.ts holds the two equal), with patches/kafkajs+2.2.4.patch applied.
 * Choosing this client: docs/adr/0002-kafka-client.md.
 */
export const TESTED_KAFKAJS_VERSION = '2.2.4';

/** What the check looks at; tests pass other answers. */
export interface KafkaAdapterProbe {
  /** The version of the kafkajs the process loaded. */
  installedVersion(): string;
  /** Whether an idle request queue schedules no timer (the patch's idle-timer fix in effect). */
  idleQueueSchedulesNothing(): boolean;
}

interface KafkajsRequestQueue {
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  push(request: { entry: object; expectResponse: boolean; sendRequest: () => void }): void;
  fulfillRequest(response: { correlationId: number; payload: Buffer; size: number }): void;
  destroy(): void;
}

const require = createRequire(import.meta.url);
const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** kafkajs as loaded by this process (the same module resolution as `import 'kafkajs'`). */
export const kafkajsProbe: KafkaAdapterProbe = {
  installedVersion: () => (require('kafkajs/package.json') as { version: string }).version,
  idleQueueSchedulesNothing: () => {
    const RequestQueue = require('kafkajs/src/network/requestQueue/index.js') as new (options: object) => KafkajsRequestQueue;
    const queue = new RequestQueue({
      maxInFlightRequests: 1,
      requestTimeout: 30_000,
      enforceRequestTimeout: false,
      clientId: 'kafka-adapter-check',
      broker: 'kafka-adapter-check',
      logger: silent,
    });
    try {
      // One request answered, nothing pending: the broker connection's idle state. Unpatched,
      // the queue schedules its next check anyway (a 1 ms timer loop for as long as it lives).
      queue.push({
        entry: { correlationId: 1, resolve: () => undefined, reject: () => undefined },
        expectResponse: true,
        sendRequest: () => undefined,
      });
      queue.fulfillRequest({ correlationId: 1, payload: Buffer.alloc(0), size: 0 });
      return queue.throttleCheckTimeoutId === null;
    } finally {
      queue.destroy();
    }
  },
};

/** Empty when the process runs the Kafka client it was tested with; otherwise one line per difference. */
export function kafkaAdapterProblems(probe: KafkaAdapterProbe = kafkajsProbe): string[] {
  const problems: string[] = [];
  try {
    const version = probe.installedVersion();
    if (version !== TESTED_KAFKAJS_VERSION) {
      problems.push(`kafkajs ${version} is installed; the services are tested with ${TESTED_KAFKAJS_VERSION}`);
    }
  } catch (error) {
    problems.push(`kafkajs' version cannot be read: ${(error as Error).message}`);
  }
  try {
    if (!probe.idleQueueSchedulesNothing()) {
      problems.push(
        'kafkajs runs without the idle-timer fix of patches/kafkajs+2.2.4.patch (an idle request queue schedules a timer)',
      );
    }
  } catch (error) {
    problems.push(`kafkajs' request queue cannot be checked: ${(error as Error).message}`);
  }
  return problems;
}

/**
 * A start-up check as a lifecycle component (`kafka-adapter`): registered with required
 * readiness, `/readyz` is false while the process runs another Kafka client than the tested one.
 * It does not stop the start (the service's other checks stay visible); it logs the problems once.
 */
export class KafkaAdapterCheck implements Component {
  readonly name = 'kafka-adapter';
  private problems: string[] | undefined;

  private constructor(
    private readonly probe: KafkaAdapterProbe,
    private readonly logger: Logger,
  ) {}

  static fromConfig(config: { probe?: KafkaAdapterProbe }, logger: Logger): KafkaAdapterCheck {
    return new KafkaAdapterCheck(config.probe ?? kafkajsProbe, logger);
  }

  async start(): Promise<void> {
    this.problems = kafkaAdapterProblems(this.probe);
    if (this.problems.length > 0) {
      this.logger.error({ problems: this.problems }, 'not the Kafka client the service was tested with: not ready');
    }
  }

  async isReady(): Promise<boolean> {
    return this.problems !== undefined && this.problems.length === 0;
  }

  async shutdown(): Promise<void> {}
}
