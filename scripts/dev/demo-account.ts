/**
 * The demo account of `make up`: a face B account on the FREE plan with an API key, made through
 * auth's and billing's real gRPC methods (account-flow.ts), written to var/stack/demo.env as
 * IPDATA_API_KEY=... with a ready curl line. Idempotent: the account (e-mail, password, key id)
 * is kept in var/stack/demo-account.json; a re-run logs in and reuses the key while it is alive,
 * makes a new key if it was revoked, and a new account if the stack's data was wiped.
 *
 *   node --conditions=source --import tsx scripts/dev/demo-account.ts
 *
 * Calls as bff-en (the caller auth and billing allow) with the stack's PKI. Local development
 * only: the state file holds the demo password in clear.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { UnauthenticatedError } from '@ipdata/common';
import { accountClients, createAccountWithKey, type AccountClients } from './account-flow.js';

export interface DemoAccountOptions {
  /** Where demo.env and demo-account.json go (the stack's folder, var/stack). */
  stackDir: string;
  authAddress: string;
  billingAddress: string;
  /** The PKI folder with ca.crt and bff-en.crt/.key. */
  pkiDir: string;
  /** Where the mail sink stores mails. */
  mailDir: string;
  bffEnUrl: string;
}

export interface DemoAccount {
  email: string;
  accountId: string;
  keyId: string;
  apiKey: string;
  /** created: new account; new-key: same account, new key; reused: nothing changed. */
  outcome: 'created' | 'new-key' | 'reused';
  envFile: string;
  curl: string;
}

interface StoredDemo {
  email: string;
  password: string;
  accountId: string;
  keyId: string;
}

const KEY_NAME = 'demo';

export async function seedDemoAccount(options: DemoAccountOptions): Promise<DemoAccount> {
  const stateFile = join(options.stackDir, 'demo-account.json');
  const envFile = join(options.stackDir, 'demo.env');
  const clients = accountClients(
    { auth: options.authAddress, billing: options.billingAddress },
    {
      caFile: join(options.pkiDir, 'ca.crt'),
      certFile: join(options.pkiDir, 'bff-en.crt'),
      keyFile: join(options.pkiDir, 'bff-en.key'),
    },
  );
  try {
    const stored = readJson<StoredDemo>(stateFile);
    const storedKey = readEnvKey(envFile);
    const reused = stored && storedKey ? await reuse(clients, stored, storedKey) : undefined;
    let result: Omit<DemoAccount, 'envFile' | 'curl'>;
    if (reused) {
      result = reused;
      if (reused.outcome === 'new-key') writeState(stateFile, { ...stored!, keyId: reused.keyId });
    } else {
      const account = await createAccountWithKey({
        clients,
        mailDir: options.mailDir,
        email: `demo-${Date.now().toString(36)}@example.com`,
        name: 'Demo user',
        keyName: KEY_NAME,
      });
      const { email, password, accountId, keyId, apiKey } = account;
      mkdirSync(options.stackDir, { recursive: true });
      writeState(stateFile, { email, password, accountId, keyId });
      result = { email, accountId, keyId, apiKey, outcome: 'created' };
    }
    writeFileSync(envFile, `IPDATA_API_KEY=${result.apiKey}\n`, { mode: 0o600 });
    const curl = `curl -H "Authorization: Bearer $IPDATA_API_KEY" ${options.bffEnUrl}/v1/ip/8.8.8.8`;
    return { ...result, envFile, curl };
  } finally {
    clients.close();
  }
}

/** Logs in as the stored demo account: its live key is reused, a revoked one replaced; undefined when the account is gone. */
async function reuse(
  clients: AccountClients,
  stored: StoredDemo,
  apiKey: string,
): Promise<Omit<DemoAccount, 'envFile' | 'curl'> | undefined> {
  let token: string;
  try {
    const login = await clients.auth.loginWithEmail({ email: stored.email, password: stored.password, clientIp: '127.0.0.1' });
    token = login.session?.token ?? '';
  } catch (error) {
    // The stack's data was wiped (or the account changed): start over with a new account.
    if (error instanceof UnauthenticatedError) return undefined;
    throw error;
  }
  const { apiKeys } = await clients.auth.listApiKeys({ token });
  if (apiKeys.some((key) => key.id === stored.keyId)) {
    return { email: stored.email, accountId: stored.accountId, keyId: stored.keyId, apiKey, outcome: 'reused' };
  }
  const created = await clients.auth.createApiKey({ token, name: KEY_NAME });
  const keyId = created.apiKey?.id ?? '';
  return { email: stored.email, accountId: stored.accountId, keyId, apiKey: created.secret, outcome: 'new-key' };
}

function writeState(file: string, state: StoredDemo): void {
  writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}

function readJson<T>(file: string): T | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

function readEnvKey(file: string): string | undefined {
  if (!existsSync(file)) return undefined;
  return /^IPDATA_API_KEY=(\S+)$/m.exec(readFileSync(file, 'utf8'))?.[1];
}

/** The `make up` defaults: the stack's folder, the port registry's ports, the mail sink's folder. */
function optionsFromEnv(env: NodeJS.ProcessEnv): DemoAccountOptions {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const stackDir = env['IPDATA_STACK_DIR'] ?? join(root, 'var/stack');
  const registry = JSON.parse(readFileSync(join(root, 'infra/ports.json'), 'utf8')) as {
    services: { name: string; ports: Record<string, number> }[];
  };
  const port = (service: string, kind: string) => registry.services.find((entry) => entry.name === service)?.ports[kind];
  return {
    stackDir,
    authAddress: env['AUTH_GRPC_ADDR'] ?? `127.0.0.1:${port('auth', 'grpc')}`,
    billingAddress: env['BILLING_GRPC_ADDR'] ?? `127.0.0.1:${port('billing', 'grpc')}`,
    pkiDir: env['GRPC_PKI_DIR'] ?? join(stackDir, 'pki'),
    // services.sh runs the mail sink in its data folder, <stack>/mail-sink, which stores mail in ./mail.
    mailDir: env['MAIL_SINK_DIR'] ?? join(stackDir, 'mail-sink', 'mail'),
    bffEnUrl: env['BFF_EN_URL'] ?? `http://127.0.0.1:${port('bff-en', 'http')}`,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const demo = await seedDemoAccount(optionsFromEnv(process.env));
  const what = { created: 'created', 'new-key': 'new API key for', reused: 'reusing' }[demo.outcome];
  console.log(`  demo account: ${what} ${demo.email} (FREE plan), API key in ${demo.envFile}`);
  console.log(`  try it:       source ${demo.envFile} && ${demo.curl}`);
}
