import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { Lifecycle } from '../lifecycle/lifecycle.js';
import {
  KafkaAdapterCheck,
  TESTED_KAFKAJS_VERSION,
  kafkaAdapterProblems,
  kafkajsProbe,
  type KafkaAdapterProbe,
} from './kafka-adapter-check.js';

const logger = pino({ level: 'silent' });
const lockfile = fileURLToPath(new URL('../../../../package-lock.json', import.meta.url));

/** What kafkajs 2.2.4 does without the patch: an idle queue still schedules its next check. */
class UnpatchedRequestQueue {
  throttleCheckTimeoutId: NodeJS.Timeout | null = null;
  private readonly pending: object[] = [];
  push(): void {}
  fulfillRequest(): void {
    this.scheduleCheckPendingRequests();
  }
  scheduleCheckPendingRequests(): void {
    if (!this.throttleCheckTimeoutId) {
      this.throttleCheckTimeoutId = setTimeout(() => (this.throttleCheckTimeoutId = null), this.pending.length > 0 ? 10 : 1);
    }
  }
  destroy(): void {
    if (this.throttleCheckTimeoutId) clearTimeout(this.throttleCheckTimeoutId);
  }
}

const unpatched: KafkaAdapterProbe = {
  installedVersion: () => TESTED_KAFKAJS_VERSION,
  idleQueueSchedulesNothing: () => {
    const queue = new UnpatchedRequestQueue();
    try {
      queue.push();
      queue.fulfillRequest();
      return queue.throttleCheckTimeoutId === null;
    } finally {
      queue.destroy();
    }
  },
};

async function readiness(probe?: KafkaAdapterProbe) {
  const lifecycle = new Lifecycle({ logger, exit: () => undefined });
  lifecycle.register(KafkaAdapterCheck.fromConfig(probe === undefined ? {} : { probe }, logger));
  await lifecycle.start();
  return lifecycle.readiness();
}

describe('Kafka adapter self-check', () => {
  it('pins the kafkajs version package-lock.json installs', () => {
    const lock = JSON.parse(readFileSync(lockfile, 'utf8')) as { packages: Record<string, { version?: string }> };
    expect(lock.packages['node_modules/kafkajs']?.version).toBe(TESTED_KAFKAJS_VERSION);
  });

  it('finds nothing wrong with the kafkajs installed here (patched), and the service is ready', async () => {
    expect(kafkaAdapterProblems()).toEqual([]);
    expect(kafkajsProbe.idleQueueSchedulesNothing()).toBe(true);
    expect(await readiness()).toEqual({ ready: true, checks: { 'kafka-adapter': true } });
  });

  it('reports kafkajs without the idle-timer fix, and the service is not ready', async () => {
    expect(kafkaAdapterProblems(unpatched)).toEqual([
      'kafkajs runs without the idle-timer fix of patches/kafkajs+2.2.4.patch (an idle request queue schedules a timer)',
    ]);
    expect(await readiness(unpatched)).toEqual({ ready: false, checks: { 'kafka-adapter': false } });
  });

  it('reports another kafkajs version or one that cannot be read, and the service is not ready', async () => {
    const newer: KafkaAdapterProbe = { ...kafkajsProbe, installedVersion: () => '2.3.0' };
    expect(kafkaAdapterProblems(newer)).toEqual([
      `kafkajs 2.3.0 is installed; the services are tested with ${TESTED_KAFKAJS_VERSION}`,
    ]);
    expect((await readiness(newer)).ready).toBe(false);
    const missing: KafkaAdapterProbe = {
      installedVersion: () => {
        throw new Error("Cannot find module 'kafkajs/package.json'");
      },
      idleQueueSchedulesNothing: () => {
        throw new Error("Cannot find module 'kafkajs/src/network/requestQueue/index.js'");
      },
    };
    expect(kafkaAdapterProblems(missing)).toHaveLength(2);
    expect((await readiness(missing)).ready).toBe(false);
  });

  it('is not ready before its start', async () => {
    expect(await KafkaAdapterCheck.fromConfig({}, logger).isReady()).toBe(false);
  });
});
