import { InvalidArgumentError, type Clock } from '@ipdata/common';
import type { User } from '@ipdata/proto/auth/v1/auth';
import { UserEventKind } from '@ipdata/proto/events/v1/user';
import { sessionInvalid, type SessionService } from '../sessions/session.service.js';
import { MESSAGES } from '../shared/messages.js';
import { invalid } from '../shared/validation.js';
import type { RateLimiter } from '../sms/sms-code.service.js';
import { nextPasswordChange, type Account, type AccountRepository } from './account.js';
import { checkNewPassword } from './email-account.service.js';
import { limitPasswordChecks } from './login-limit.js';
import type { PasswordHasher } from './password-hasher.js';
import type { UserViews } from './user-views.js';

export interface ProfileChanges {
  name?: string | undefined;
  companyName?: string | undefined;
}

/** The logged-in user's own account: user state, profile, password change. */
export class ProfileService {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionService,
    private readonly limiter: RateLimiter,
    private readonly views: UserViews,
    private readonly clock: Clock,
  ) {}

  /** Resolves the session and loads its account; an account deleted meanwhile counts as a dead session. */
  async accountOf(token: string): Promise<Account> {
    const { accountId } = await this.sessions.resolve(token);
    const account = await this.accounts.findById(accountId);
    if (!account) throw sessionInvalid();
    return account;
  }

  async getUser(token: string): Promise<User> {
    return this.views.of(await this.accountOf(token));
  }

  async updateProfile(token: string, changes: ProfileChanges): Promise<{ user: User; message: string }> {
    const account = await this.accountOf(token);
    const name = changes.name?.trim();
    const companyName = changes.companyName?.trim();
    if (name !== undefined && name.length > 100) throw invalid('name', MESSAGES.nameTooLong, 'name_too_long');
    if (companyName !== undefined && companyName.length > 200) {
      throw invalid('company_name', 'The company name must be at most 200 characters long', 'company_too_long');
    }
    const updated = await this.accounts.update(
      account.id,
      {
        ...(name === undefined ? {} : { name }),
        ...(companyName === undefined ? {} : { companyName }),
        updatedAt: this.clock.now(),
      },
      [{ kind: UserEventKind.USER_EVENT_KIND_PROFILE_UPDATED, account }],
    );
    if (!updated) throw sessionInvalid();
    return { user: await this.views.of(updated), message: MESSAGES.profileSaved };
  }

  /**
   * Needs the current password (at most 10 checks per account per 15 minutes, so a stolen
   * session cannot be used to guess it). By default the account's other sessions end and the
   * caller's stays; `endOtherSessions: false` keeps them. Outstanding reset links die either way
   * (they carry the password version).
   */
  async changePassword(
    token: string,
    current: string,
    next: string,
    confirmation: string,
    endOtherSessions = true,
  ): Promise<{ message: string }> {
    const account = await this.accountOf(token);
    if (!current) throw invalid('current_password', MESSAGES.missingCurrentPassword, 'current_password_missing');
    checkNewPassword(next, confirmation, 'new_password');
    await limitPasswordChecks(this.limiter, this.clock, account.id);
    if (!(await this.hasher.verify(current, account.passwordHash))) {
      throw new InvalidArgumentError(MESSAGES.currentPasswordWrong, {
        reason: 'current_password_wrong',
        details: { field: 'current_password' },
      });
    }
    const now = this.clock.now();
    const updated = await this.accounts.update(
      account.id,
      { passwordHash: await this.hasher.hash(next), passwordChangedAt: nextPasswordChange(account, now), updatedAt: now },
      [{ kind: UserEventKind.USER_EVENT_KIND_PASSWORD_CHANGED, account }],
    );
    if (!updated) throw sessionInvalid();
    if (endOtherSessions) await this.sessions.revokeAll(account.id, token);
    return { message: MESSAGES.profileSaved };
  }
}
