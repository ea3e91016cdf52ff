import { randomUUID } from 'node:crypto';
import { ConflictError, FailedPreconditionError, ResourceExhaustedError, UnauthenticatedError, type Clock } from '@ipdata/common';
import type { Session, User } from '@ipdata/proto/auth/v1/auth';
import { AccountChannel, UserEventKind } from '@ipdata/proto/events/v1/user';
import type { SessionService } from '../sessions/session.service.js';
import type { RateLimiter } from '../sms/sms-code.service.js';
import { MESSAGES } from '../shared/messages.js';
import { invalid, isEmail, normalizeEmail } from '../shared/validation.js';
import {
  emailLoginId,
  isExpiredPending,
  nextPasswordChange,
  passwordVersion,
  PENDING_SIGNUP_TTL_MS,
  type Account,
  type AccountRepository,
} from './account.js';
import type { IpLimits } from './ip-limits.js';
import { limitLoginAttempts, verifyLoginPassword } from './login-limit.js';
import { accountExistsMail, confirmationMail, resetMail } from './mail-templates.js';
import type { MailQueue, NonceStore } from './mailer.js';
import type { PasswordHasher } from './password-hasher.js';
import { checkPasswordPolicy, EMAIL_PASSWORD_TEXTS } from './password-policy.js';
import type { SignedLinks } from './signed-link.js';
import type { UserViews } from './user-views.js';

export const CONFIRM_LINK_TTL_MS = PENDING_SIGNUP_TTL_MS;
export const RESET_LINK_TTL_MS = 3600_000;

export interface EmailSignUp {
  email: string;
  password: string;
  passwordConfirmation: string;
  agreeTerms: boolean;
  name: string;
  clientIp: string;
}

export interface PasswordResetByLink {
  token: string;
  password: string;
  passwordConfirmation: string;
  clientIp: string;
  /** Default true: every session of the account ends. */
  endOtherSessions: boolean;
}

/** Checks a new password (policy) and its confirmation with the spec's messages. */
export function checkNewPassword(password: string, confirmation: string, field = 'password'): void {
  checkPasswordPolicy(password, EMAIL_PASSWORD_TEXTS, field);
  if (password !== confirmation) throw invalid('password_confirmation', MESSAGES.passwordsDiffer, 'passwords_differ');
}

const linkInvalid = () => invalid('token', MESSAGES.linkInvalid, 'link_invalid');

