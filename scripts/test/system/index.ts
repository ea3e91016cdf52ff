/**
 * What system tests (services/bff-en/test, later browser tests) use of the one shared system of a
 * test run: DNS stub, mail sink, lookup engine, auth, billing and bff-en as processes from
 * source (start-system.ts): its addresses, more bff-en processes on the same dependencies, and
 * accounts with API keys made through the real auth and billing.
 *
 * Every test file that uses it starts with `beforeAll(() => useTestSystem())`. The first call of
 * a run starts the system (about 20 s; detached processes, pid files and state under
 * $TEST_SYSTEM_DIR/run, a lock so it starts once), later files reuse it after checking each
 * process is alive and ready; the stack's global teardown (scripts/test/global-setup.ts) stops it
 * before the stack, also after a crashed file. A run that uses no system file starts nothing.
 *
 * Why not in the global setup: the system's billing consumes auth.user.v1 of EVERY account on
 * the shared test Kafka, including those of the per-file auth/billing harnesses of the
 * `integration` project, and would answer them with billing.subscription.v1 events those tests do
 * not expect. So system files are a vitest project of their own (`system`, vitest.config.ts) that
 * runs after all `integration` files (sequence.groupOrder), one file at a time, on one system.
 * Several runs on one machine need their own TEST_SYSTEM_PORT_BASE and TEST_SYSTEM_DIR.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { testGrpcTls } from '@ipdata/common/testing';
import { pressCheckoutButton } from '../../../services/billing/test/fixtures/billing-harness.js';
import {
  accountClients,
  createAccountWithKey,
  subscribeToPlan,
  type AccountClients,
  type NewAccount,
} from '../../dev/account-flow.js';
import { waitFor } from '@ipdata/common/testing';
import { ServiceProcess } from './service-process.js';
import { ensureTestSystem } from './start-system.js';
import { bffEnEnv, checkoutReturnUrl, smsDir, stackEnvFromProcess, systemDir, systemPorts } from './system-layout.js';
import { readState, type SystemAddresses } from './system-run.js';

export { SILENT_NAME, TEST_ZONE } from './dns-stub.js';
export type { NewAccount } from '../../dev/account-flow.js';
export type { SystemAddresses } from './system-run.js';

let using: Promise<SystemAddresses> | undefined;

/**
 * The shared system, started if no earlier file of the run did; call it in `beforeAll` of every
 * file that uses the system (hookTimeout is 120 s). Afterwards systemAddresses(), bffEnUrl(),
 * createTestAccount() etc. work in this file (the addresses are also set as TEST_* variables).
 */
export async function useTestSystem(): Promise<SystemAddresses> {
  using ??= ensureTestSystem().then((addresses) => {
    exportAddresses(addresses);
    return addresses;
  });
  // A failed start is not remembered here: ensureTestSystem remembers it for the whole run.
  return using.catch((error: unknown) => {
    using = undefined;
    throw error;
  });
}

function exportAddresses(addresses: SystemAddresses): void {
  process.env['TEST_LOOKUP_GRPC'] = addresses.lookupGrpc;
  process.env['TEST_AUTH_GRPC'] = addresses.authGrpc;
  process.env['TEST_BILLING_GRPC'] = addresses.billingGrpc;
  process.env['TEST_STATS_GRPC'] = addresses.statsGrpc;
  process.env['TEST_DOWNLOADS_GRPC'] = addresses.downloadsGrpc;
  process.env['TEST_DOWNLOADS_URL'] = addresses.downloadsUrl;
  process.env['TEST_MAIL_DIR'] = addresses.mailDir;
  process.env['TEST_DNS_SERVER'] = addresses.dnsServer;
  process.env['TEST_CONTENT_GRPC'] = addresses.contentGrpc;
  if (addresses.bffEnUrl) process.env['TEST_BFF_EN_URL'] = addresses.bffEnUrl;
  if (addresses.bffCnUrl) process.env['TEST_BFF_CN_URL'] = addresses.bffCnUrl;
}

/**
 * Addresses of the system: from TEST_* variables (set by useTestSystem, or by a caller that runs
 * its own system such as the benchmark), else from the state a start left in $TEST_SYSTEM_DIR.
 */
