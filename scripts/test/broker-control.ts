import { readFileSync, readlinkSync } from 'node:fs';
import { stackAddresses } from '@ipdata/common/testing';
import { localStack, testStackEnv } from './local-stack.js';

export interface BrokerControl {
  /** A clean stop (SIGTERM, then SIGKILL after the stack's timeout): connections close. */
  stop(): Promise<unknown>;
  start(): Promise<unknown>;
  /**
   * SIGSTOP: the broker's process stays, its sockets stay open and accept nothing, so requests in
   * flight are neither answered nor refused (a long GC pause, a frozen VM). `thaw()` lets it go on.
   */
  freeze(): void;
  thaw(): void;
}

/**
 * Stopping the broker is possible only for the local stack of plain processes, and only when the
 * stack that infra/local/stack.sh would stop (TEST_STACK_DIR, TEST_KAFKA_PORT, ...) is the one the
 * tests use: never stop someone else's broker.
 */
export function brokerControl(): BrokerControl | undefined {
  if (process.env['TEST_STACK_KIND'] === 'testcontainers') return undefined;
  const env = testStackEnv();
  const port = env['KAFKA_PORT'];
  if (!stackAddresses().kafkaBrokers.some((broker) => broker.endsWith(`:${port}`))) return undefined;
  const stackDir = env['IPDATA_STACK_DIR'] as string;
  return {
    stop: () => localStack('down', ['kafka']),
    start: () => localStack('up', ['kafka']),
    freeze: () => signalBroker(stackDir, 'SIGSTOP'),
    thaw: () => signalBroker(stackDir, 'SIGCONT'),
  };
}

/**
 * The broker of this stack only: the pid in its pid file (infra/local/lib.sh's `launch` execs the
 * JVM under that pid) when that process is a `java` whose working directory is the stack's Kafka
 * data dir, the same test lib.sh's `pid_is_ours` makes.
 */
function signalBroker(stackDir: string, signal: 'SIGSTOP' | 'SIGCONT'): void {
  const pid = Number(readFileSync(`${stackDir}/run/kafka.pid`, 'utf8').trim());
  const comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  const cwd = readlinkSync(`/proc/${pid}/cwd`);
  if (!Number.isInteger(pid) || comm !== 'java' || cwd !== `${stackDir}/kafka`) {
    throw new Error(`pid ${pid} (${comm}, in ${cwd}) is not this stack's broker`);
  }
  process.kill(pid, signal);
}
