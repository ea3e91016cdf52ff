import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { localStack, makeTestPki, testStackEnv } from './local-stack.js';
import { prepareTestSystem } from './system/start-system.js';

const run = promisify(execFile);

/** Marks the vitest process that started the stack (several projects list this setup). */
const STARTED_BY = 'TEST_STACK_STARTED_BY';

/**
 * Starts the real stack for integration tests and stops it afterwards:
 * - testcontainers (Kafka, MongoDB 7, Redis 7) when a Docker engine answers;
 * - otherwise the local stack of plain processes (infra/local: Kafka 3.9 KRaft, FerretDB, Redis).
 * - TEST_STACK=external: a stack already running at KAFKA_BROKERS, MONGO_URL and REDIS_URL.
 * The addresses reach the tests as KAFKA_BROKERS, MONGO_URL and REDIS_URL. In every mode it also
 * makes the test PKI (infra/local/pki.sh, reused between runs) and exports its folder as
 * TEST_PKI_DIR: every gRPC server and client in the tests uses mutual TLS (testGrpcTls in
 * @ipdata/common/testing).
 *
 * The `integration` and `system` projects both list this file, and vitest runs every project's
 * global setup before the first test: the first call starts the stack, a second one in the same
 * vitest process returns a no-op teardown (so `--project system` alone still gets a stack). The
 * shared system (scripts/test/system) is NOT started here: its billing would react to the
 * accounts of every other integration file. The first system test file starts it
 * (useTestSystem), after all integration files (sequence.groupOrder); the teardown here stops it
 * before the stack. Vitest calls the named `setup` and runs the function it returns as teardown.
 */
export async function setup(_project: TestProject): Promise<() => Promise<void>> {
  if (process.env[STARTED_BY] === String(process.pid)) return async () => undefined;
  process.env[STARTED_BY] = String(process.pid);
  // First: a system a killed earlier run left behind is stopped before its stack is replaced.
  const stopSystem = await prepareTestSystem();
  const stopStack = await startStack().catch((error: unknown) => {
    delete process.env[STARTED_BY];
    throw error;
  });
  return async () => {
    try {
      await stopSystem();
    } finally {
      await stopStack();
    }
  };
}

async function startStack(): Promise<() => Promise<void>> {
  await makeTestPki();
  if (process.env['TEST_STACK'] === 'external') {
    console.log(
      `test stack: external (${process.env['KAFKA_BROKERS']}, ${process.env['MONGO_URL']}, ${process.env['REDIS_URL']})`,
    );
    return async () => undefined;
  }
  if (process.env['TEST_STACK'] !== 'local' && (await dockerEngineAnswers())) {
    return startContainers();
  }
  return startLocalStack();
}

async function dockerEngineAnswers(): Promise<boolean> {
  try {
    await run('docker', ['info', '--format', '{{.ServerVersion}}'], { timeout: 5_000 });
    return true;
  } catch {
    return false;
  }
}

async function startLocalStack(): Promise<() => Promise<void>> {
  const started = Date.now();
  const { stdout } = await localStack('up', [], { STACK_FRESH: '1' }).catch((error: { stdout?: string; stderr?: string }) => {
    throw new Error(`local test stack did not start:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
  });
  const ports = testStackEnv();
  process.env['KAFKA_BROKERS'] = `127.0.0.1:${ports['KAFKA_PORT']}`;
  process.env['MONGO_URL'] = `mongodb://127.0.0.1:${ports['MONGO_PORT']}/ipdata_test`;
  process.env['REDIS_URL'] = `redis://127.0.0.1:${ports['REDIS_PORT']}`;
  process.env['TEST_STACK_KIND'] = 'local';
  console.log(
    `test stack: local processes (no Docker engine), up in ${((Date.now() - started) / 1000).toFixed(1)} s\n${stdout.trim()}`,
  );
  return async () => {
    await localStack('down');
  };
}

async function startContainers(): Promise<() => Promise<void>> {
  const started = Date.now();
  const [{ KafkaContainer }, { MongoDBContainer }, { RedisContainer }] = await Promise.all([
    import('@testcontainers/kafka'),
    import('@testcontainers/mongodb'),
    import('@testcontainers/redis'),
  ]);
  // cp-kafka 7.9 ships Apache Kafka 3.9, the version the local stack runs.
  const [kafka, mongo, redis] = await Promise.all([
    new KafkaContainer('confluentinc/cp-kafka:7.9.1').withKraft().start(),
    new MongoDBContainer('mongo:7').start(),
    new RedisContainer('redis:7').start(),
  ]);
  process.env['KAFKA_BROKERS'] = `${kafka.getHost()}:${kafka.getMappedPort(9093)}`;
  process.env['MONGO_URL'] = `${mongo.getConnectionString()}/ipdata_test?directConnection=true`;
  process.env['REDIS_URL'] = redis.getConnectionUrl();
  process.env['TEST_STACK_KIND'] = 'testcontainers';
  console.log(`test stack: testcontainers (Docker engine found), up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return async () => {
    await Promise.all([kafka.stop(), mongo.stop(), redis.stop()]);
  };
}
