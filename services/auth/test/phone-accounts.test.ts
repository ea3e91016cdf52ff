import { ConflictError, InvalidArgumentError, outboxEvent, outboxUpdate, TOPICS, UnauthenticatedError } from '@ipdata/common';
import { SmsPurpose } from '@ipdata/proto/auth/v1/auth';
import { AccountChannel, UserEvent, UserEventKind } from '@ipdata/proto/events/v1/user';
import { waitFor } from '@ipdata/common/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthHarness, randomPhone } from './fixtures/auth-harness.js';

// Typed as unknown: vitest's asymmetric matchers are `any`.
const SESSION_TOKEN: unknown = expect.stringMatching(/^[A-Za-z0-9_-]{43}$/);

const MINUTE = 60_000;

describe('face A phone accounts through gRPC', () => {
  const auth = new AuthHarness();
  beforeAll(() => auth.start({ readEvents: true }));
  afterAll(() => auth.stop());

  async function register(phone: string, password = 'secret-1234') {
    const code = await auth.sendCode(phone, SmsPurpose.SMS_PURPOSE_REGISTER);
    return auth.call('registerWithPhone', { phone, code, password });
  }

  it('sends a 6-digit code through the signed HTTP gateway', async () => {
    const phone = randomPhone();
    const response = await auth.call('sendSmsCode', { phone, purpose: SmsPurpose.SMS_PURPOSE_REGISTER, clientIp: '10.0.0.1' });
    expect(response).toMatchObject({ message: '验证码已发送', resendAfterSeconds: 60, expiresInSeconds: 300 });
    expect(auth.sms.lastCode(phone)).toMatch(/^\d{6}$/);
    expect(auth.sms.received.at(-1)?.template).toBe('ipdata_verification_code');
    expect(auth.sms.rejected).toBe(0);
  });

  it('refuses numbers that are not mainland China mobiles, naming the field', async () => {
    const call = auth.call('sendSmsCode', { phone: '12345678901', purpose: SmsPurpose.SMS_PURPOSE_LOGIN, clientIp: '10.0.0.2' });
    await expect(call).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(call).rejects.toMatchObject({ message: '请输入正确的手机号', details: { field: 'phone' } });
    await expect(
      auth.call('sendSmsCode', { phone: randomPhone(), purpose: SmsPurpose.SMS_PURPOSE_UNSPECIFIED }),
    ).rejects.toMatchObject({ reason: 'invalid_purpose' });
  });

  it('registers with phone + code + password: user state, a session and a REGISTERED event', async () => {
    const phone = randomPhone();
    const response = await register(phone);
    expect(response.message).toBe('注册成功');
    expect(response.user).toMatchObject({
      phone,
      displayName: phone,
      channel: AccountChannel.ACCOUNT_CHANNEL_PHONE,
      auth: ['api:free'],
      payService: [],
      partner: false,
    });
    expect(response.session?.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const resolved = await auth.call('resolveSession', { token: response.session?.token ?? '' });
    expect(resolved.accountId).toBe(response.user?.id);
    const user = await auth.call('getUser', { token: response.session?.token ?? '' });
    expect(user.user?.displayName).toBe(phone);
    const event = await auth.waitForEvent((e) => e.accountId === response.user?.id, 'REGISTERED');
    expect(event).toMatchObject({
      kind: UserEventKind.USER_EVENT_KIND_REGISTERED,
      channel: AccountChannel.ACCOUNT_CHANNEL_PHONE,
      email: '',
    });
  });

  it('refuses a second registration of the same phone', async () => {
    const phone = randomPhone();
    await register(phone);
    auth.clock.advance(MINUTE);
    const call = register(phone, 'another-pw1');
    await expect(call).rejects.toBeInstanceOf(ConflictError);
    await expect(call).rejects.toMatchObject({ reason: 'phone_taken', message: '该手机号已注册' });
  });

  it('does not accept a code sent for another purpose, nor a wrong code', async () => {
    const phone = randomPhone();
    const code = await auth.sendCode(phone, SmsPurpose.SMS_PURPOSE_LOGIN);
    await expect(auth.call('registerWithPhone', { phone, code, password: 'secret-1234' })).rejects.toMatchObject({
      reason: 'sms_code_expired',
    });
    auth.clock.advance(MINUTE);
    const registerCode = await auth.sendCode(phone, SmsPurpose.SMS_PURPOSE_REGISTER);
    const wrong = registerCode === '000000' ? '000001' : '000000';
    await expect(auth.call('registerWithPhone', { phone, code: wrong, password: 'secret-1234' })).rejects.toMatchObject({
      reason: 'sms_code_wrong',
      details: { field: 'code', remainingAttempts: '4' },
    });
    await expect(auth.call('registerWithPhone', { phone, code: registerCode, password: 'secret-1234' })).resolves.toMatchObject({
      message: '注册成功',
      user: { phone, channel: AccountChannel.ACCOUNT_CHANNEL_PHONE },
    });
  });

  it('logs in with phone + password; unknown phone and wrong password get the same error', async () => {
    const phone = randomPhone();
    await register(phone, 'rightpass');
    const ok = await auth.call('loginWithPhonePassword', { phone, password: 'rightpass' });
    expect(ok.message).toBe('登录成功');
    expect(ok.user?.phone).toBe(phone);
    const wrong = await auth.call('loginWithPhonePassword', { phone, password: 'wrongpass' }).catch((e: unknown) => e);
    const unknown = await auth
      .call('loginWithPhonePassword', { phone: randomPhone(), password: 'wrongpass' })
      .catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(UnauthenticatedError);
    expect(unknown).toBeInstanceOf(UnauthenticatedError);
    expect({ ...(wrong as object), message: (wrong as Error).message }).toEqual({
      ...(unknown as object),
      message: (unknown as Error).message,
    });
    expect((wrong as UnauthenticatedError).reason).toBe('login_failed');
  });

  it('logs in with phone + code, remember-me giving 30 days', async () => {
    const phone = randomPhone();
    await register(phone);
    auth.clock.advance(MINUTE);
    const code = await auth.sendCode(phone, SmsPurpose.SMS_PURPOSE_LOGIN);
    const response = await auth.call('loginWithPhoneCode', { phone, code, rememberMe: true });
    const days = ((response.session?.expiresAt?.getTime() ?? 0) - auth.clock.now().getTime()) / 86_400_000;
    expect(days).toBe(30);
    // The code is used up.
    await expect(auth.call('loginWithPhoneCode', { phone, code })).rejects.toMatchObject({ reason: 'sms_code_expired' });
  });

  it('resets the password with phone + code and ends every session', async () => {
    const phone = randomPhone();
    const { session } = await register(phone, 'oldpass1');
    auth.clock.advance(MINUTE);
    const code = await auth.sendCode(phone, SmsPurpose.SMS_PURPOSE_RESET_PASSWORD);
    await expect(
      auth.call('resetPasswordWithPhone', { phone, code, password: 'newpass-71', passwordConfirmation: 'newpass-72' }),
    ).rejects.toMatchObject({ message: '两次输入的密码不一致' });
    const reset = await auth.call('resetPasswordWithPhone', {
      phone,
      code,
      password: 'newpass-71',
      passwordConfirmation: 'newpass-71',
    });
    expect(reset.message).toBe('密码重置成功，请重新登录');
    await expect(auth.call('resolveSession', { token: session?.token ?? '' })).rejects.toMatchObject({
      reason: 'session_invalid',
    });
    await expect(auth.call('loginWithPhonePassword', { phone, password: 'oldpass1' })).rejects.toBeInstanceOf(
      UnauthenticatedError,
    );
    await expect(auth.call('loginWithPhonePassword', { phone, password: 'newpass-71' })).resolves.toMatchObject({
      message: '登录成功',
      user: { phone },
      session: { token: SESSION_TOKEN },
    });
  });

  it('registers a cooperation partner with company and contact', async () => {
    const phone = randomPhone();
    await expect(
      auth.call('registerPartner', { phone, code: '123456', password: 'secret-1234', companyName: '', contactName: 'Li' }),
    ).rejects.toMatchObject({ details: { field: 'company_name' } });
    const code = await auth.sendCode(phone, SmsPurpose.SMS_PURPOSE_PARTNER);
    const response = await auth.call('registerPartner', {
      phone,
      code,
      password: 'secret-1234',
      companyName: 'Example Networks Ltd',
      contactName: 'Li Lei',
      email: 'li@example.com',
    });
    expect(response.user).toMatchObject({
      phone,
      partner: true,
      companyName: 'Example Networks Ltd',
      name: 'Li Lei',
      channel: AccountChannel.ACCOUNT_CHANNEL_PHONE,
      auth: ['api:free', 'partner'],
    });
    const id = response.user?.id;
    await auth.waitForEvent(
      (e) => e.accountId === id && e.kind === UserEventKind.USER_EVENT_KIND_PARTNER_REGISTERED,
      'PARTNER_REGISTERED',
    );
    expect(auth.events.filter((e) => e.accountId === id).map((e) => e.kind)).toEqual([
      UserEventKind.USER_EVENT_KIND_REGISTERED,
      UserEventKind.USER_EVENT_KIND_PARTNER_REGISTERED,
    ]);
  });

  it('stores events in the account document (outbox): a stuck one goes first, the relay sends what is left', async () => {
    const { user, session } = await register(randomPhone());
    const accountId = user?.id ?? '';
    await auth.waitForEvent((e) => e.accountId === accountId, 'REGISTERED');
    const accounts = (await auth.mongoDb()).collection('accounts');
    await waitFor(
      async () => ((await accounts.findOne({ _id: accountId as never }))?.['pendingEvents'] as unknown[]).length === 0,
      {
        what: 'REGISTERED removed from the account outbox',
      },
    );
    // As if the immediate send of an earlier event had failed a minute ago.
    const stuck = (id: string) =>
      outboxEvent(
        TOPICS.authUser,
        UserEvent.fromPartial({ meta: { id }, kind: UserEventKind.USER_EVENT_KIND_PROFILE_UPDATED, accountId, channel: 1 }),
        { key: accountId, now: new Date(auth.clock.now().getTime() - MINUTE) },
      );
    await accounts.updateOne({ _id: accountId as never }, outboxUpdate([stuck(`stuck-${accountId}`)]) as never);
    // The next change of the account stores its event behind the stuck one; both go out in order.
    await auth.call('updateProfile', { token: session?.token ?? '', name: 'n' });
    // The periodic relay may send the stuck event as well (it is a minute old): delivery is at
    // least once and consumers drop duplicates by id, so count distinct ids in arrival order.
    const ids = () => [...new Set(auth.events.filter((e) => e.accountId === accountId).map((e) => e.meta?.id ?? ''))];
    await waitFor(() => ids().length === 3, { what: 'both outbox events on the topic' });
    expect(ids()[1]).toBe(`stuck-${accountId}`);
    expect(auth.events.find((e) => e.meta?.id === ids()[2])?.kind).toBe(UserEventKind.USER_EVENT_KIND_PROFILE_UPDATED);

    // Left behind with no later write: the periodic relay sends it.
    await accounts.updateOne({ _id: accountId as never }, outboxUpdate([stuck(`late-${accountId}`)]) as never);
    // Called by hand so the test need not wait for the periodic run (which may get there first).
    await auth.service.accountEvents.relayOnce();
    await auth.waitForEvent((e) => e.meta?.id === `late-${accountId}`, 'the relayed event');
    expect((await accounts.findOne({ _id: accountId as never }))?.['pendingEvents']).toEqual([]);
  });
});
