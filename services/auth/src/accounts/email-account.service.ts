import { randomUUID } from 'node:crypto';
import { FailedPreconditionError, ResourceExhaustedError, UnauthenticatedError } from '@ipdata/common';
import type { Session, User } from '@ipdata/proto/auth/v1/auth';
import { AccountChannel, UserEventKind } from '@ipdata/proto/events/v1/user';
import type { SessionService } from '../sessions/session.service.js';
import type { RateLimiter } from '../sms/sms-code.service.js';
import type { Clock } from '../shared/clock.js';
import { MESSAGES } from '../shared/messages.js';
import { invalid, isEmail, normalizeEmail, passwordLengthOk } from '../shared/validation.js';
import { emailLoginId, type Account, type AccountRepository, type UserEventPublisher } from './account.js';
import type { Mailer, NonceStore } from './mailer.js';
import type { PasswordHasher } from './password-hasher.js';
import type { SignedLinks } from './signed-link.js';
import { limitLoginAttempts } from './login-limit.js';
import type { UserViews } from './user-views.js';

export const CONFIRM_LINK_TTL_MS = 24 * 3600_000;
export const RESET_LINK_TTL_MS = 3600_000;

export interface EmailSignUp {
  email: string;
  password: string;
  passwordConfirmation: string;
  agreeTerms: boolean;
  name: string;
}

/** Checks a new password and its confirmation with the spec's messages. */
export function checkNewPassword(password: string, confirmation: string, field = 'password'): void {
  if (!password) throw invalid(field, MESSAGES.missingPassword, 'password_missing');
  if (!passwordLengthOk(password)) throw invalid(field, MESSAGES.passwordLength, 'password_length');
  if (password !== confirmation) throw invalid('password_confirmation', MESSAGES.passwordsDiffer, 'passwords_differ');
}

