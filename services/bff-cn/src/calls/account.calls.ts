import { SmsPurpose, type User } from '@ipdata/proto/auth/v1/auth';
import { AccountChannel } from '@ipdata/proto/events/v1/user';
import type { Logger } from '@ipdata/common';
import type { FaceAAccounts, SignedIn } from '../accounts/accounts.ports.js';
import type { SiteContent } from '../content/site-content.ports.js';
import { CODE, FaceAError, MSG } from '../face-a/envelope.js';
import { defineCall, type FaceACall } from '../face-a/face-a-call.js';
import type { FieldSpec } from '../face-a/input-schema.js';

const PHONE = { kind: 'phone', label: '手机号', required: true } as const satisfies FieldSpec;
const CODE_FIELD = {
  kind: 'string',
  label: '验证码',
  required: true,
  maxLength: 6,
  pattern: /^\d{6}$/,
  patternMsg: '请输入 6 位数字验证码',
} as const satisfies FieldSpec;
// auth enforces the password rules (and answers them in Chinese); here only a sanity bound.
const PASSWORD = { kind: 'string', label: '密码', required: true, maxLength: 128 } as const satisfies FieldSpec;
const REMEMBER = { kind: 'flag', label: '记住我', required: false } as const satisfies FieldSpec;

/** `type` of send_sms_code → auth's code slot (a code sent for one purpose is not accepted for another). */
const PURPOSES = {
  register: SmsPurpose.SMS_PURPOSE_REGISTER,
  login: SmsPurpose.SMS_PURPOSE_LOGIN,
  reset_password: SmsPurpose.SMS_PURPOSE_RESET_PASSWORD,
  cooperation: SmsPurpose.SMS_PURPOSE_PARTNER,
} as const;

const CHANNELS: Readonly<Record<number, string>> = {
  [AccountChannel.ACCOUNT_CHANNEL_PHONE]: 'phone',
  [AccountChannel.ACCOUNT_CHANNEL_EMAIL]: 'email',
};

/** The spec's user state: `phone` is shown as the user name on face A. */
export function userView(user: User) {
  return {
    id: user.id,
    phone: user.phone,
    name: user.name,
    display_name: user.displayName,
    channel: CHANNELS[user.channel] ?? 'unknown',
    auth: user.auth,
    pay_service: user.payService,
    partner: user.partner,
    company_name: user.companyName,
    created_at: user.createdAt?.toISOString() ?? null,
  };
}

/** A login or sign-up: the token the client keeps in its `token` cookie, its expiry and the user. */
function signedInView(signedIn: SignedIn) {
  if (signedIn.session === undefined || signedIn.user === undefined) throw new Error('auth answered a login without a session');
  return {
    data: {
      token: signedIn.session.token,
      expires_at: signedIn.session.expiresAt?.toISOString() ?? null,
      user: userView(signedIn.user),
    },
    msg: signedIn.message || MSG.ok,
  };
}

const optionalText = (label: string, maxLength: number) => ({ kind: 'string', label, required: false, maxLength }) as const;

export interface AccountCallsDeps {
  accounts: FaceAAccounts;
  unread: (accountId: string) => Promise<number | null>;
  /** Where a cooperation sign-up's note is kept for the sales team (content's cooperation list). */
  content: Pick<SiteContent, 'submitCooperation'>;
  logger: Logger;
}