export function systemAddresses(): SystemAddresses {
  const lookupGrpc = process.env['TEST_LOOKUP_GRPC'];
  if (!lookupGrpc) {
    const state = readState(systemDir());
    if (state) return state.addresses;
    throw new Error('the test system is not started: call `await useTestSystem()` in a beforeAll of the test file first');
  }
  return {
    bffEnUrl: process.env['TEST_BFF_EN_URL'],
    bffCnUrl: process.env['TEST_BFF_CN_URL'],
    lookupGrpc,
    authGrpc: process.env['TEST_AUTH_GRPC'] ?? '',
    billingGrpc: process.env['TEST_BILLING_GRPC'] ?? '',
    statsGrpc: process.env['TEST_STATS_GRPC'] ?? '',
    downloadsGrpc: process.env['TEST_DOWNLOADS_GRPC'] ?? '',
    contentGrpc: process.env['TEST_CONTENT_GRPC'] ?? '',
    downloadsUrl: process.env['TEST_DOWNLOADS_URL'] ?? '',
    mailDir: process.env['TEST_MAIL_DIR'] ?? '',
    dnsServer: process.env['TEST_DNS_SERVER'] ?? '',
  };
}

/** The system's bff-en URL; fails clearly when it is not running. */
export function bffEnUrl(): string {
  const url = systemAddresses().bffEnUrl;
  if (!url) throw new Error('bff-en is not part of the test system (not built yet, or TEST_SYSTEM=backends)');
  return url;
}

/** Face A's site on the system: bff-cn serving the built app; fails clearly when it is not running. */
export function faceAUrl(): string {
  const url = systemAddresses().bffCnUrl;
  if (!url) throw new Error('bff-cn is not part of the test system (TEST_SYSTEM=backends)');
  return url;
}

/**
 * Face B's site on the system: bff-en serving the built app (frontends/en/dist; build it first:
 * `npm run build -w @ipdata/frontend-en`) on the same origin as its /v1 and /api.
 */
export function faceBUrl(): string {
  return bffEnUrl();
}

export interface BffEnProcess {
  url: string;
  pid: number;
  /** The INSTANCE_ID it runs as (its DATA_DIR is var/test-system/<instance> unless extraEnv sets one). */
  instance: string;
  port: number;
  kill(signal: NodeJS.Signals): void;
  /** Resolves when the process is gone (after kill('SIGKILL'), for example). */
  exited(): Promise<void>;
  /** SIGTERM, then SIGKILL after 15 s; resolves once it exited. */
  stop(): Promise<void>;
}

/**
 * Another bff-en process on the system's lookup engine, auth, billing, Kafka, Mongo and Redis, on
 * a free port, started from source and ready (/readyz 200). `extraEnv` overrides its variables:
 * pass the INSTANCE_ID of a killed process to restart it as the same usage relay consumer (its
 * pending stream entries first), and its DATA_DIR to keep its bulk files.
 */
