import { InvalidArgumentError } from '@ipdata/common';
import type { User } from '@ipdata/proto/auth/v1/auth';
import { UserEventKind } from '@ipdata/proto/events/v1/user';
import { sessionInvalid, type SessionService } from '../sessions/session.service.js';
import type { Clock } from '../shared/clock.js';
import { MESSAGES } from '../shared/messages.js';
import { invalid } from '../shared/validation.js';
import type { Account, AccountRepository, UserEventPublisher } from './account.js';
import { checkNewPassword } from './email-account.service.js';
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
    private readonly events: UserEventPublisher,
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
    const updated = await this.accounts.update(account.id, {
      ...(name === undefined ? {} : { name }),
      ...(companyName === undefined ? {} : { companyName }),
      updatedAt: this.clock.now(),
    });
    if (!updated) throw sessionInvalid();
    await this.events.publish({ kind: UserEventKind.USER_EVENT_KIND_PROFILE_UPDATED, account: updated });
    return { user: await this.views.of(updated), message: MESSAGES.profileSaved };
  }

  /** Needs the current password; other sessions of the account end, the caller's stays. */
  async changePassword(token: string, current: string, next: string, confirmation: string): Promise<{ message: string }> {
    const account = await this.accountOf(token);
    if (!current) throw invalid('current_password', MESSAGES.missingCurrentPassword, 'current_password_missing');
    checkNewPassword(next, confirmation, 'new_password');
    if (!(await this.hasher.verify(current, account.passwordHash))) {
      throw new InvalidArgumentError(MESSAGES.currentPasswordWrong, {
        reason: 'current_password_wrong',
        details: { field: 'current_password' },
      });
    }
    const now = this.clock.now();
    const updated = await this.accounts.update(account.id, {
      passwordHash: await this.hasher.hash(next),
      passwordChangedAt: now,
      updatedAt: now,
    });
    if (!updated) throw sessionInvalid();
    await this.sessions.revokeAll(account.id, token);
    await this.events.publish({ kind: UserEventKind.USER_EVENT_KIND_PASSWORD_CHANGED, account: updated });
    return { message: MESSAGES.profileSaved };
  }
}
