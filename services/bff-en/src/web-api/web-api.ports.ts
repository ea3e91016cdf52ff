import type { ApiKey, Session, User } from '@ipdata/proto/auth/v1/auth';
import type { CurrentPlan, Invoice, Order, Plan, Subscription } from '@ipdata/proto/billing/v1/billing';
import type { WebSessions } from './web-api.dispatcher.js';

/**
 * Auth's face B methods (adapters/grpc/web-accounts.adapter.ts). Failures arrive as common
 * DomainErrors whose 4xx messages are the spec's texts (auth's MESSAGES), shown as they are.
 */
export interface WebAccounts extends WebSessions {
  signUp(input: {
    email: string;
    password: string;
    passwordConfirmation: string;
    agreeTerms: boolean;
    name: string;
    clientIp: string;
  }): Promise<{ message: string }>;
  confirmEmail(token: string): Promise<{ user: User | undefined; message: string }>;
  login(input: {
    email: string;
    password: string;
    rememberMe: boolean;
    clientIp: string;
  }): Promise<{ user: User | undefined; session: Session | undefined; message: string }>;
  logout(token: string): Promise<void>;
  requestPasswordReset(email: string, clientIp: string): Promise<{ message: string }>;
  resetPassword(input: {
    token: string;
    password: string;
    passwordConfirmation: string;
    clientIp: string;
  }): Promise<{ message: string }>;
  user(token: string): Promise<User>;
  updateProfile(
    token: string,
    changes: { name?: string; companyName?: string },
  ): Promise<{ user: User | undefined; message: string }>;
  changePassword(
    token: string,
    input: { currentPassword: string; newPassword: string; passwordConfirmation: string },
  ): Promise<{ message: string }>;
  createKey(token: string, name: string): Promise<{ apiKey: ApiKey | undefined; secret: string }>;
  listKeys(token: string): Promise<ApiKey[]>;
  rotateKey(token: string, keyId: string): Promise<{ apiKey: ApiKey | undefined; secret: string; revokedKeyId: string }>;
  revokeKey(token: string, keyId: string): Promise<ApiKey | undefined>;
}

/** Billing for the pricing and billing screens (adapters/grpc/web-billing.adapter.ts). */
export interface WebBilling {
  plans(): Promise<Plan[]>;
  currentPlans(accountId: string): Promise<CurrentPlan[]>;
  subscribe(
    accountId: string,
    planId: string,
    returnUrl: string,
  ): Promise<{ order: Order | undefined; subscription: Subscription | undefined }>;
  scheduleDowngrade(accountId: string, planId: string): Promise<Subscription | undefined>;
  invoices(accountId: string, pageToken: string): Promise<{ invoices: Invoice[]; nextPageToken: string }>;
}

/** Content's unread message count of an account. */
export interface UnreadCounts {
  unread(accountId: string): Promise<number>;
}

/** One bucket of stats' usage rollups. */
export interface UsagePoint {
  /** ISO start of the hour or day (UTC). */
  period: string;
  lookups: number;
  requests: number;
}

/** stats' GetUsage as series: the account's (keyId '') or one key's. */
export interface UsageSeries {
  series(query: { accountId: string; keyId: string; from: Date; to: Date; granularity: 'day' | 'hour' }): Promise<UsagePoint[]>;
}

/** A contact-form message as bff-en sends it to content (SubmitContact). */
export interface ContactMessage {
  name: string;
  email: string;
  description: string;
  category: string;
  /** The logged-in account, or '' for an anonymous visitor. */
  accountId: string;
  visitorId: string;
  clientIp: string;
}

/**
 * Content's contact form (adapters/grpc/content-contact.adapter.ts): stored for review and
 * acknowledged by mail (auth, from content.feedback.v1). Content checks every field and refuses
 * with an English message for the form (INVALID_ARGUMENT, `details.field`), shown as it is.
 */
export interface ContactForm {
  submit(message: ContactMessage): Promise<{ id: string; receivedAt: Date }>;
}
