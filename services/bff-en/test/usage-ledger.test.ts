/**
 * The usage ledger against the real broker of the test stack: events recorded while the broker
 * is stopped reach the topic once it is back, and a process killed with SIGKILL loses no event
 * whose id it printed after record() returned. A consumer counts the events by id (consumers
 * de-duplicate on it: a re-send after a crash is allowed, a missing id is not).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { UsageEvent } from '@ipdata/proto/events/v1/usage';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafka, ensureTopics, keyPartition, murmur2, readCloudEventAttributes, topicSpecs } from '@ipdata/common';
import { TopicRecorder, stackAddresses, uniqueName, waitFor } from '@ipdata/common/testing';
import { localStack, testStackEnv } from '../../../scripts/test/local-stack.js';
import { UsageKafkaWorkerSink } from '../src/adapters/kafka/usage-kafka-worker.sink.js';
import { UsageLedger } from '../src/usage/usage-ledger.js';
import { usageEventKey } from '../src/usage/usage-record.js';
import { ledgerTestRecord, usageLedgerTestTopic } from './fixtures/usage-ledger-topic.js';

const logger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });
const stack = stackAddresses();
const writer = fileURLToPath(new URL('./fixtures/usage-ledger-writer.ts', import.meta.url));
const dirs: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'usage-ledger-it-'));
  dirs.push(dir);
  return dir;
}

/**
 * Stopping the broker is possible only for the local stack of plain processes, and only when
 * the stack that infra/local/stack.sh would stop (TEST_STACK_DIR, TEST_KAFKA_PORT, ...) is the
 * one the tests use: never stop someone else's broker.
 */
function brokerControl(): { stop(): Promise<unknown>; start(): Promise<unknown> } | undefined {
  if (process.env['TEST_STACK_KIND'] === 'testcontainers') return undefined;
  const port = testStackEnv()['KAFKA_PORT'];
  if (!stack.kafkaBrokers.some((broker) => broker.endsWith(`:${port}`))) return undefined;
  return { stop: () => localStack('down', ['kafka']), start: () => localStack('up', ['kafka']) };
}

/** Waits until every id is on the topic, then checks that nothing else with the prefix is. */
async function expectEveryIdOnTopic(recorder: TopicRecorder<UsageEvent>, ids: readonly string[], prefix: string) {
  const wanted = new Set(ids);
  const seen = () => new Set(recorder.events.map((event) => event.meta?.id ?? '').filter((id) => id.startsWith(prefix)));
  const missing = () => {
    const now = seen();
    return ids.filter((id) => !now.has(id));
  };
  await waitFor(() => missing().length === 0, {
    timeoutMs: 90_000,
    intervalMs: 250,
    what: `${wanted.size} events on the topic`,
  }).catch((error: Error) => {
    const left = missing();
    throw new Error(`${error.message}: ${left.length} missing, first ${left.slice(0, 5).join(', ')}`);
  });
  const records = recorder.events.filter((event) => event.meta?.id.startsWith(prefix));
  expect(seen()).toEqual(wanted); // after de-duplication by id: each accepted event exactly once
  // Record batches are written by the ledger itself (usageRecordBatches): the key, partition and
  // CloudEvents headers the consumers read must be each event's own, on the partition the Java
  // clients would put its key.
  const { partitions } = usageLedgerTestTopic(recorder.topic.name);
  for (const { event, key, headers, partition } of recorder.records.filter((record) =>
    record.event.meta?.id.startsWith(prefix),
  )) {
    expect(key).toBe(usageEventKey(event));
    expect(partition).toBe(keyPartition(murmur2(Buffer.from(key ?? '')), partitions));
    expect(readCloudEventAttributes(headers)).toEqual({
      id: event.meta?.id,
      type: usageLedgerTestTopic(recorder.topic.name).eventType,
      source: event.meta?.source,
      time: event.meta?.time?.toISOString(),
    });
  }
  return { records: records.length, duplicates: records.length - wanted.size };
}

/** A writer process whose stdout lines (ids, `started`, `stats {...}`) are collected as they come. */
function startWriter(env: Record<string, string>): { child: ChildProcess; lines: string[] } {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', writer], {
    env: { ...process.env, KAFKA_BROKERS: stack.kafkaBrokers.join(','), ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  let rest = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop() ?? '';
    lines.push(...parts);
  });
  return { child, lines };
}