/** Face B: email + password accounts, confirmation and reset links by mail. */
export class EmailAccountService {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionService,
    private readonly links: SignedLinks,
    private readonly nonces: NonceStore,
    private readonly mailer: Mailer,
    private readonly events: UserEventPublisher,
    private readonly limiter: RateLimiter,
    private readonly views: UserViews,
    private readonly clock: Clock,
    private readonly options: { publicBaseUrl: string; mailsPerAddressPerHour: number },
  ) {}

  async signUp(input: EmailSignUp): Promise<{ accountId: string; message: string }> {
    const email = normalizeEmail(input.email);
    if (!isEmail(email)) throw invalid('email', MESSAGES.invalidEmail, 'invalid_email');
    checkNewPassword(input.password, input.passwordConfirmation);
    if (!input.agreeTerms) throw invalid('agree_terms', MESSAGES.mustAgreeTerms, 'terms_not_accepted');
    if (input.name.length > 100) throw invalid('name', MESSAGES.nameTooLong, 'name_too_long');
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
    await this.accounts.insert(account);
    try {
      await this.mailConfirmation(account);
    } catch (error) {
      // Without the mail the account could never be confirmed: undo it so the user can simply retry.
      await this.accounts.remove(account.id);
      throw error;
    }
    await this.events.publish({ kind: UserEventKind.USER_EVENT_KIND_REGISTERED, account });
    return { accountId: account.id, message: MESSAGES.signUpConfirm };
  }

  async confirm(token: string): Promise<{ user: User; message: string }> {
    const payload = this.links.verify(token, 'confirm_email', this.clock.now().getTime());
    if (!payload) throw invalid('token', MESSAGES.linkInvalid, 'link_invalid');
    const account = await this.accounts.findById(payload.sub);
    if (!account) throw invalid('token', MESSAGES.linkInvalid, 'link_invalid');
    if (account.status === 'active') return { user: await this.views.of(account), message: MESSAGES.emailConfirmed };
    const now = this.clock.now();
    const updated = await this.accounts.update(account.id, { status: 'active', emailConfirmedAt: now, updatedAt: now });
    if (!updated) throw invalid('token', MESSAGES.linkInvalid, 'link_invalid');
    await this.events.publish({ kind: UserEventKind.USER_EVENT_KIND_ACTIVATED, account: updated });
    return { user: await this.views.of(updated), message: MESSAGES.emailConfirmed };
  }

  async login(
    rawEmail: string,
    password: string,
    rememberMe: boolean,
  ): Promise<{ user: User; session: Session; message: string }> {
    const email = normalizeEmail(rawEmail);
    if (!isEmail(email)) throw invalid('email', MESSAGES.invalidEmail, 'invalid_email');
    if (!password) throw invalid('password', MESSAGES.missingPassword, 'password_missing');
    await limitLoginAttempts(this.limiter, this.clock, emailLoginId(email));
    const account = await this.accounts.findByLoginId(emailLoginId(email));
    // Unknown account and wrong password: same work (one scrypt), same error.
    const matches = account ? await this.hasher.verify(password, account.passwordHash) : await this.hasher.verifyDummy(password);
    if (!account || !matches) throw new UnauthenticatedError(MESSAGES.loginFailed, { reason: 'login_failed' });
    if (account.status !== 'active') {
      throw new FailedPreconditionError(MESSAGES.emailNotConfirmed, { reason: 'email_not_confirmed' });
    }
    const session = await this.sessions.create(account.id, rememberMe);
    return { user: await this.views.of(account), session, message: MESSAGES.loginSucceeded };
  }

  /** Same answer whether or not the address has an account (no enumeration). */
  async requestPasswordReset(rawEmail: string): Promise<{ message: string }> {
    const email = normalizeEmail(rawEmail);
    if (!isEmail(email)) throw invalid('email', MESSAGES.invalidEmail, 'invalid_email');
    const now = this.clock.now().getTime();
    const hour = Math.floor(now / 3600_000);
    if (!(await this.limiter.consume(`mail:reset:${email}:${hour}`, this.options.mailsPerAddressPerHour, 3660_000))) {
      throw new ResourceExhaustedError(MESSAGES.tooManyRequests, {
        reason: 'mail_limit',
        details: { retryAfterSeconds: String(Math.ceil(((hour + 1) * 3600_000 - now) / 1000)) },
      });
    }
    const account = await this.accounts.findByLoginId(emailLoginId(email));
    if (account) {
      const { token } = this.links.issue({ sub: account.id, purpose: 'reset_password', exp: now + RESET_LINK_TTL_MS });
      const link = `${this.options.publicBaseUrl}/reset-password?token=${encodeURIComponent(token)}`;
      await this.mailer.send({
        to: account.email,
        subject: 'Reset your IP Data password',
        text: `To choose a new password, open this link within 1 hour:\n\n${link}\n\nIf you did not ask for this, ignore this email.`,
        html: `<p>To choose a new password, open this link within 1 hour:</p><p><a href="${link}">${link}</a></p><p>If you did not ask for this, ignore this email.</p>`,
      });
    }
    return { message: MESSAGES.resetMailSent };
  }

  async resetWithToken(token: string, password: string, confirmation: string): Promise<{ message: string }> {
    const now = this.clock.now();
    const payload = this.links.verify(token, 'reset_password', now.getTime());
    if (!payload) throw invalid('token', MESSAGES.linkInvalid, 'link_invalid');
    checkNewPassword(password, confirmation);
    // Single use: the nonce is burned before the password changes, so a replay always fails.
    if (!(await this.nonces.consume(`reset:${payload.jti}`, payload.exp - now.getTime() + 60_000))) {
      throw invalid('token', MESSAGES.linkInvalid, 'link_invalid');
    }
    const existing = await this.accounts.findById(payload.sub);
    if (!existing) throw invalid('token', MESSAGES.linkInvalid, 'link_invalid');
    const account = await this.accounts.update(existing.id, {
      passwordHash: await this.hasher.hash(password),
      passwordChangedAt: now,
      updatedAt: now,
      // The link proves the mailbox, so a still-pending account becomes active.
      ...(existing.status === 'pending' ? { status: 'active' as const, emailConfirmedAt: now } : {}),
    });
    if (!account) throw invalid('token', MESSAGES.linkInvalid, 'link_invalid');
    await this.sessions.revokeAll(account.id);
    await this.events.publish({ kind: UserEventKind.USER_EVENT_KIND_PASSWORD_CHANGED, account });
    return { message: MESSAGES.passwordReset };
  }

  private async mailConfirmation(account: Account): Promise<void> {
    const { token } = this.links.issue({
      sub: account.id,
      purpose: 'confirm_email',
      exp: this.clock.now().getTime() + CONFIRM_LINK_TTL_MS,
    });
    const link = `${this.options.publicBaseUrl}/confirm-email?token=${encodeURIComponent(token)}`;
    await this.mailer.send({
      to: account.email,
      subject: 'Confirm your IP Data account',
      text: `Welcome to IP Data. Please confirm your email address within 24 hours by opening this link:\n\n${link}\n`,
      html: `<p>Welcome to IP Data.</p><p>Please confirm your email address within 24 hours:</p><p><a href="${link}">Confirm my email address</a></p><p>${link}</p>`,
    });
  }
}
