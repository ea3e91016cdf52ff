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

export interface AccountRepository {
  /** Throws ConflictError (reason phone_taken / email_taken) when the login id exists. */
  insert(account: Account): Promise<void>;
  findById(id: string): Promise<Account | undefined>;
  findByLoginId(loginId: string): Promise<Account | undefined>;
  update(id: string, changes: AccountChanges): Promise<Account | undefined>;
  /** Only to undo a sign-up whose confirmation mail could not be sent. */
  remove(id: string): Promise<void>;
}

export const phoneLoginId = (phone: string) => `phone:${phone}`;
export const emailLoginId = (email: string) => `email:${email}`;

export interface UserEventInput {
  kind: UserEventKind;
  account: Pick<Account, 'id' | 'channel' | 'email'>;
  apiKeyId?: string;
}

/** Publishes UserEvents on auth.user.v1 (key = account id). */
export interface UserEventPublisher {
  publish(event: UserEventInput): Promise<void>;
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
