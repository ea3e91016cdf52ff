/**
 * A face B account with an API key, made the way a user makes one — through auth's and billing's
 * real gRPC methods, never database writes: sign up with email → the confirmation link from the
 * mail the mail sink stored → confirm → log in → (optionally) buy a plan at billing's sandbox
 * checkout → create an API key. Shared by the demo account of `make up` (demo-account.ts) and the
 * tests' createTestAccount (scripts/test/system).
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGrpcClient, type GrpcTlsFiles } from '@ipdata/common';
import { grpcCaller, waitFor, type GrpcCaller } from '@ipdata/common/testing';
import * as authApi from '@ipdata/proto/auth/v1/auth';
import { AuthServiceClient, AuthServiceService } from '@ipdata/proto/auth/v1/auth';
import * as billingApi from '@ipdata/proto/billing/v1/billing';
import { BillingServiceClient, BillingServiceService } from '@ipdata/proto/billing/v1/billing';
import { SubscriptionKind } from '@ipdata/proto/events/v1/billing';

export type AuthCaller = GrpcCaller<typeof AuthServiceService>;
export type BillingCaller = GrpcCaller<typeof BillingServiceService>;

/** gRPC callers for auth and billing as one identity (bff-en: the caller their access policies allow). */
export interface AccountClients {
  auth: AuthCaller;
  billing: BillingCaller;
  close(): void;
}

export function accountClients(addresses: { auth: string; billing: string }, tls: GrpcTlsFiles): AccountClients {
  const auth = createGrpcClient(AuthServiceClient, { address: addresses.auth, tls, defaultDeadlineMs: 15_000 });
  const billing = createGrpcClient(BillingServiceClient, { address: addresses.billing, tls, defaultDeadlineMs: 15_000 });
  return {
    auth: grpcCaller(auth, AuthServiceService, { codecs: authApi }),
    billing: grpcCaller(billing, BillingServiceService, { codecs: billingApi }),
    close() {
      auth.close();
      billing.close();
    },
  };
}

/**
 * The mails the mail sink (scripts/dev/mail-sink.ts) stored as .eml files in `dir`: waits for the
 * confirmation link sent to `email` and returns its token.
 */
export function confirmationToken(dir: string, email: string, timeoutMs = 30_000): Promise<string> {
  return mailedLinkToken(dir, email, '/confirm-email', timeoutMs);
}

/** The token of a link to `linkPath` ('/reset-password') mailed to `email` (the newest such mail wins). */
export async function mailedLinkToken(dir: string, email: string, linkPath: string, timeoutMs = 30_000): Promise<string> {
  const pattern = new RegExp(`${linkPath.replace(/[/.-]/g, '\\$&')}\\?token=([A-Za-z0-9_%.-]+)`);
  const token = await waitFor(
    () =>
      mailsTo(dir, email)
        .map((text) => pattern.exec(text)?.[1])
        .filter(Boolean)
        .at(-1),
    {
      timeoutMs,
      intervalMs: 100,
      what: `a mail with a ${linkPath} link to ${email} in ${dir} (is the mail sink running?)`,
    },
  );
  return decodeURIComponent(token);
}

/** The mails to `email` the mail sink stored in `dir`, oldest first, decoded. */
export function mailsTo(dir: string, email: string): string[] {
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((file) => file.endsWith('.eml'))
      .sort();
  } catch {
    return [];
  }
  return files
    .map((file) => decodeQuotedPrintable(readFileSync(join(dir, file), 'utf8')))
    .filter((text) => new RegExp(`^To:.*${email.replace(/[.+]/g, '\\$&')}`, 'mi').test(text));
}

/** Undoes quoted-printable soft line breaks and =XX escapes, so links read as sent. */
function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export interface NewAccount {
  accountId: string;
  email: string;
  password: string;
  /** A session of the account (creates and revokes keys, changes plans through the web API later). */
  sessionToken: string;
  apiKey: string;
  keyId: string;
}

export interface NewAccountOptions {
  clients: AccountClients;
  /** The folder the mail sink stores mails in. */
  mailDir: string;
  email?: string;
  password?: string;
  name?: string;
  keyName?: string;
  /** The end user's address auth's per-IP limits count (a BFF always sends one). */
  clientIp?: string;
  /** A plan to buy before the key is made (a paid plan goes through the sandbox checkout). */
  plan?: { id: string; returnUrl: string; pay(checkoutUrl: string): Promise<void> };
  timeoutMs?: number;
}

/** Signs up, confirms, logs in, buys the plan if asked and creates an API key; returns the lot. */
export async function createAccountWithKey(options: NewAccountOptions): Promise<NewAccount> {
  const { auth, billing } = options.clients;
  const email = options.email ?? `user-${randomBytes(6).toString('hex')}@example.com`;
  const password = options.password ?? `pw-${randomBytes(12).toString('base64url')}`;
  const clientIp = options.clientIp ?? '127.0.0.1';
  const timeoutMs = options.timeoutMs ?? 30_000;
  await auth.signUpWithEmail({
    email,
    password,
    passwordConfirmation: password,
    agreeTerms: true,
    name: options.name ?? 'Test user',
    clientIp,
  });
  const token = await confirmationToken(options.mailDir, email, timeoutMs);
  const confirmed = await auth.confirmEmail({ token });
  const accountId = confirmed.user?.id ?? '';
  const login = await auth.loginWithEmail({ email, password, clientIp });
  const sessionToken = login.session?.token ?? '';
  // Billing learns the account from auth.user.v1 and gives it FREE at once: wait for that, so the
  // account is on FREE for real (and may subscribe: billing changes plans of known accounts only).
  await waitFor(async () => (await apiPlan(billing, accountId))?.subscription !== undefined, {
    timeoutMs,
    intervalMs: 100,
    what: `billing to give ${accountId} its FREE plan`,
  });
  if (options.plan) await subscribeToPlan(billing, accountId, options.plan, timeoutMs);
  // The key is made after the plan applies, so no cache anywhere has seen it on an older plan.
  const created = await auth.createApiKey({ token: sessionToken, name: options.keyName ?? 'default' });
  const apiKey = created.secret;
  if (options.plan) {
    const planId = options.plan.id;
    await waitFor(async () => (await auth.resolveApiKey({ key: apiKey })).planId === planId, {
      timeoutMs,
      intervalMs: 100,
      what: `auth to see plan ${planId} on the key`,
    });
  }
  return { accountId, email, password, sessionToken, apiKey, keyId: created.apiKey?.id ?? '' };
}

async function apiPlan(billing: BillingCaller, accountId: string) {
  const { plans } = await billing.getCurrentPlans({ accountId });
  return plans.find((plan) => plan.kind === SubscriptionKind.SUBSCRIPTION_KIND_API_ACCESS);
}

/** Subscribes (FREE at once; a paid plan paid at the checkout) and waits until billing applied it. */
export async function subscribeToPlan(
  billing: BillingCaller,
  accountId: string,
  plan: NonNullable<NewAccountOptions['plan']>,
  timeoutMs = 30_000,
): Promise<void> {
  const answer = await billing.subscribe({ accountId, planId: plan.id, returnUrl: plan.returnUrl });
  if (answer.order?.checkoutUrl) await plan.pay(answer.order.checkoutUrl);
  await waitFor(async () => (await apiPlan(billing, accountId))?.plan?.id === plan.id, {
    timeoutMs,
    intervalMs: 100,
    what: `billing to apply ${plan.id} to ${accountId}`,
  });
}