/** Face B: email + password accounts, confirmation and reset links by mail (queued, sent by the mail relay). */
export class EmailAccountService {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionService,
    private readonly links: SignedLinks,
    private readonly nonces: NonceStore,
    private readonly mail: MailQueue,
    private readonly limiter: RateLimiter,
    private readonly ipLimits: IpLimits,
    private readonly views: UserViews,
    private readonly clock: Clock,
    private readonly options: { publicBaseUrl: string; mailsPerAddressPerHour: number },
  ) {}

  /**
   * The same answer (and the same work: one scrypt, one account write attempt, one queued mail)
   * whether or not the address has an account; the mailbox owner learns the difference from the
   * mail: a confirmation link for a new (or still pending) sign-up, an "account exists" notice
   * for an active account.
   */
  async signUp(input: EmailSignUp): Promise<{ accountId: string; message: string }> {
    const email = normalizeEmail(input.email);
    if (!isEmail(email)) throw invalid('email', MESSAGES.invalidEmail, 'invalid_email');
    checkNewPassword(input.password, input.passwordConfirmation);
    if (!input.agreeTerms) throw invalid('agree_terms', MESSAGES.mustAgreeTerms, 'terms_not_accepted');
    if (input.name.length > 100) throw invalid('name', MESSAGES.nameTooLong, 'name_too_long');
    await this.ipLimits.consume('signup', input.clientIp);
    const now = this.clock.now();
    const account: Account = {
      id: randomUUID(),
      channel: AccountChannel.ACCOUNT_CHANNEL_EMAIL,
      loginId: emailLoginId(email),
      phone: '',
      email,
      name: input.name.trim(),
      companyName: '',
      passwordHash: await this.hasher.hash(input.password),
      status: 'pending',
      partner: undefined,
      createdAt: now,
      updatedAt: now,
      emailConfirmedAt: undefined,
      passwordChangedAt: undefined,
    };
    if (await this.insertPending(account)) {
      await this.mail.enqueue(confirmationMail(this.confirmLink(account), email));
    }
    return { accountId: '', message: MESSAGES.signUpConfirm };
  }

  async confirm(token: string): Promise<{ user: User; message: string }> {
    const now = this.clock.now();
    const payload = this.links.verify(token, 'confirm_email', now.getTime());
    if (!payload) throw linkInvalid();
    const account = await this.accounts.findById(payload.sub);
    if (!account || isExpiredPending(account, now)) throw linkInvalid();
    if (account.status === 'active') return { user: await this.views.of(account), message: MESSAGES.emailConfirmed };
    // A later sign-up of the same pending address set another password: only its link confirms.
    if (payload.ver !== passwordVersion(account)) throw linkInvalid();
    const updated = await this.accounts.update(account.id, { status: 'active', emailConfirmedAt: now, updatedAt: now }, [
      { kind: UserEventKind.USER_EVENT_KIND_ACTIVATED, account },
    ]);
    if (!updated) throw linkInvalid();
    return { user: await this.views.of(updated), message: MESSAGES.emailConfirmed };
  }

  async login(
    rawEmail: string,
    password: string,
    rememberMe: boolean,
    clientIp: string,
  ): Promise<{ user: User; session: Session; message: string }> {
    const email = normalizeEmail(rawEmail);
    if (!isEmail(email)) throw invalid('email', MESSAGES.invalidEmail, 'invalid_email');
    if (!password) throw invalid('password', MESSAGES.missingPassword, 'password_missing');
    await this.ipLimits.consume('login', clientIp);
    await limitLoginAttempts(this.limiter, this.clock, emailLoginId(email));
    const found = await this.accounts.findByLoginId(emailLoginId(email));
    // An expired pending sign-up is as good as no account.
    const account = found && !isExpiredPending(found, this.clock.now()) ? found : undefined;
    const matches = await verifyLoginPassword(this.hasher, this.accounts, account, password);
    if (!account || !matches) throw new UnauthenticatedError(MESSAGES.loginFailed, { reason: 'login_failed' });
    if (account.status !== 'active') {
      throw new FailedPreconditionError(MESSAGES.emailNotConfirmed, { reason: 'email_not_confirmed' });
    }
    const session = await this.sessions.create(account.id, rememberMe);
    return { user: await this.views.of(account), session, message: MESSAGES.loginSucceeded };
  }

  /** Same answer, at once, whether or not the address has an account (no enumeration, also not by timing). */
  async requestPasswordReset(rawEmail: string, clientIp: string): Promise<{ message: string }> {
    const email = normalizeEmail(rawEmail);
    if (!isEmail(email)) throw invalid('email', MESSAGES.invalidEmail, 'invalid_email');
    await this.ipLimits.consume('reset', clientIp);
    const now = this.clock.now();
    const hour = Math.floor(now.getTime() / 3600_000);
    if (!(await this.limiter.consume(`mail:reset:${email}:${hour}`, this.options.mailsPerAddressPerHour, 3660_000))) {
      throw new ResourceExhaustedError(MESSAGES.tooManyRequests, {
        reason: 'mail_limit',
        details: { retryAfterSeconds: String(Math.ceil(((hour + 1) * 3600_000 - now.getTime()) / 1000)) },
      });
    }
    const account = await this.accounts.findByLoginId(emailLoginId(email));
    if (account && !isExpiredPending(account, now)) {
      const { token } = this.links.issue({
        sub: account.id,
        purpose: 'reset_password',
        exp: now.getTime() + RESET_LINK_TTL_MS,
        ver: passwordVersion(account),
      });
      await this.mail.enqueue(
        resetMail(`${this.options.publicBaseUrl}/reset-password?token=${encodeURIComponent(token)}`, account.email),
      );
    }
    return { message: MESSAGES.resetMailSent };
  }

  async resetWithToken(input: PasswordResetByLink): Promise<{ message: string }> {
    const now = this.clock.now();
    const payload = this.links.verify(input.token, 'reset_password', now.getTime());
    if (!payload) throw linkInvalid();
    checkNewPassword(input.password, input.passwordConfirmation);
    await this.ipLimits.consume('reset', input.clientIp);
    const existing = await this.accounts.findById(payload.sub);
    // A link issued before the last password change (reset or ChangePassword) is dead.
    if (!existing || isExpiredPending(existing, now) || payload.ver !== passwordVersion(existing)) throw linkInvalid();
    // Single use: the nonce is burned before the password changes, so a replay always fails.
    if (!(await this.nonces.consume(`reset:${payload.jti}`, payload.exp - now.getTime() + 60_000))) throw linkInvalid();
    const account = await this.accounts.update(
      existing.id,
      {
        passwordHash: await this.hasher.hash(input.password),
        passwordChangedAt: nextPasswordChange(existing, now),
        updatedAt: now,
        // The link proves the mailbox, so a still-pending account becomes active.
        ...(existing.status === 'pending' ? { status: 'active' as const, emailConfirmedAt: now } : {}),
      },
      [{ kind: UserEventKind.USER_EVENT_KIND_PASSWORD_CHANGED, account: existing }],
    );
    if (!account) throw linkInvalid();
    if (input.endOtherSessions) await this.sessions.revokeAll(account.id);
    return { message: MESSAGES.passwordReset };
  }

  /**
   * Inserts a new pending account; true when the caller should mail its confirmation link. When
   * the address is taken: an expired pending sign-up is replaced, a live pending one gets the new
   * password (its older links die with the version) and a fresh link, an active account gets an
   * "account exists" mail instead.
   */
  private async insertPending(account: Account): Promise<boolean> {
    try {
      await this.accounts.insert(account, [{ kind: UserEventKind.USER_EVENT_KIND_REGISTERED, account }]);
      return true;
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
    }
    const existing = await this.accounts.findByLoginId(account.loginId);
    if (!existing) return false;
    const now = this.clock.now();
    if (isExpiredPending(existing, now)) {
      await this.accounts.removePending(existing.id);
      return this.insertPending(account);
    }
    if (existing.status === 'pending') {
      const updated = await this.accounts.update(existing.id, {
        passwordHash: account.passwordHash,
        passwordChangedAt: nextPasswordChange(existing, now),
        updatedAt: now,
      });
      if (updated) await this.mail.enqueue(confirmationMail(this.confirmLink(updated), updated.email));
      return false;
    }
    await this.mail.enqueue(accountExistsMail(`${this.options.publicBaseUrl}/forgot-password`, existing.email));
    return false;
  }

  private confirmLink(account: Account): string {
    const { token } = this.links.issue({
      sub: account.id,
      purpose: 'confirm_email',
      exp: Math.min(this.clock.now().getTime() + CONFIRM_LINK_TTL_MS, account.createdAt.getTime() + PENDING_SIGNUP_TTL_MS),
      ver: passwordVersion(account),
    });
    return `${this.options.publicBaseUrl}/confirm-email?token=${encodeURIComponent(token)}`;
  }
}
