import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS } from '@ipdata/common';
import { TopicRecorder, waitFor } from '@ipdata/common/testing';
import { FeedbackKind, type FeedbackReceived } from '@ipdata/proto/events/v1/content';
import { UsageChannel, type UsageEvent } from '@ipdata/proto/events/v1/usage';
import { pressCheckoutButton } from '../../billing/test/fixtures/billing-harness.js';
import { confirmationToken, mailedLinkToken, mailsTo } from '../../../scripts/dev/account-flow.js';
import { TEST_ZONE, bffEnUrl, systemAddresses, useTestSystem } from '../../../scripts/test/system/index.js';
import { WEB_OPENAPI_FILE } from '../src/web-api/web-api.routes.js';
import { OpenApiContract } from './fixtures/openapi-contract.js';

/**
 * The web app's API against the running bff-en of the shared test system (real auth with its
 * mail sink, billing with the sandbox checkout, stats, downloads, content, Redis, Kafka): a new
 * account's whole path through it, with the refusals a browser can provoke, and every answer
 * validated against openapi/web-api.yaml. The last test checks every documented operation was
 * called and answered with a success.
 */
const contract = new OpenApiContract(readFileSync(WEB_OPENAPI_FILE, 'utf8'));
const seen = new Map<string, Set<number>>();
const problems: string[] = [];

interface Envelope<T = Record<string, unknown>> {
  code: number;
  msg: string;
  data: T;
  reason?: string;
  field?: string;
}

/** A browser: its cookie jar and the CSRF value it echoes. */
class Browser {
  readonly cookies = new Map<string, string>();
  csrf = '';

  async call<T = Record<string, unknown>>(
    operationId: string,
    path: string,
    options: { body?: unknown; expect: number; csrf?: boolean; method?: string; rawBody?: string; contentType?: string },
  ): Promise<{ status: number; body: Envelope<T>; headers: Headers }> {
    const method = options.method ?? contract.operation(operationId).method;
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) headers['cookie'] = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (method !== 'GET' && options.csrf !== false) headers['x-csrf-token'] = this.csrf;
    let body: string | undefined;
    if (options.rawBody !== undefined || options.body !== undefined) {
      headers['content-type'] = options.contentType ?? 'application/json';
      body = options.rawBody ?? JSON.stringify(options.body);
    }
    const response = await fetch(`${bffEnUrl()}${path}`, { method, headers, body });
    const text = await response.text();
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const [name = '', value = ''] = pair.split('=');
      if (/Max-Age=0/.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const answer = { status: response.status, headers: response.headers, body: text };
    for (const problem of contract.problems(operationId, answer))
      problems.push(`${operationId} ${path} ${response.status}: ${problem}`);
    if (!seen.has(operationId)) seen.set(operationId, new Set());
    seen.get(operationId)!.add(response.status);
    expect(response.status, `${method} ${path}: ${text.slice(0, 300)}`).toBe(options.expect);
    return { status: response.status, body: JSON.parse(text) as Envelope<T>, headers: response.headers };
  }
}