export async function spawnBffEn(extraEnv: Record<string, string> = {}): Promise<BffEnProcess> {
  const port = Number(extraEnv['HEALTH_PORT'] ?? (await freePort()));
  const instance = extraEnv['INSTANCE_ID'] ?? `bff-en-${randomBytes(4).toString('hex')}`;
  const env = { ...bffEnEnv(stackEnvFromProcess(), systemPorts(), { port, instance }), ...extraEnv };
  const service = await ServiceProcess.start({
    name: `bff-en ${instance}`,
    entry: 'services/bff-en/src/main.ts',
    env,
    logFile: join(systemDir(), 'logs', `${instance}.log`),
    ready: { http: port },
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: service.pid,
    instance,
    port,
    kill: (signal) => service.kill(signal),
    exited: () => service.whenExited(),
    stop: () => service.stop(),
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

let clients: AccountClients | undefined;

/**
 * A confirmed face B account with an API key, made through the system's real auth and billing
 * (sign-up mail, confirmation, login, key). `plan`: a plan id of the test catalogue
 * (services/bff-en/test/fixtures/plans.yaml), bought at billing's sandbox checkout before the key
 * is made; without it the account is on FREE. Returns once auth resolves the key to that plan.
 */
export async function createTestAccount(options: { plan?: string; keyName?: string } = {}): Promise<NewAccount> {
  return createAccountWithKey({
    clients: systemClients(),
    mailDir: systemAddresses().mailDir,
    keyName: options.keyName,
    // Auth counts sign-ups and logins per client address; tests make many accounts.
    clientIp: `10.${randomInt(0, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}`,
    plan: options.plan ? paidPlan(options.plan) : undefined,
  });
}

/** The plan as createAccountWithKey buys it: the sandbox checkout's "pay" button, like a browser. */
function paidPlan(id: string) {
  return {
    id,
    returnUrl: checkoutReturnUrl(systemPorts()),
    pay: async (checkoutUrl: string) => {
      const { answer } = await pressCheckoutButton(checkoutUrl, 'pay');
      if (answer.status !== 303) throw new Error(`sandbox checkout answered ${answer.status} to "pay"`);
    },
  };
}

/**
 * Moves an account of createTestAccount to a higher plan (an upgrade, paid at the sandbox
 * checkout) and waits until auth resolves its key to it; what bff-en's key cache makes of the
 * change (billing.subscription.v1) is for the test to check.
 */
export async function upgradeTestAccount(account: NewAccount, planId: string): Promise<void> {
  const { billing, auth } = systemClients();
  await subscribeToPlan(billing, account.accountId, paidPlan(planId));
  await waitFor(async () => (await auth.resolveApiKey({ key: account.apiKey })).planId === planId, {
    timeoutMs: 30_000,
    intervalMs: 100,
    what: `auth to see plan ${planId} on ${account.keyId}`,
  });
}

/** gRPC callers for the system's auth and billing as bff-en (revoke a key, change a plan, ...). */
export function systemClients(): AccountClients {
  const addresses = systemAddresses();
  clients ??= accountClients({ auth: addresses.authGrpc, billing: addresses.billingGrpc }, testGrpcTls('bff-en'));
  return clients;
}

/**
 * The newest link to `linkPath` ('/confirm-email', '/reset-password') in a mail auth sent to
 * `email`, as the mail sink stored it ($TEST_MAIL_DIR, one .eml per mail, quoted-printable undone):
 * the whole URL, so a browser test opens what the recipient would click. Waits up to `timeoutMs`.
 */
export async function readMailedLink(email: string, linkPath: string, options: { timeoutMs?: number } = {}): Promise<string> {
  const dir = systemAddresses().mailDir;
  const to = new RegExp(`^To:.*${email.replace(/[.+]/g, '\\$&')}`, 'mi');
  const link = new RegExp(`https?://[^\\s"'<>]+${linkPath.replace(/[/.-]/g, '\\$&')}\\?token=[A-Za-z0-9_%.-]+`, 'g');
  return waitFor(
    async () => {
      const files = (await readdir(dir).catch(() => [] as string[])).filter((file) => file.endsWith('.eml')).sort();
      let newest: string | undefined;
      for (const file of files) {
        const text = (await readFile(join(dir, file), 'utf8'))
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
        if (to.test(text)) newest = text.match(link)?.at(-1) ?? newest;
      }
      return newest;
    },
    { timeoutMs: options.timeoutMs ?? 30_000, intervalMs: 200, what: `a mail with a ${linkPath} link to ${email} in ${dir}` },
  );
}

/**
 * The SMS code auth sent to `phone` through the system's development SMS gateway
 * (scripts/dev/sms-sink.ts, one JSON file per message): the newest one received at or after
 * `after`, waiting up to `timeoutMs` for it.
 */
export async function readSmsCode(phone: string, options: { after?: Date; timeoutMs?: number } = {}): Promise<string> {
  const after = options.after?.getTime() ?? 0;
  return waitFor(
    async () => {
      const files = (await readdir(smsDir()).catch(() => [] as string[])).sort().reverse();
      for (const file of files) {
        const message = JSON.parse(await readFile(join(smsDir(), file), 'utf8')) as {
          phone: string;
          params: { code: string };
          received_at: string;
        };
        if (Date.parse(message.received_at) < after) return undefined;
        if (message.phone === phone) return message.params.code;
      }
      return undefined;
    },
    { timeoutMs: options.timeoutMs ?? 10_000, intervalMs: 200, what: `an SMS code for ${phone} in ${smsDir()}` },
  );
}
