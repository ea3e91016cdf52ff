import { stackAddresses } from '@ipdata/common/testing';
import { localStack, testStackEnv } from './local-stack.js';

/**
 * Stopping the broker is possible only for the local stack of plain processes, and only when the
 * stack that infra/local/stack.sh would stop (TEST_STACK_DIR, TEST_KAFKA_PORT, ...) is the one the
 * tests use: never stop someone else's broker.
 */
export function brokerControl(): { stop(): Promise<unknown>; start(): Promise<unknown> } | undefined {
  if (process.env['TEST_STACK_KIND'] === 'testcontainers') return undefined;
  const port = testStackEnv()['KAFKA_PORT'];
  if (!stackAddresses().kafkaBrokers.some((broker) => broker.endsWith(`:${port}`))) return undefined;
  return { stop: () => localStack('down', ['kafka']), start: () => localStack('up', ['kafka']) };
}