describe('bff-en web API (/api) on the running system', () => {
  const browser = new Browser();
  const email = `web-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;
  const password = 'web-api-secret-2468';
  let apiKey = '';
  let keyId = '';

  beforeAll(async () => {
    await useTestSystem();
  });

  afterAll(() => {
    expect(problems).toEqual([]);
  });

  it('starts a browser: CSRF value and cookie, the free tier from the plan catalogue', async () => {
    const { body } = await browser.call<{ csrf_token: string; free_lookups_per_month: number; logged_in: boolean }>(
      'getInit',
      '/api/init',
      {
        expect: 200,
      },
    );
    expect(body.data.csrf_token).toBe(browser.cookies.get('csrf_token'));
    expect(body.data.free_lookups_per_month).toBe(50_000);
    expect(body.data.logged_in).toBe(false);
    browser.csrf = body.data.csrf_token;
  });

  it('refuses a state change without the CSRF header, from another origin, and a body that is not JSON', async () => {
    const noHeader = await browser.call('signUp', '/api/signup', { body: { email }, expect: 403, csrf: false });
    expect(noHeader.body.reason).toBe('csrf_token');
    const response = await fetch(`${bffEnUrl()}/api/signup`, {
      method: 'POST',
      headers: {
        origin: 'https://evil.example',
        cookie: `csrf_token=${browser.csrf}`,
        'x-csrf-token': browser.csrf,
        'content-type': 'application/json',
      },
      body: '{}',
    });
    expect(response.status).toBe(403);
    expect(((await response.json()) as Envelope).reason).toBe('csrf_origin');
    const form = await browser.call('signUp', '/api/signup', {
      rawBody: 'email=a',
      contentType: 'application/x-www-form-urlencoded',
      expect: 415,
    });
    expect(form.body.code).toBe(415);
  });

  it('signs up with the spec’s messages, confirms from the mailed link and logs in with the cookie', async () => {
    const bad = await browser.call('signUp', '/api/signup', { body: { email: 'not-an-email', password }, expect: 400 });
    expect(bad.body.msg).toBe('Please enter the correct email address');
    const differ = await browser.call('signUp', '/api/signup', {
      body: { email, password, password_confirmation: `${password}x`, agree_terms: true },
      expect: 400,
    });
    expect(differ.body.msg).toBe('The two passwords do not match');
    const signedUp = await browser.call('signUp', '/api/signup', {
      body: { email, password, password_confirmation: password, agree_terms: true, name: 'Web Tester' },
      expect: 200,
    });
    expect(signedUp.body.data).toEqual({ state: 'confirm_email' });
    expect(signedUp.body.msg).toMatch(/spam folder/);

    const early = await browser.call('logIn', '/api/login', { body: { email, password }, expect: 412 });
    expect(early.body.reason).toBe('email_not_confirmed');
    const token = await confirmationToken(systemAddresses().mailDir, email);
    await browser.call('confirmEmail', '/api/confirm-email', { body: { token }, expect: 200 });
    await browser.call('confirmEmail', '/api/confirm-email', { body: { token: 'not-a-token' }, expect: 400 });

    const wrong = await browser.call('logIn', '/api/login', { body: { email, password: 'wrong-password-1' }, expect: 401 });
    expect(wrong.body.code).toBe(401);
    const login = await browser.call<{ user: { email: string; payService: string } }>('logIn', '/api/login', {
      body: { email, password, remember_me: true },
      expect: 200,
    });
    expect(login.body.msg).toBe('Login succeeded');
    expect(login.body.data.user.email).toBe(email);
    const cookie = login.headers.getSetCookie().find((value) => value.startsWith('token='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    // remember_me: 30 days (auth's session), give or take the seconds the call took.
    const maxAge = Number(/Max-Age=(\d+)/.exec(cookie)?.[1]);
    expect(Math.abs(maxAge - 30 * 24 * 3600)).toBeLessThan(60);
  });

  it('reads and saves the profile (payService as a string), and the unread count', async () => {
    const profile = await browser.call<{ email: string; payService: string; email_confirmed: boolean }>(
      'getProfile',
      '/api/profile',
      {
        expect: 200,
      },
    );
    expect(profile.body.data).toMatchObject({ email, email_confirmed: true });
    expect(typeof profile.body.data.payService).toBe('string');
    const saved = await browser.call<{ name: string }>('updateProfile', '/api/profile', {
      body: { name: 'Renamed Tester' },
      expect: 200,
    });
    expect(saved.body.msg).toBe('Your new information has been saved');
    expect(saved.body.data.name).toBe('Renamed Tester');
    await browser.call('updateProfile', '/api/profile', { body: { name: 'x'.repeat(101) }, expect: 400 });
    // content writes a new account a welcome message (from auth.user.v1): one unread, soon.
    await waitFor(
      async () => (await browser.call<{ unread: number }>('getUnread', '/api/unread', { expect: 200 })).body.data.unread === 1,
      { timeoutMs: 20_000, intervalMs: 300, what: 'the welcome message to be counted unread' },
    );

    const visitor = new Browser();
    const refused = await visitor.call('getProfile', '/api/profile', { expect: 401 });
    expect(refused.body.code).toBe(506);
  });

  it('creates a key, and the dashboard shows exactly the lookups made with it', async () => {
    const created = await browser.call<{ key: { id: string }; secret: string }>('createApiKey', '/api/keys', {
      body: { name: 'contract key' },
      expect: 201,
    });
    apiKey = created.body.data.secret;
    keyId = created.body.data.key.id;
    const listed = await browser.call<{ keys: { id: string }[] }>('listApiKeys', '/api/keys', { expect: 200 });
    expect(listed.body.data.keys.map((key) => key.id)).toContain(keyId);
    expect(JSON.stringify(listed.body)).not.toContain(apiKey);

    for (const ip of ['8.8.8.8', '1.1.1.1', '9.9.9.9']) {
      const answer = await fetch(`${bffEnUrl()}/v1/ip/${ip}`, { headers: { authorization: `Bearer ${apiKey}` } });
      expect(answer.status).toBe(200);
    }
    const usage = await browser.call<{
      quota: { used: number; limit: number; remaining: number };
      plan: { tier: string } | null;
    }>('getUsage', '/api/usage', { expect: 200 });
    expect(usage.body.data.quota).toMatchObject({ used: 3, limit: 50_000, remaining: 49_997 });
    // The series come from stats' rollups of the usage ledger: they catch up within seconds.
    await waitFor(
      async () => {
        const { body } = await browser.call<{ series: { lookups: number }[] }>(
          'getUsage',
          `/api/usage?granularity=hour&key_id=${keyId}`,
          {
            expect: 200,
          },
        );
        return body.data.series.reduce((sum, point) => sum + point.lookups, 0) === 3;
      },
      { timeoutMs: 30_000, intervalMs: 500, what: 'the hourly series of the key to show 3 lookups' },
    );
    await browser.call('getUsage', '/api/usage?granularity=week', { expect: 400 });
  });

  it('rotates and revokes keys', async () => {
    const rotated = await browser.call<{ secret: string; revoked_key_id: string; key: { id: string } }>(
      'rotateApiKey',
      `/api/keys/${keyId}/rotate`,
      { expect: 200 },
    );
    expect(rotated.body.data.revoked_key_id).toBe(keyId);
    expect(rotated.body.data.secret).not.toBe(apiKey);
    await waitFor(
      async () => (await fetch(`${bffEnUrl()}/v1/ip/8.8.8.8`, { headers: { authorization: `Bearer ${apiKey}` } })).status !== 200,
      {
        timeoutMs: 15_000,
        intervalMs: 200,
        what: 'the rotated-away key to stop working',
      },
    );
    await browser.call('revokeApiKey', `/api/keys/${rotated.body.data.key.id}`, { expect: 200 });
    await browser.call('revokeApiKey', '/api/keys/no-such-key', { expect: 404 });
    await browser.call('rotateApiKey', '/api/keys/no-such-key/rotate', { expect: 404 });
  });

  it('shows plans, subscribes to Standard through the sandbox checkout, schedules a downgrade, lists invoices', async () => {
    const plans = await browser.call<{ plans: { id: string; kind: string; tier: string; price_minor: number }[] }>(
      'listPlans',
      '/api/plans',
      {
        expect: 200,
      },
    );
    const standard = plans.body.data.plans.find(
      (plan) => plan.kind === 'api' && plan.tier === 'standard' && plan.id.endsWith('monthly'),
    );
    const free = plans.body.data.plans.find((plan) => plan.kind === 'api' && plan.tier === 'free');
    expect(standard?.price_minor).toBeGreaterThan(0);
    const order = await browser.call<{ checkout_url: string }>('subscribe', '/api/subscription', {
      body: { plan_id: standard!.id },
      expect: 200,
    });
    expect(new URL(order.body.data.checkout_url).hostname).toBe('127.0.0.1');
    const { answer } = await pressCheckoutButton(order.body.data.checkout_url, 'pay');
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toContain('/pricing?checkout=done');
    await waitFor(
      async () => {
        const { body } = await browser.call<{ plans: { kind: string; plan?: { id: string } }[] }>(
          'getSubscription',
          '/api/subscription',
          {
            expect: 200,
          },
        );
        return body.data.plans.find((entry) => entry.kind === 'api')?.plan?.id === standard!.id;
      },
      { timeoutMs: 30_000, intervalMs: 300, what: 'billing to apply the Standard plan' },
    );
    const profile = await browser.call<{ payService: string }>('getProfile', '/api/profile', { expect: 200 });
    expect(profile.body.data.payService.split(',')).toContain('api');
    await browser.call('subscribe', '/api/subscription', { body: { plan_id: 'no-such-plan' }, expect: 404 });
    const downgrade = await browser.call<{ subscription: { scheduled_plan_id: string } }>(
      'scheduleDowngrade',
      '/api/subscription/downgrade',
      {
        body: { plan_id: free!.id },
        expect: 200,
      },
    );
    expect(downgrade.body.data.subscription.scheduled_plan_id).toBe(free!.id);
    await browser.call('listInvoices', '/api/invoices', { expect: 200 });
  });

  it('lists the databases, links a sample, refuses a file the plan does not include, and keeps the history', async () => {
    const catalogue = await browser.call<{
      databases: { database: string; format: string; entitled: boolean; sample_url: string | null }[];
    }>('listDatabases', '/api/databases', { expect: 200 });
    const files = catalogue.body.data.databases;
    expect(files.length).toBeGreaterThan(0);
    const withSample = files.find((file) => file.sample_url !== null)!;
    const sample = await browser.call<{ url: string }>(
      'getSampleLink',
      `/api/databases/${withSample.database}/sample/${withSample.format}`,
      {
        expect: 200,
      },
    );
    expect((await fetch(sample.body.data.url)).status).toBe(200);
    await browser.call('getSampleLink', '/api/databases/nothing/sample/csv', { expect: 404 });
    const excluded = files.find((file) => !file.entitled);
    if (excluded)
      await browser.call('createDownloadLink', `/api/databases/${excluded.database}/${excluded.format}/link`, { expect: 403 });
    const entitled = files.find((file) => file.entitled);
    if (entitled) {
      const link = await browser.call<{ url: string }>(
        'createDownloadLink',
        `/api/databases/${entitled.database}/${entitled.format}/link`,
        {
          expect: 200,
        },
      );
      const download = await fetch(link.body.data.url);
      expect(download.status).toBe(200);
      await download.arrayBuffer();
      await waitFor(
        async () => {
          const { body } = await browser.call<{ downloads: { ip: string; database: string }[] }>(
            'listDownloadHistory',
            '/api/downloads/history',
            {
              expect: 200,
            },
          );
          return body.data.downloads.some((record) => record.database === entitled.database && record.ip === '127.0.0.1');
        },
        { timeoutMs: 15_000, intervalMs: 300, what: 'the download in the history' },
      );
    }
    expect(excluded ?? entitled).toBeDefined();
    await browser.call('listDownloadHistory', '/api/downloads/history?page=0', { expect: 400 });
  });

  it('looks up an address, a domain and the visitor’s own address; refuses what is neither', async () => {
    const visitor = new Browser();
    const recorder = await TopicRecorder.start<UsageEvent>(TOPICS.usageLookup, { fromLogEnd: true });
    const ip = await visitor.call<{ results: { country_code: string }[] }>('lookUp', '/api/lookup?q=8.8.8.8', { expect: 200 });
    expect(ip.body.data.results[0]?.country_code).toBe('US');
    // Like the API's, each tool lookup is a usage event: channel WEB_EN, the visitor's id, no key.
    try {
      const event = await waitFor(
        () =>
          recorder.records
            .map((record) => record.event)
            .find((candidate) => candidate.endpoint === '/api/lookup' && candidate.ip === '8.8.8.8'),
        { timeoutMs: 15_000, intervalMs: 100, what: 'the lookup tool’s usage event' },
      );
      expect(event).toMatchObject({
        channel: UsageChannel.USAGE_CHANNEL_WEB_EN,
        apiKeyId: '',
        accountId: '',
        count: 1,
        countryCode: 'US',
      });
      expect(event.visitorId).toMatch(/^v-[0-9a-f]{32}$/);
    } finally {
      await recorder.stop();
    }
    const domain = await visitor.call<{ kind: string; results: { ip: string }[] }>('lookUp', '/api/lookup?q=dns.ipdata.test', {
      expect: 200,
    });
    expect(domain.body.data.kind).toBe('domain');
    const expected = [...(TEST_ZONE['dns.ipdata.test']?.A ?? []), ...(TEST_ZONE['dns.ipdata.test']?.AAAA ?? [])];
    expect(domain.body.data.results.map((result) => result.ip)).toEqual(expected);
    const own = await visitor.call<{ results: { ip: string; reserved: string | null }[] }>('lookUp', '/api/lookup', {
      expect: 200,
    });
    expect(own.body.data.results[0]).toMatchObject({ ip: '127.0.0.1', reserved: 'loopback' });
    const bad = await visitor.call('lookUp', '/api/lookup?q=not%20an%20address', { expect: 400 });
    expect(bad.body.msg).toBe('Please enter any IPv4 or IPv6 address');
    await visitor.call('lookUp', '/api/lookup?q=nothing-here.ipdata.test', { expect: 404 });
  });

  it('takes the contact form from a visitor and from the logged-in user; auth acknowledges each by mail', async () => {
    const visitor = new Browser();
    const init = await visitor.call<{ csrf_token: string; contact_categories: string[] }>('getInit', '/api/init', {
      expect: 200,
    });
    visitor.csrf = init.body.data.csrf_token;
    expect(init.body.data.contact_categories).toEqual(['Custom plans', 'Support', 'Feedback']);
    const address = `contact-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;
    const form = { name: 'Contract Visitor', email: address, description: 'Do you sell\na city database?', category: 'Support' };

    const forged = await visitor.call('submitContact', '/api/contact', { body: form, expect: 403, csrf: false });
    expect(forged.body.reason).toBe('csrf_token');
    const badAddress = await visitor.call('submitContact', '/api/contact', { body: { ...form, email: 'ada@' }, expect: 400 });
    expect(badAddress.body).toMatchObject({ msg: 'Please enter the correct email address', field: 'email' });
    const badCategory = await visitor.call('submitContact', '/api/contact', {
      body: { ...form, category: 'Sales' },
      expect: 400,
    });
    expect(badCategory.body.field).toBe('category');
    const empty = await visitor.call('submitContact', '/api/contact', { body: { ...form, name: ' ' }, expect: 400 });
    expect(empty.body).toMatchObject({ msg: 'Please enter your name', field: 'name' });

    const recorder = await TopicRecorder.start<FeedbackReceived>(TOPICS.contentFeedback, { fromLogEnd: true });
    try {
      const sent = await visitor.call<{ id: string }>('submitContact', '/api/contact', { body: form, expect: 201 });
      expect(sent.body.msg).toBe('Information submitted successfully, we will give you feedback as soon as possible');
      const mine = await browser.call<{ id: string }>('submitContact', '/api/contact', {
        body: { ...form, email, category: 'Custom plans' },
        expect: 201,
      });
      const profile = await browser.call<{ id: string }>('getProfile', '/api/profile', { expect: 200 });
      const published = (id: string) =>
        waitFor(() => recorder.records.map((record) => record.event).find((event) => event.submissionId === id), {
          timeoutMs: 15_000,
          intervalMs: 100,
          what: `content's FeedbackReceived for ${id}`,
        });
      expect(await published(sent.body.data.id)).toMatchObject({
        kind: FeedbackKind.FEEDBACK_KIND_CONTACT,
        accountId: '',
        text: 'Do you sell\na city database?',
        fields: { name: 'Contract Visitor', email: address, category: 'Support' },
      });
      // Logged in: the account goes with the message.
      expect((await published(mine.body.data.id)).accountId).toBe(profile.body.data.id);
    } finally {
      await recorder.stop();
    }
    // content → content.feedback.v1 → auth → the mail sink: one acknowledgement naming the submission.
    const mails = await waitFor(
      () => (mailsTo(systemAddresses().mailDir, address).length > 0 ? mailsTo(systemAddresses().mailDir, address) : undefined),
      {
        timeoutMs: 30_000,
        intervalMs: 200,
        what: `the contact acknowledgement to ${address}`,
      },
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('We received your message about "Support"');
    expect(mails[0]).not.toContain('city database');
  });

  it('changes the password, logs out, and the old session is gone', async () => {
    const wrong = await browser.call('changePassword', '/api/profile/password', {
      body: { current_password: 'not-the-password', new_password: 'new-secret-13579', password_confirmation: 'new-secret-13579' },
      expect: 400,
    });
    expect(wrong.body.msg).toBe('The current password is incorrect');
    await browser.call('changePassword', '/api/profile/password', {
      body: { current_password: password, new_password: 'new-secret-13579', password_confirmation: 'new-secret-13579' },
      expect: 200,
    });
    const token = browser.cookies.get('token')!;
    const out = await browser.call('logOut', '/api/logout', { expect: 200 });
    expect(out.headers.getSetCookie().some((value) => /^token=;.*Max-Age=0/.test(value))).toBe(true);
    const stale = new Browser();
    stale.cookies.set('token', token);
    const after = await stale.call('getProfile', '/api/profile', { expect: 401 });
    expect(after.body.code).toBe(506);
    await browser.call('logIn', '/api/login', { body: { email, password: 'new-secret-13579' }, expect: 200 });

    // Forgot password: the mailed link's token sets a new one.
    await browser.call('requestPasswordReset', '/api/password/forgot', { body: { email }, expect: 200 });
    await browser.call('resetPassword', '/api/password/reset', {
      body: { token: 'not-a-reset-token', password: 'x-secret-24680', password_confirmation: 'x-secret-24680' },
      expect: 400,
    });
    const resetToken = await mailedLinkToken(systemAddresses().mailDir, email, '/reset-password');
    await browser.call('resetPassword', '/api/password/reset', {
      body: { token: resetToken, password: 'reset-secret-97531', password_confirmation: 'reset-secret-97531' },
      expect: 200,
    });
    await browser.call('logIn', '/api/login', { body: { email, password: 'new-secret-13579' }, expect: 401 });
    await browser.call('logIn', '/api/login', { body: { email, password: 'reset-secret-97531' }, expect: 200 });
  });

  it('called every documented operation with a success', () => {
    const missing = contract
      .operations()
      .filter((operation) => ![...(seen.get(operation.operationId) ?? [])].some((status) => status < 300))
      .map((operation) => operation.operationId);
    expect(missing).toEqual([]);
  });
});
