import { randomUUID } from 'node:crypto';
import { UnauthenticatedError, type Clock } from '@ipdata/common';
import type { Session, User } from '@ipdata/proto/auth/v1/auth';
import { AccountChannel, UserEventKind } from '@ipdata/proto/events/v1/user';
import type { SessionService } from '../sessions/session.service.js';
import type { RateLimiter, SmsCodeService } from '../sms/sms-code.service.js';
import { MESSAGES } from '../shared/messages.js';
import { invalid, isEmail, isPhone, normalizeEmail } from '../shared/validation.js';
import {
  nextPasswordChange,
  phoneLoginId,
  type Account,
  type AccountRepository,
  type PartnerInfo,
  type UserEventInput,
} from './account.js';
import type { IpLimits } from './ip-limits.js';
import { limitLoginAttempts, verifyLoginPassword } from './login-limit.js';
import type { PasswordHasher } from './password-hasher.js';
import { checkPasswordPolicy, PHONE_PASSWORD_TEXTS } from './password-policy.js';
import type { UserViews } from './user-views.js';

export interface LoggedIn {
  user: User;
  session: Session;
  message: string;
}

export interface PartnerSignUp {
  phone: string;
  code: string;
  password: string;
  companyName: string;
  contactName: string;
  email: string;
  clientIp: string;
}

export interface PhonePasswordReset {
  phone: string;
  code: string;
  password: string;
  confirmation: string;
  clientIp: string;
  /** Default true: every session of the account ends. */
  endOtherSessions: boolean;
}

function checkPhonePassword(password: string): void {
  checkPasswordPolicy(password, PHONE_PASSWORD_TEXTS);
}

function checkPhone(phone: string): void {
  if (!isPhone(phone)) throw invalid('phone', MESSAGES.invalidPhone, 'invalid_phone');
}

/** Face A: accounts identified by a mainland China mobile number, proven by SMS codes. */
export class PhoneAccountService {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionService,
    private readonly codes: SmsCodeService,
    private readonly limiter: RateLimiter,
    private readonly ipLimits: IpLimits,
    private readonly views: UserViews,
    private readonly clock: Clock,
  ) {}

  async register(phone: string, code: string, password: string, clientIp: string): Promise<LoggedIn> {
    checkPhone(phone);
    checkPhonePassword(password);
    await this.ipLimits.consume('signup', clientIp);
    await this.codes.verify(phone, 'register', code);
    const account = await this.create(phone, password, undefined);
    return this.loggedIn(account, false, MESSAGES.registered);
  }

  async registerPartner(input: PartnerSignUp): Promise<LoggedIn> {
    checkPhone(input.phone);
    checkPhonePassword(input.password);
    const companyName = input.companyName.trim();
    const contactName = input.contactName.trim();
    if (!companyName || companyName.length > 200) throw invalid('company_name', MESSAGES.companyMissing, 'company_missing');
    if (!contactName || contactName.length > 100) throw invalid('contact_name', MESSAGES.contactMissing, 'contact_missing');
    const email = normalizeEmail(input.email);
    if (email && !isEmail(email)) throw invalid('email', MESSAGES.invalidEmail, 'invalid_email');
    await this.ipLimits.consume('signup', input.clientIp);
    await this.codes.verify(input.phone, 'partner', input.code);
    const account = await this.create(input.phone, input.password, { companyName, contactName, email });
    return this.loggedIn(account, false, MESSAGES.partnerRegistered);
  }

  async loginWithPassword(phone: string, password: string, rememberMe: boolean, clientIp: string): Promise<LoggedIn> {
    checkPhone(phone);
    if (!password) throw invalid('password', MESSAGES.phonePasswordMissing, 'password_missing');
    await this.ipLimits.consume('login', clientIp);
    await limitLoginAttempts(this.limiter, this.clock, phoneLoginId(phone));
    const account = await this.accounts.findByLoginId(phoneLoginId(phone));
    const matches = await verifyLoginPassword(this.hasher, this.accounts, account, password);
    if (!account || !matches) throw new UnauthenticatedError(MESSAGES.phoneLoginFailed, { reason: 'login_failed' });
    return this.loggedIn(account, rememberMe, MESSAGES.phoneLoginSucceeded);
  }

  async loginWithCode(phone: string, code: string, rememberMe: boolean, clientIp: string): Promise<LoggedIn> {
    checkPhone(phone);
    await this.ipLimits.consume('login', clientIp);
    await this.codes.verify(phone, 'login', code);
    const account = await this.accounts.findByLoginId(phoneLoginId(phone));
    if (!account) throw new UnauthenticatedError(MESSAGES.phoneCodeLoginFailed, { reason: 'login_failed' });
    return this.loggedIn(account, rememberMe, MESSAGES.phoneLoginSucceeded);
  }

  async resetPassword(input: PhonePasswordReset): Promise<{ message: string }> {
    const { phone, code, password, confirmation } = input;
    checkPhone(phone);
    checkPhonePassword(password);
    if (confirmation && confirmation !== password) {
      throw invalid('password_confirmation', MESSAGES.phonePasswordsDiffer, 'passwords_differ');
    }
    await this.ipLimits.consume('reset', input.clientIp);
    await this.codes.verify(phone, 'reset_password', code);
    const existing = await this.accounts.findByLoginId(phoneLoginId(phone));
    // The code proved the phone; an unknown phone gets the same wording as a wrong code.
    if (!existing) throw invalid('code', MESSAGES.codeWrong, 'sms_code_wrong');
    const now = this.clock.now();
    const account = await this.accounts.update(
      existing.id,
      { passwordHash: await this.hasher.hash(password), passwordChangedAt: nextPasswordChange(existing, now), updatedAt: now },
      [{ kind: UserEventKind.USER_EVENT_KIND_PASSWORD_CHANGED, account: existing }],
    );
    if (!account) throw invalid('code', MESSAGES.codeWrong, 'sms_code_wrong');
    if (input.endOtherSessions) await this.sessions.revokeAll(account.id);
    return { message: MESSAGES.phonePasswordReset };
  }

  private async create(phone: string, password: string, partner: PartnerInfo | undefined): Promise<Account> {
    const now = this.clock.now();
    const account: Account = {
      id: randomUUID(),
      channel: AccountChannel.ACCOUNT_CHANNEL_PHONE,
      loginId: phoneLoginId(phone),
      phone,
      email: '',
      name: partner?.contactName ?? '',
      companyName: partner?.companyName ?? '',
      passwordHash: await this.hasher.hash(password),
      status: 'active',
      partner,
      createdAt: now,
      updatedAt: now,
      emailConfirmedAt: undefined,
      passwordChangedAt: undefined,
    };
    // REGISTERED first (billing grants the free plan to every new account), then the partner fact;
    // both in the account's own insert (outbox).
    const events: UserEventInput[] = [{ kind: UserEventKind.USER_EVENT_KIND_REGISTERED, account }];
    if (partner) events.push({ kind: UserEventKind.USER_EVENT_KIND_PARTNER_REGISTERED, account });
    await this.accounts.insert(account, events);
    return account;
  }

  private async loggedIn(account: Account, rememberMe: boolean, message: string): Promise<LoggedIn> {
    const session = await this.sessions.create(account.id, rememberMe);
    return { user: await this.views.of(account), session, message };
  }
}
