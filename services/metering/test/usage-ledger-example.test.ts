/**
 * The example consumer of TOPICS.md (scripts/examples/usage-consumer.ts) type-checks and prints
 * an event that metering's ledger and relay put on a topic, with the fields the data team reads.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { createKafka, ensureTopics, topicSpecs } from '@ipdata/common';
import { stackAddresses, uniqueName, waitFor } from '@ipdata/common/testing';
import { Redis } from 'ioredis';
import { RedisUsageStream, UsageKafkaSink, UsageLedger, UsageRelay } from '../src/index.js';
import { ledgerTestRecord, usageLedgerTestTopic } from './fixtures/usage-ledger-topic.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const example = join(repoRoot, 'scripts/examples/usage-consumer.ts');
const logger = pino({ level: 'silent' });

describe('example usage consumer (scripts/examples/usage-consumer.ts)', () => {
  it('type-checks', () => {
    const configPath = join(repoRoot, 'tsconfig.check.json');
    const parsed = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path)) as { config: unknown };
    const { options } = ts.parseJsonConfigFileContent(parsed.config, ts.sys, repoRoot);
    const program = ts.createProgram([example], { ...options, noEmit: true });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((diagnostic) => diagnostic.file?.fileName === example)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    expect(problems).toEqual([]);
  });

  it('prints a usage event that a ledger produced', async () => {
    const stack = stackAddresses();
    const kafka = createKafka({ brokers: stack.kafkaBrokers, clientId: 'usage-example-test' }, logger);
    const topic = usageLedgerTestTopic(uniqueName('test.usage-example'));
    await ensureTopics(kafka, topicSpecs([topic]), logger);
    const redis = new Redis(stack.redisUrl);
    const reader = redis.duplicate({ commandTimeout: 10_000 });
    const stream = new RedisUsageStream(redis, reader, { key: uniqueName('test:usage') });
    const producer = new UsageKafkaSink({ kafka, topic }, logger);
    await producer.start();
    const relay = new UsageRelay({ stream, sink: producer, consumer: 'example' }, logger);
    await relay.start();
    const ledger = new UsageLedger({ store: stream, source: 'bff-en' }, logger);
    const requestId = uniqueName('req');
    await ledger.record({ ...ledgerTestRecord(requestId, 7), ipVersion: 6, ip: '2001:db8::7', httpStatus: 200 });

    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', example], {
      cwd: repoRoot,
      env: { ...process.env, KAFKA_BROKERS: stack.kafkaBrokers.join(','), TOPIC: topic.name, GROUP_ID: uniqueName('example') },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    try {
      const line = await waitFor(() => output.split('\n').find((text) => text.includes(requestId)), {
        timeoutMs: 45_000,
        what: 'the example printing the event',
      });
      expect(JSON.parse(line)).toMatchObject({
        meta: { id: requestId, source: 'bff-en' },
        channel: 'USAGE_CHANNEL_PUBLIC_API',
        apiKeyId: 'key-2',
        endpoint: '/v1/ip/{ip}',
        ip: '2001:db8::7',
        ipVersion: 6,
        httpStatus: 200,
        result: 'USAGE_RESULT_FOUND',
        count: 1,
      });
      const exit = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = (await exit) as [number | null];
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await ledger.shutdown();
      await relay.shutdown();
      await producer.shutdown();
      redis.disconnect();
      reader.disconnect();
    }
  }, 90_000);
});
