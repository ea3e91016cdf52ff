import { AccountChannel, type UserEventKind } from '@ipdata/proto/events/v1/user';
import type { User } from '@ipdata/proto/auth/v1/auth';
import { entitlementsOf, type SubscriptionState } from '../entitlements/entitlements.js';

export interface PartnerInfo {
  companyName: string;
  contactName: string;
  email: string;
}

export interface Account {
  id: string;
  channel: AccountChannel;
  /** Unique sign-in identity: `phone:<number>` or `email:<lower-cased address>`. */
  loginId: string;
  phone: string;
  email: string;
  name: string;
  companyName: string;
  passwordHash: string;
  /** Email accounts stay pending until the address is confirmed. */
  status: 'active' | 'pending';
  partner: PartnerInfo | undefined;
  createdAt: Date;
  updatedAt: Date;
  emailConfirmedAt: Date | undefined;
  passwordChangedAt: Date | undefined;
}

export type AccountChanges = Partial<
  Pick<Account, 'name' | 'companyName' | 'passwordHash' | 'status' | 'emailConfirmedAt' | 'passwordChangedAt' | 'updatedAt'>
>;

export interface UserEventInput {
  kind: UserEventKind;
  account: Pick<Account, 'id' | 'channel' | 'email'>;
  apiKeyId?: string;
}

/**
 * Accounts and their auth.user.v1 events: every write stores its events in the same document
 * write (outbox), published right after and by a relay if Kafka is down, so a change and its
 * event are saved together or not at all.
 */
export interface AccountRepository {
  /** Throws ConflictError (reason phone_taken / email_taken) when the login id exists. */
  insert(account: Account, events: readonly UserEventInput[]): Promise<void>;
  findById(id: string): Promise<Account | undefined>;
  findByLoginId(loginId: string): Promise<Account | undefined>;
  update(id: string, changes: AccountChanges, events?: readonly UserEventInput[]): Promise<Account | undefined>;
  /** Removes a pending (never confirmed) account, only while it is still pending. */
  removePending(id: string): Promise<void>;
  /** Deletes pending accounts created before `createdBefore`; returns how many. */
  deletePendingCreatedBefore(createdBefore: Date): Promise<number>;
}

export const phoneLoginId = (phone: string) => `phone:${phone}`;
export const emailLoginId = (email: string) => `email:${email}`;

/** Pending email sign-ups expire with their confirmation link: refused after, then swept. */
export const PENDING_SIGNUP_TTL_MS = 24 * 3600_000;

export function isExpiredPending(account: Account, now: Date): boolean {
  return account.status === 'pending' && now.getTime() - account.createdAt.getTime() >= PENDING_SIGNUP_TTL_MS;
}

/**
 * The passwordChangedAt of a new password: now, but always after the previous one, so the
 * version below changes with every password change even within one millisecond.
 */
export function nextPasswordChange(account: Account, now: Date): Date {
  return new Date(Math.max(now.getTime(), passwordVersion(account) + 1));
}

/** The account's password version: links carry it and die when the password changes. */
export function passwordVersion(account: Account): number {
  return account.passwordChangedAt?.getTime() ?? 0;
}

export function toUser(account: Account, subscriptions: readonly SubscriptionState[], now: Date): User {
  const { auth, payService } = entitlementsOf(subscriptions, { partner: account.partner !== undefined, now });
  const displayName = account.channel === AccountChannel.ACCOUNT_CHANNEL_PHONE ? account.phone : account.name || account.email;
  return {
    id: account.id,
    phone: account.phone,
    email: account.email,
    name: account.name,
    channel: account.channel,
    auth,
    payService,
    displayName,
    partner: account.partner !== undefined,
    companyName: account.companyName,
    emailConfirmed: account.emailConfirmedAt !== undefined,
    createdAt: account.createdAt,
  };
}