/** Face A's phone accounts, all through auth (which owns codes, SMS limits, passwords and sessions). */
export function accountCalls({ accounts, unread, content, logger }: AccountCallsDeps): FaceACall[] {
  return [
    defineCall({
      name: 'send_sms_code',
      path: '/v1/send_sms_code',
      methods: ['POST'],
      needsLogin: false,
      silent: false,
      input: { phone: PHONE, type: { kind: 'enum', label: '验证码类型', required: true, values: Object.keys(PURPOSES) } },
      handle: async (context, { phone, type }) => {
        const sent = await accounts.sendSmsCode(phone, PURPOSES[type as keyof typeof PURPOSES], context.clientIp);
        return {
          data: { resend_after_seconds: sent.resendAfterSeconds, expires_in_seconds: sent.expiresInSeconds },
          msg: sent.message || '验证码已发送',
        };
      },
    }),
    defineCall({
      name: 'phone_login',
      path: '/v1/phone_login',
      methods: ['POST'],
      needsLogin: false,
      silent: false,
      input: { phone: PHONE, password: PASSWORD, remember: REMEMBER },
      handle: async (context, { phone, password, remember }) =>
        signedInView(await accounts.loginWithPassword(phone, password, remember, context.clientIp)),
    }),
    defineCall({
      name: 'user_login_phone_code',
      path: '/v1/user_login_phone_code',
      methods: ['POST'],
      needsLogin: false,
      silent: false,
      input: { phone: PHONE, code: CODE_FIELD, remember: REMEMBER },
      handle: async (context, { phone, code, remember }) =>
        signedInView(await accounts.loginWithCode(phone, code, remember, context.clientIp)),
    }),
    defineCall({
      name: 'user_regis',
      path: '/v1/user_regis',
      methods: ['POST'],
      needsLogin: false,
      silent: false,
      input: { phone: PHONE, code: CODE_FIELD, password: PASSWORD },
      handle: async (context, { phone, code, password }) =>
        signedInView(await accounts.register(phone, code, password, context.clientIp)),
    }),
    defineCall({
      name: 'user_update_password_phone',
      path: '/v1/user_update_password_phone',
      methods: ['POST'],
      needsLogin: false,
      silent: false,
      input: {
        phone: PHONE,
        code: CODE_FIELD,
        password: PASSWORD,
        password_confirmation: { kind: 'string', label: '确认密码', required: false, maxLength: 128 },
      },
      handle: async (context, { phone, code, password, password_confirmation }) => {
        const reset = await accounts.resetPassword(phone, code, password, password_confirmation ?? '', context.clientIp);
        return { data: null, msg: reset.message || '密码已重置，请重新登录' };
      },
    }),
    defineCall({
      name: 'regist_cooperation',
      path: '/v1/regist_cooperation',
      methods: ['POST'],
      needsLogin: false,
      silent: false,
      input: {
        phone: PHONE,
        code: CODE_FIELD,
        password: PASSWORD,
        company: { kind: 'string', label: '公司名称', required: true, maxLength: 100 },
        name: { kind: 'string', label: '联系人姓名', required: true, maxLength: 50 },
        email: optionalText('电子邮箱', 254),
        message: optionalText('合作说明', 2000),
      },
      handle: async (context, form) => {
        // auth checks the code (sent with type cooperation) and creates the partner account with
        // its company and contact; that is the sign-up, so it decides the answer.
        const signedIn = await accounts.registerPartner(
          {
            phone: form.phone,
            code: form.code,
            password: form.password,
            companyName: form.company,
            contactName: form.name,
            email: form.email ?? '',
          },
          context.clientIp,
        );
        // The note for the sales team (content's cooperation list, published on
        // content.feedback.v1). The account already holds company, contact and phone, so when
        // content is down only the free-text message is missing: logged, not failed.
        const sender = {
          accountId: signedIn.user?.id ?? '',
          visitorId: context.visitorId,
          clientIp: context.clientIp,
          plat: context.plat,
        };
        const cooperation = {
          name: form.name,
          company: form.company,
          phone: form.phone,
          email: form.email ?? '',
          message: form.message ?? '',
        };
        await content.submitCooperation(sender, cooperation).catch((error: unknown) => {
          logger.error(
            { err: error, requestId: context.requestId, accountId: sender.accountId },
            'cooperation note not stored in content',
          );
        });
        const answer = signedInView(signedIn);
        return { data: answer.data, msg: '注册成功，我们会尽快与您联系' };
      },
    }),
    defineCall({
      name: 'user_info',
      path: '/v1/user_info',
      methods: ['POST'],
      needsLogin: true,
      silent: true,
      input: {},
      handle: async (context) => {
        const user = await accounts.getUser(context.token ?? '');
        if (user === undefined) throw new FaceAError(CODE.loginInvalid, MSG.loginInvalid);
        // The account's unread messages in content; null when content cannot answer (content/unread.ts).
        return { data: { user: userView(user), unread: await unread(context.accountId ?? user.id) } };
      },
    }),
  ];
}
