import { unary as unaryHandler } from '@ipdata/common';
import { SmsPurpose, type AuthServiceServer } from '@ipdata/proto/auth/v1/auth';
import type { Logger } from 'pino';
import type { EmailAccountService } from '../../accounts/email-account.service.js';
import type { PhoneAccountService } from '../../accounts/phone-account.service.js';
import type { ProfileService } from '../../accounts/profile.service.js';
import type { ApiKeyService } from '../../api-keys/api-key.service.js';
import type { SessionService } from '../../sessions/session.service.js';
import type { SmsCodeService, SmsPurposeName } from '../../sms/sms-code.service.js';
import { MESSAGES } from '../../shared/messages.js';
import { checkFieldLengths } from '../../shared/input-limits.js';
import { invalid } from '../../shared/validation.js';

export interface AuthDomain {
  smsCodes: SmsCodeService;
  phoneAccounts: PhoneAccountService;
  emailAccounts: EmailAccountService;
  profiles: ProfileService;
  sessions: SessionService;
  apiKeys: ApiKeyService;
}

const PURPOSES: Partial<Record<SmsPurpose, SmsPurposeName>> = {
  [SmsPurpose.SMS_PURPOSE_REGISTER]: 'register',
  [SmsPurpose.SMS_PURPOSE_LOGIN]: 'login',
  [SmsPurpose.SMS_PURPOSE_RESET_PASSWORD]: 'reset_password',
  [SmsPurpose.SMS_PURPOSE_PARTNER]: 'partner',
};

/** common's unary() with every string field checked against its maximum length before any other work. */
function unary<Req extends object, Res>(logger: Logger, method: string, handler: (req: Req) => Promise<Res>) {
  return unaryHandler<Req, Res>(logger, method, async (req) => {
    checkFieldLengths(req);
    return handler(req);
  });
}

/** Thin gRPC layer: unpack the request, call the domain, pack the answer. Errors map in unary(). */
export function authHandlers(domain: AuthDomain, logger: Logger): AuthServiceServer {
  const { smsCodes, phoneAccounts, emailAccounts, profiles, sessions, apiKeys } = domain;
  return {
    sendSmsCode: unary(logger, 'SendSmsCode', async (req) => {
      const purpose = PURPOSES[req.purpose];
      if (!purpose) throw invalid('purpose', MESSAGES.purposeMissing, 'invalid_purpose');
      const sent = await smsCodes.send(req.phone.trim(), purpose, req.clientIp);
      return { message: MESSAGES.codeSent, ...sent };
    }),
    registerWithPhone: unary(logger, 'RegisterWithPhone', (req) =>
      phoneAccounts.register(req.phone.trim(), req.code.trim(), req.password, req.clientIp),
    ),
    loginWithPhonePassword: unary(logger, 'LoginWithPhonePassword', (req) =>
      phoneAccounts.loginWithPassword(req.phone.trim(), req.password, req.rememberMe, req.clientIp),
    ),
    loginWithPhoneCode: unary(logger, 'LoginWithPhoneCode', (req) =>
      phoneAccounts.loginWithCode(req.phone.trim(), req.code.trim(), req.rememberMe, req.clientIp),
    ),
    resetPasswordWithPhone: unary(logger, 'ResetPasswordWithPhone', (req) =>
      phoneAccounts.resetPassword({
        phone: req.phone.trim(),
        code: req.code.trim(),
        password: req.password,
        confirmation: req.passwordConfirmation,
        clientIp: req.clientIp,
        endOtherSessions: req.endOtherSessions ?? true,
      }),
    ),
    registerPartner: unary(logger, 'RegisterPartner', (req) =>
      phoneAccounts.registerPartner({
        phone: req.phone.trim(),
        code: req.code.trim(),
        password: req.password,
        companyName: req.companyName,
        contactName: req.contactName,
        email: req.email,
        clientIp: req.clientIp,
      }),
    ),
    signUpWithEmail: unary(logger, 'SignUpWithEmail', (req) =>
      emailAccounts.signUp({
        email: req.email,
        password: req.password,
        passwordConfirmation: req.passwordConfirmation,
        agreeTerms: req.agreeTerms,
        name: req.name,
        clientIp: req.clientIp,
      }),
    ),
    confirmEmail: unary(logger, 'ConfirmEmail', (req) => emailAccounts.confirm(req.token)),
    loginWithEmail: unary(logger, 'LoginWithEmail', (req) =>
      emailAccounts.login(req.email, req.password, req.rememberMe, req.clientIp),
    ),
    requestPasswordReset: unary(logger, 'RequestPasswordReset', (req) =>
      emailAccounts.requestPasswordReset(req.email, req.clientIp),
    ),
    resetPasswordWithToken: unary(logger, 'ResetPasswordWithToken', (req) =>
      emailAccounts.resetWithToken({
        token: req.token,
        password: req.password,
        passwordConfirmation: req.passwordConfirmation,
        clientIp: req.clientIp,
        endOtherSessions: req.endOtherSessions ?? true,
      }),
    ),
    resolveSession: unary(logger, 'ResolveSession', (req) => sessions.resolve(req.token)),
    logout: unary(logger, 'Logout', async (req) => {
      await sessions.revoke(req.token);
      return {};
    }),
    getUser: unary(logger, 'GetUser', async (req) => ({ user: await profiles.getUser(req.token) })),
    updateProfile: unary(logger, 'UpdateProfile', (req) =>
      profiles.updateProfile(req.token, { name: req.name, companyName: req.companyName }),
    ),
    changePassword: unary(logger, 'ChangePassword', (req) =>
      profiles.changePassword(
        req.token,
        req.currentPassword,
        req.newPassword,
        req.passwordConfirmation,
        req.endOtherSessions ?? true,
      ),
    ),
    createApiKey: unary(logger, 'CreateApiKey', async (req) => apiKeys.create(await profiles.accountOf(req.token), req.name)),
    listApiKeys: unary(logger, 'ListApiKeys', async (req) => {
      const { accountId } = await sessions.resolve(req.token);
      return { apiKeys: await apiKeys.list(accountId, req.includeRevoked) };
    }),
    rotateApiKey: unary(logger, 'RotateApiKey', async (req) => apiKeys.rotate(await profiles.accountOf(req.token), req.keyId)),
    revokeApiKey: unary(logger, 'RevokeApiKey', async (req) => ({
      apiKey: await apiKeys.revoke(await profiles.accountOf(req.token), req.keyId),
    })),
    resolveApiKey: unary(logger, 'ResolveApiKey', async (req) => {
      const resolved = await apiKeys.resolve(req.key.trim());
      return { ...resolved, periodEnd: resolved.periodEnd ? new Date(resolved.periodEnd) : undefined };
    }),
  };
}
