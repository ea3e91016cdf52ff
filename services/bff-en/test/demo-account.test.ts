import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PlanTier } from '@ipdata/proto/events/v1/billing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoAccount, type DemoAccountOptions } from '../../../scripts/dev/demo-account.js';
import { createTestAccount, systemClients, useTestSystem } from '../../../scripts/test/system/index.js';

const run = promisify(execFile);
const repoRoot = new URL('../../..', import.meta.url).pathname;

beforeAll(() => useTestSystem());

/** `make up`'s demo account, seeded against the shared test system instead of the dev stack. */
describe('demo account (make up)', () => {
  const stackDir = mkdtempSync(join(tmpdir(), 'demo-account-'));
  let options: DemoAccountOptions;
  let bffEnUrl: string | undefined;
  beforeAll(async () => {
    const addresses = await useTestSystem();
    bffEnUrl = addresses.bffEnUrl;
    options = {
      stackDir,
      authAddress: addresses.authGrpc,
      billingAddress: addresses.billingGrpc,
      pkiDir: process.env['TEST_PKI_DIR'] ?? '',
      mailDir: addresses.mailDir,
      bffEnUrl: addresses.bffEnUrl ?? 'http://127.0.0.1:8082',
    };
  });
  afterAll(() => rmSync(stackDir, { recursive: true, force: true }));

  it('creates a FREE account with a key through auth and billing, and reuses both on a second run', async () => {
    const first = await seedDemoAccount(options);
    expect(first.outcome).toBe('created');
    expect(readFileSync(join(stackDir, 'demo.env'), 'utf8')).toBe(`IPDATA_API_KEY=${first.apiKey}\n`);
    expect(first.curl).toBe(`curl -H "Authorization: Bearer $IPDATA_API_KEY" ${options.bffEnUrl}/v1/ip/8.8.8.8`);
    const { auth, billing } = systemClients();
    const resolved = await auth.resolveApiKey({ key: first.apiKey });
    expect(resolved).toMatchObject({ accountId: first.accountId, keyId: first.keyId, tier: PlanTier.PLAN_TIER_FREE });
    const plans = await billing.getCurrentPlans({ accountId: first.accountId });
    expect(plans.plans.map((plan) => plan.plan?.id)).toContain('api-free');

    const second = await seedDemoAccount(options);
    expect(second).toMatchObject({ outcome: 'reused', accountId: first.accountId, keyId: first.keyId, apiKey: first.apiKey });
  });

  it('replaces a revoked demo key and keeps the account', async () => {
    const before = await seedDemoAccount(options);
    const state = JSON.parse(readFileSync(join(stackDir, 'demo-account.json'), 'utf8')) as { email: string; password: string };
    const { auth } = systemClients();
    const login = await auth.loginWithEmail({ email: state.email, password: state.password, clientIp: '127.0.0.1' });
    await auth.revokeApiKey({ token: login.session?.token ?? '', keyId: before.keyId });

    const after = await seedDemoAccount(options);
    expect(after.outcome).toBe('new-key');
    expect(after.accountId).toBe(before.accountId);
    expect(after.apiKey).not.toBe(before.apiKey);
    expect(readFileSync(join(stackDir, 'demo.env'), 'utf8')).toBe(`IPDATA_API_KEY=${after.apiKey}\n`);
    expect((await auth.resolveApiKey({ key: after.apiKey })).accountId).toBe(before.accountId);
    // Idempotent again from here.
    expect((await seedDemoAccount(options)).outcome).toBe('reused');
  });

  it('runs as the script `make up` calls and prints the curl line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'demo-cli-'));
    try {
      const env = {
        PATH: process.env['PATH'] ?? '',
        IPDATA_STACK_DIR: dir,
        AUTH_GRPC_ADDR: options.authAddress,
        BILLING_GRPC_ADDR: options.billingAddress,
        GRPC_PKI_DIR: options.pkiDir,
        MAIL_SINK_DIR: options.mailDir,
        BFF_EN_URL: options.bffEnUrl,
      };
      const script = ['--conditions=source', '--import', 'tsx', 'scripts/dev/demo-account.ts'];
      const { stdout } = await run(process.execPath, script, { cwd: repoRoot, env });
      expect(stdout).toContain(
        `source ${dir}/demo.env && curl -H "Authorization: Bearer $IPDATA_API_KEY" ${options.bffEnUrl}/v1/ip/8.8.8.8`,
      );
      const key = /^IPDATA_API_KEY=(\S+)$/m.exec(readFileSync(join(dir, 'demo.env'), 'utf8'))?.[1];
      expect(key).toMatch(/^ipd_/);
      const again = await run(process.execPath, script, { cwd: repoRoot, env });
      expect(again.stdout).toContain('reusing');
      expect(readFileSync(join(dir, 'demo.env'), 'utf8')).toBe(`IPDATA_API_KEY=${key}\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the demo key answers on bff-en', async ({ skip }) => {
    skip(!bffEnUrl, 'the test system runs without bff-en');
    const demo = await seedDemoAccount(options);
    const answer = await fetch(`${bffEnUrl}/v1/ip/8.8.8.8`, { headers: { authorization: `Bearer ${demo.apiKey}` } });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { ip: string }).ip).toBe('8.8.8.8');
  });
});

describe('createTestAccount (scripts/test/system)', () => {
  it('buys a paid test plan at the sandbox checkout before making the key', async () => {
    const account = await createTestAccount({ plan: 'api-test-100' });
    const { auth } = systemClients();
    const resolved = await auth.resolveApiKey({ key: account.apiKey });
    expect(resolved).toMatchObject({ accountId: account.accountId, planId: 'api-test-100' });
    expect(Number(resolved.limits?.lookupsPerMonth)).toBe(100);
  });
});