describe('usage ledger on the real broker', () => {
  const kafka = createKafka({ brokers: stack.kafkaBrokers, clientId: 'usage-ledger-test' }, logger);

  afterAll(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** A topic of its own and a worker-thread sink, started before the enclosing block's tests and shut down after them. */
  function workerSinkOnOwnTopic(topicName: string, clientId: string, logLevel: string) {
    const topic = usageLedgerTestTopic(uniqueName(topicName));
    const sink = UsageKafkaWorkerSink.fromConfig(
      { brokers: stack.kafkaBrokers, clientId, logLevel, sendTimeoutMs: 3_000 },
      logger,
    );
    beforeAll(async () => {
      await ensureTopics(kafka, topicSpecs([topic]), logger);
      await sink.start();
    });
    afterAll(async () => {
      await sink.shutdown();
    });
    return { topic, sink };
  }

  describe('a burst of one key, more than the broker takes in one record batch', () => {
    const { topic, sink: producer } = workerSinkOnOwnTopic('test.usage-ledger.burst', 'usage-ledger-test-burst', 'warn');

    it('puts every event on the topic: sends are cut below the 1-MiB batch limit, whatever batchSize allows', async () => {
      const dir = tempDir();
      const ledger = UsageLedger.fromConfig({ dir, producer, source: 'bff-en', topic, batchSize: 10_000, lingerMs: 200 }, logger);
      await ledger.start();
      try {
        const prefix = uniqueName('burst');
        const ids = Array.from({ length: 5_000 }, (_, i) => `${prefix}-${i}`);
        // n = 5i: every event on key-0, so one partition (~1.5 MB of records in one turn). The
        // broker refuses such a batch for good: without the cut, every retry fails the same way.
        await Promise.all(ids.map((id, i) => ledger.record(ledgerTestRecord(id, 5 * i))));
        const recorder = await TopicRecorder.start(topic, { kafka });
        try {
          await expectEveryIdOnTopic(recorder, ids, prefix).catch((error: Error) => {
            throw new Error(`${error.message}; ledger ${JSON.stringify(ledger.stats())}`);
          });
        } finally {
          await recorder.stop();
        }
        expect(ledger.stats().sendFailures).toBe(0);
      } finally {
        await ledger.shutdown();
      }
    });
  });

  describe('broker stopped while records flow', () => {
    const broker = brokerControl();
    const { topic, sink: producer } = workerSinkOnOwnTopic('test.usage-ledger.down', 'usage-ledger-test', 'warn');

    it.skipIf(broker === undefined)(
      'puts every event recorded before, during and after the outage on the topic',
      async () => {
        const dir = tempDir();
        // A small memory limit, so the outage also exercises the journal-only path.
        const ledger = UsageLedger.fromConfig(
          { dir, producer, source: 'bff-en', topic, memoryLimit: 300, batchSize: 100, lingerMs: 10 },
          logger,
        );
        await ledger.start();
        const prefix = uniqueName('down');
        const ids: string[] = [];
        const flow = setInterval(() => {
          for (let i = 0; i < 10; i++) {
            const id = `${prefix}-${ids.length}`;
            void ledger.record(ledgerTestRecord(id, ids.length));
            ids.push(id);
          }
        }, 10);
        let restarted = false;
        try {
          // Each phase lasts until what it is for has happened, not for a time: a slow machine only takes longer.
          await waitFor(() => ledger.stats().sent >= 100, { timeoutMs: 60_000, what: 'events sent before the outage' });
          await broker?.stop();
          const journalledAtStop = ledger.stats().journalled;
          // Records go on being journalled while the broker is down, past what memory holds.
          await waitFor(() => ledger.stats().spilled && ledger.stats().journalled > journalledAtStop + 100, {
            timeoutMs: 60_000,
            what: 'records journalled and spilled during the outage',
          });
          const during = ledger.stats();
          await broker?.start();
          restarted = true;
          const journalledAtStart = ledger.stats().journalled;
          await waitFor(() => ledger.stats().journalled >= journalledAtStart + 100, {
            timeoutMs: 60_000,
            what: 'records journalled after the outage',
          });
          clearInterval(flow);

          const recorder = await TopicRecorder.start(topic, { kafka });
          try {
            const { records, duplicates } = await expectEveryIdOnTopic(recorder, ids, prefix).catch((error: Error) => {
              throw new Error(`${error.message}; ledger ${JSON.stringify(ledger.stats())}`);
            });
            await waitFor(() => ledger.stats().buffered === 0 && !ledger.stats().spilled, { what: 'ledger drained' });
            const after = ledger.stats();
            process.stdout.write(
              `broker outage: ${ids.length} recorded (${during.journalled - journalledAtStop} during it), ` +
                `${records} records on the topic (${duplicates} re-sent duplicates), ${after.readBack} read back from the journal, ` +
                `${after.sendFailures} failed sends\n`,
            );
            expect(after.readBack).toBeGreaterThan(0);
            expect(after.sent).toBeGreaterThanOrEqual(ids.length);
          } finally {
            await recorder.stop();
          }
          await ledger.shutdown();
          expect(readdirSync(dir)).toEqual([]); // every segment acknowledged and deleted, lock released
        } finally {
          clearInterval(flow);
          if (!restarted) await broker?.start();
        }
      },
      150_000,
    );
  });

  describe("the sink's worker thread", () => {
    const { topic, sink } = workerSinkOnOwnTopic('test.usage-ledger.worker', 'usage-ledger-worker-test', 'silent');

    it('fails the sends of a worker that died, and the next send runs on a new worker', async () => {
      // A batch that is not frames (a length past its end) makes the worker throw outside any send: it dies.
      const poison = Uint8Array.of(0xff, 0xff, 0xff, 0x7f, 1, 2, 3);
      await expect(sink.sendEvents(topic.name, topic.eventType, poison)).rejects.toThrow(/usage Kafka worker exited/);

      const dir = tempDir();
      const ledger = UsageLedger.fromConfig({ dir, producer: sink, source: 'bff-en', topic, lingerMs: 10 }, logger);
      await ledger.start();
      const prefix = uniqueName('after-crash');
      const ids = Array.from({ length: 20 }, (_, i) => `${prefix}-${i}`);
      await Promise.all(ids.map((id, i) => ledger.record(ledgerTestRecord(id, i))));
      const recorder = await TopicRecorder.start(topic, { kafka });
      try {
        await expectEveryIdOnTopic(recorder, ids, prefix);
      } finally {
        await recorder.stop();
        await ledger.shutdown();
      }
      expect(readdirSync(dir)).toEqual([]);
    });

    it('runs its worker thread at the nice value asked for, the main thread unchanged', async () => {
      const niceOfThreads = () => readdirSync('/proc/self/task').map((tid) => getPriority(Number(tid)));
      const mainNice = getPriority(process.pid);
      const before = niceOfThreads().filter((nice) => nice === mainNice + 7).length;
      const niced = UsageKafkaWorkerSink.fromConfig(
        { brokers: stack.kafkaBrokers, clientId: 'usage-ledger-nice-test', logLevel: 'silent', nice: mainNice + 7 },
        logger,
      );
      await niced.start();
      try {
        expect(niceOfThreads().filter((nice) => nice === mainNice + 7)).toHaveLength(before + 1);
        expect(getPriority(process.pid)).toBe(mainNice);
      } finally {
        await niced.shutdown();
      }
    });
  });

  describe('process killed with SIGKILL', () => {
    const topic = usageLedgerTestTopic(uniqueName('test.usage-ledger.kill'));

    beforeAll(async () => {
      await ensureTopics(kafka, topicSpecs([topic]), logger);
    });

    /** Records until `killAfter` ids were printed, kills -9, restarts on the same directory. */
    async function killAndRestart(firstEnv: Record<string, string>, killAfter: number) {
      const dir = tempDir();
      const prefix = uniqueName('kill');
      const first = startWriter({
        LEDGER_DIR: dir,
        TOPIC: topic.name,
        PREFIX: prefix,
        COUNT: '100000',
        PER_TICK: '20',
        ...firstEnv,
      });
      const firstExit = once(first.child, 'exit');
      await waitFor(() => first.lines.filter((line) => line.startsWith(prefix)).length >= killAfter, {
        timeoutMs: 60_000,
        what: `${killAfter} ids printed`,
      });
      first.child.kill('SIGKILL');
      const [, signal] = (await firstExit) as [number | null, NodeJS.Signals | null];
      expect(signal).toBe('SIGKILL');
      const printed = first.lines.filter((line) => line.startsWith(prefix)); // all of the pipe, read to its end
      expect(readdirSync(dir).some((name) => name.endsWith('.journal'))).toBe(true);
      expect(readdirSync(dir)).toContain('ledger.lock'); // left behind, stale: the next process takes it over

      const second = startWriter({ LEDGER_DIR: dir, TOPIC: topic.name, PREFIX: `${prefix}-second`, COUNT: '0' });
      const recorder = await TopicRecorder.start(topic, { kafka });
      try {
        await waitFor(() => second.lines.includes('started'), { timeoutMs: 60_000, what: 'second process started' });
        const counted = await expectEveryIdOnTopic(recorder, printed, `${prefix}-`);
        const secondExit = once(second.child, 'exit');
        second.child.kill('SIGTERM');
        const [code] = (await secondExit) as [number | null];
        expect(code).toBe(0);
        const stats = JSON.parse(second.lines.find((line) => line.startsWith('stats '))?.slice(6) ?? '{}') as {
          readBack: number;
        };
        expect(readdirSync(dir)).toEqual([]); // replayed, acknowledged, deleted
        return { printed: printed.length, readBack: stats.readBack, ...counted };
      } finally {
        await recorder.stop();
        if (second.child.exitCode === null && second.child.signalCode === null) second.child.kill('SIGKILL');
      }
    }

    it('sends, after a restart on the same directory, every event whose id the killed process printed', async () => {
      const result = await killAndRestart({}, 3_000);
      process.stdout.write(
        `SIGKILL with Kafka up: ${result.printed} ids printed before the kill, ${result.readBack} read back by the restarted ` +
          `process, ${result.records} records on the topic (${result.duplicates} re-sent duplicates)\n`,
      );
      expect(result.readBack).toBeGreaterThan(0);
    }, 150_000);

    it('sends them even when the killed process never reached Kafka (everything from the journal)', async () => {
      const result = await killAndRestart({ KAFKA_BROKERS: '127.0.0.1:1' }, 2_000);
      process.stdout.write(
        `SIGKILL with Kafka unreachable: ${result.printed} ids printed, ${result.readBack} read back, ${result.records} records\n`,
      );
      expect(result.readBack).toBeGreaterThanOrEqual(result.printed);
      expect(result.duplicates).toBe(0);
    }, 150_000);
  });
});
