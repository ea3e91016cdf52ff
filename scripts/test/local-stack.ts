import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The test stack: its own ports and data folder, wiped at every start, so it never collides
 * with a dev stack started by `make up` (ports overridable by TEST_* variables).
 */
export function testStackEnv(): Record<string, string> {
  return {
    IPDATA_STACK_DIR: process.env['TEST_STACK_DIR'] ?? `${repoRoot}var/test-stack`,
    KAFKA_PORT: process.env['TEST_KAFKA_PORT'] ?? '19092',
    KAFKA_CONTROLLER_PORT: process.env['TEST_KAFKA_CONTROLLER_PORT'] ?? '19093',
    MONGO_PORT: process.env['TEST_MONGO_PORT'] ?? '27018',
    REDIS_PORT: process.env['TEST_REDIS_PORT'] ?? '16379',
  };
}

export async function localStack(
  command: 'up' | 'down' | 'status',
  components: string[] = [],
  extraEnv: Record<string, string> = {},
) {
  const env = { ...process.env, ...testStackEnv(), ...extraEnv };
  return run('bash', [`${repoRoot}infra/local/stack.sh`, command, ...components], {
    env,
    cwd: repoRoot,
    maxBuffer: 16 * 1024 * 1024,
  });
}

/**
 * The test PKI: infra/local/pki.sh into TEST_PKI_DIR (default <test stack dir>/pki), made once
 * and reused. Exported as TEST_PKI_DIR for the test workers (vitest passes process.env on).
 */
export async function makeTestPki(): Promise<string> {
  const dir = process.env['TEST_PKI_DIR'] ?? `${testStackEnv()['IPDATA_STACK_DIR']}/pki`;
  await run('bash', [`${repoRoot}infra/local/pki.sh`, dir], { cwd: repoRoot }).catch(
    (error: { stdout?: string; stderr?: string }) => {
      throw new Error(`test PKI could not be made:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
    },
  );
  process.env['TEST_PKI_DIR'] = dir;
  return dir;
}
