import { FailedPreconditionError, InvalidArgumentError, UnauthenticatedError, type ResourceExhaustedError } from '@ipdata/common';
import { waitFor } from '@ipdata/common/testing';
import { AccountChannel, UserEventKind } from '@ipdata/proto/events/v1/user';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthHarness, randomEmail } from './fixtures/auth-harness.js';
import { SmtpSink } from './fixtures/smtp-sink.js';
import { MESSAGES } from '../src/shared/messages.js';

// Typed as unknown: vitest's asymmetric matchers are `any`.
const SESSION_TOKEN: unknown = expect.stringMatching(/^[A-Za-z0-9_-]{43}$/);

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('face B email accounts through gRPC, mail through a local SMTP server', () => {
  const auth = new AuthHarness();
  beforeAll(() => auth.start({ readEvents: true }));
  afterAll(() => auth.stop());

  const signUp = (email: string, password = 'goodpass1', extra: Record<string, unknown> = {}) =>
    auth.call('signUpWithEmail', { email, password, passwordConfirmation: password, agreeTerms: true, ...extra });

  async function activeAccount(password = 'goodpass1') {
    const email = randomEmail();
    await signUp(email, password);
    await auth.call('confirmEmail', { token: await auth.smtp.linkToken(email, '/confirm-email') });
    return email;
  }

  it('validates sign-up with the spec messages, word for word', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ email: 'not-an-email' }, 'Please enter the correct email address', 'email'],
      [{ password: '', passwordConfirmation: '' }, 'Please enter your login password', 'password'],
      [{ passwordConfirmation: 'different1' }, 'The two passwords do not match', 'password_confirmation'],
      [{ agreeTerms: false }, 'Please agree to the Terms of Service and Privacy Policy', 'agree_terms'],
    ];
    for (const [override, message, field] of cases) {
      const call = auth.call('signUpWithEmail', {
        email: randomEmail(),
        password: 'goodpass1',
        passwordConfirmation: 'goodpass1',
        agreeTerms: true,
        ...override,
      });
      await expect(call).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(call).rejects.toMatchObject({ message, details: { field } });
    }
    await expect(auth.call('loginWithEmail', { email: 'x@example.com', password: '' })).rejects.toMatchObject({
      message: 'Please enter your login password',
    });
  });

  it('signs up, mails a signed link, activates on confirmation, then logs in', async () => {
    const email = randomEmail();
    const signedUp = await signUp(email.toUpperCase(), 'goodpass1', { name: 'Ada' });
    expect(signedUp.message).toContain('check your spam folder');
    const mail = await auth.smtp.linkToken(email, '/confirm-email');
    expect(SmtpSink.decoded(auth.smtp.mailsTo(email)[0]!)).toContain('https://app.ipdata.test/confirm-email?token=');

    const early = auth.call('loginWithEmail', { email, password: 'goodpass1' });
    await expect(early).rejects.toBeInstanceOf(FailedPreconditionError);
    await expect(early).rejects.toMatchObject({ reason: 'email_not_confirmed' });

    const confirmed = await auth.call('confirmEmail', { token: mail });
    expect(confirmed.user).toMatchObject({
      email,
      emailConfirmed: true,
      channel: AccountChannel.ACCOUNT_CHANNEL_EMAIL,
      name: 'Ada',
    });
    const id = confirmed.user?.id;
    await auth.waitForEvent((e) => e.accountId === id && e.kind === UserEventKind.USER_EVENT_KIND_ACTIVATED, 'ACTIVATED');
    expect(auth.events.filter((e) => e.accountId === id).map((e) => [e.kind, e.email])).toEqual([
      [UserEventKind.USER_EVENT_KIND_REGISTERED, email],
      [UserEventKind.USER_EVENT_KIND_ACTIVATED, email],
    ]);

    const login = await auth.call('loginWithEmail', { email, password: 'goodpass1' });
    expect(login.message).toBe('Login succeeded');
    expect(login.user).toMatchObject({ id, displayName: 'Ada', auth: ['api:free'], payService: [] });
    expect((login.session?.expiresAt?.getTime() ?? 0) - auth.clock.now().getTime()).toBe(7 * DAY);
    const remembered = await auth.call('loginWithEmail', { email, password: 'goodpass1', rememberMe: true });
    expect((remembered.session?.expiresAt?.getTime() ?? 0) - auth.clock.now().getTime()).toBe(30 * DAY);
  });

  it('answers a sign-up for a taken address like any other and mails the owner instead', async () => {
    const email = await activeAccount('goodpass1');
    const fresh = await signUp(randomEmail());
    const again = await signUp(email.toUpperCase(), 'otherpass9');
    expect(again).toEqual(fresh);
    expect(again).toEqual({ message: MESSAGES.signUpConfirm, accountId: '' });
    const notice = await waitFor(() => auth.smtp.mailsTo(email).find((mail) => mail.raw.includes('already has an account')), {
      what: 'the "account exists" mail',
    });
    expect(SmtpSink.decoded(notice)).toContain('https://app.ipdata.test/forgot-password');
    expect(SmtpSink.decoded(notice)).not.toContain('/confirm-email');
    // Nothing changed: the old password still works, the new one does not.
    await expect(auth.call('loginWithEmail', { email, password: 'goodpass1' })).resolves.toMatchObject({ user: { email } });
    await expect(auth.call('loginWithEmail', { email, password: 'otherpass9' })).rejects.toMatchObject({
      reason: 'login_failed',
    });
    expect(await (await auth.mongoDb()).collection('accounts').countDocuments({ email })).toBe(1);
  });

  it('gives the same error for an unknown account and a wrong password, in comparable time', async () => {
    const email = await activeAccount('rightpass');
    const timed = async (request: { email: string; password: string }) => {
      const started = performance.now();
      const error = await auth.call('loginWithEmail', request).catch((e: unknown) => e);
      return { error: error as UnauthenticatedError, ms: performance.now() - started };
    };
    const wrong = await timed({ email, password: 'wrongpass' });
    const unknown = await timed({ email: randomEmail(), password: 'wrongpass' });
    expect(wrong.error).toBeInstanceOf(UnauthenticatedError);
    expect(unknown.error).toBeInstanceOf(UnauthenticatedError);
    expect([wrong.error.message, wrong.error.reason]).toEqual(['Incorrect account or password', 'login_failed']);
    expect([unknown.error.message, unknown.error.reason]).toEqual([wrong.error.message, wrong.error.reason]);
    expect(unknown.error.details).toEqual(wrong.error.details);
  });

  it('refuses forged and expired confirmation links', async () => {
    const email = randomEmail();
    await signUp(email);
    const token = await auth.smtp.linkToken(email, '/confirm-email');
    const [body, signature] = token.split('.') as [string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as { sub: string; exp: number };
    const forgedBody = Buffer.from(JSON.stringify({ ...payload, exp: payload.exp + 10 * DAY })).toString('base64url');
    for (const forged of [`${forgedBody}.${signature}`, `${body}.${'A'.repeat(signature.length)}`, 'garbage', '']) {
      await expect(auth.call('confirmEmail', { token: forged })).rejects.toMatchObject({
        reason: 'link_invalid',
        message: 'This link is invalid or has expired',
      });
    }
    auth.clock.advance(DAY + 1_000);
    await expect(auth.call('confirmEmail', { token })).rejects.toMatchObject({ reason: 'link_invalid' });
  });

  it('resets a forgotten password by mail: single use, 1 hour, no hint for unknown addresses', async () => {
    const email = await activeAccount('oldpass1');
    const { session } = await auth.call('loginWithEmail', { email, password: 'oldpass1' });
    const request = await auth.call('requestPasswordReset', { email });
    const unknown = await auth.call('requestPasswordReset', { email: randomEmail() });
    expect(unknown.message).toBe(request.message);
    const token = await auth.smtp.linkToken(email, '/reset-password');

    await expect(
      auth.call('resetPasswordWithToken', { token, password: 'newpass-71', passwordConfirmation: 'newpass-72' }),
    ).rejects.toMatchObject({ message: 'The two passwords do not match' });
    await auth.call('resetPasswordWithToken', { token, password: 'newpass-71', passwordConfirmation: 'newpass-71' });
    await expect(auth.call('loginWithEmail', { email, password: 'oldpass1' })).rejects.toBeInstanceOf(UnauthenticatedError);
    await expect(auth.call('loginWithEmail', { email, password: 'newpass-71' })).resolves.toMatchObject({
      message: 'Login succeeded',
    });
    // Old sessions end; the link cannot be used twice.
    await expect(auth.call('resolveSession', { token: session?.token ?? '' })).rejects.toMatchObject({
      reason: 'session_invalid',
    });
    await expect(
      auth.call('resetPasswordWithToken', { token, password: 'thirdpass', passwordConfirmation: 'thirdpass' }),
    ).rejects.toMatchObject({ reason: 'link_invalid' });

    await auth.call('requestPasswordReset', { email });
    const late = await auth.smtp.linkToken(email, '/reset-password', 2);
    auth.clock.advance(HOUR + 1_000);
    await expect(
      auth.call('resetPasswordWithToken', { token: late, password: 'thirdpass', passwordConfirmation: 'thirdpass' }),
    ).rejects.toMatchObject({ reason: 'link_invalid' });
    // A confirmation link is no reset link.
    const other = randomEmail();
    await signUp(other);
    const confirmToken = await auth.smtp.linkToken(other, '/confirm-email');
    await expect(
      auth.call('resetPasswordWithToken', { token: confirmToken, password: 'thirdpass', passwordConfirmation: 'thirdpass' }),
    ).rejects.toMatchObject({ reason: 'link_invalid' });
  });

  it('reads and updates the profile and changes the password', async () => {
    const email = await activeAccount('firstpass');
    const { session } = await auth.call('loginWithEmail', { email, password: 'firstpass' });
    const { session: other } = await auth.call('loginWithEmail', { email, password: 'firstpass' });
    const token = session?.token ?? '';
    const read = await auth.call('getUser', { token });
    expect(read.user).toMatchObject({ email, displayName: email, payService: [] });

    const updated = await auth.call('updateProfile', { token, name: 'Grace Hopper', companyName: 'Navy' });
    expect(updated.message).toBe('Your new information has been saved');
    expect(updated.user).toMatchObject({ name: 'Grace Hopper', companyName: 'Navy', displayName: 'Grace Hopper' });
    expect((await auth.call('getUser', { token })).user?.name).toBe('Grace Hopper');
    const id = read.user?.id;
    await auth.waitForEvent(
      (e) => e.accountId === id && e.kind === UserEventKind.USER_EVENT_KIND_PROFILE_UPDATED,
      'PROFILE_UPDATED',
    );

    const change = (current: string, next: string, confirmation: string) =>
      auth.call('changePassword', { token, currentPassword: current, newPassword: next, passwordConfirmation: confirmation });
    await expect(change('', 'newpass-71', 'newpass-71')).rejects.toMatchObject({ details: { field: 'current_password' } });
    await expect(change('firstpass', 'newpass-71', 'newpass-72')).rejects.toMatchObject({
      message: 'The two passwords do not match',
    });
    await expect(change('wrongpass', 'newpass-71', 'newpass-71')).rejects.toMatchObject({ reason: 'current_password_wrong' });
    await expect(change('firstpass', 'newpass-71', 'newpass-71')).resolves.toMatchObject({
      message: 'Your new information has been saved',
    });
    // The caller stays logged in; other sessions end.
    await expect(auth.call('resolveSession', { token })).resolves.toMatchObject({ accountId: id });
    await expect(auth.call('resolveSession', { token: other?.token ?? '' })).rejects.toMatchObject({ reason: 'session_invalid' });
    await expect(auth.call('loginWithEmail', { email, password: 'newpass-71' })).resolves.toMatchObject({
      message: 'Login succeeded',
      user: { id, email },
      session: { token: SESSION_TOKEN },
    });
    await auth.waitForEvent(
      (e) => e.accountId === id && e.kind === UserEventKind.USER_EVENT_KIND_PASSWORD_CHANGED,
      'PASSWORD_CHANGED',
    );
  });

  it('limits reset mails per address and password logins per identity', async () => {
    const email = await activeAccount('rightpass');
    for (let i = 0; i < 5; i++) await auth.call('requestPasswordReset', { email });
    const sixth = auth.call('requestPasswordReset', { email });
    await expect(sixth).rejects.toMatchObject({ reason: 'mail_limit' });
    expect(Number(((await sixth.catch((e: unknown) => e)) as ResourceExhaustedError).retryAfterSeconds)).toBeGreaterThan(0);
    const resetMails = () => auth.smtp.mailsTo(email).filter((mail) => SmtpSink.decoded(mail).includes('/reset-password'));
    await waitFor(() => resetMails().length >= 5, { what: '5 reset mails' });
    await auth.service.mailRelay.runNow();
    expect(resetMails()).toHaveLength(5);

    auth.clock.set(new Date(Math.ceil(auth.clock.now().getTime() / (15 * 60_000)) * 15 * 60_000 + 1_000));
    for (let i = 0; i < 20; i++) {
      await expect(auth.call('loginWithEmail', { email, password: 'wrongpass' })).rejects.toMatchObject({
        reason: 'login_failed',
      });
    }
    await expect(auth.call('loginWithEmail', { email, password: 'rightpass' })).rejects.toMatchObject({ reason: 'login_limit' });
    auth.clock.advance(15 * 60_000);
    await expect(auth.call('loginWithEmail', { email, password: 'rightpass' })).resolves.toMatchObject({
      message: 'Login succeeded',
    });
  });

  it('queues mail while SMTP is down: same answers, nothing lost, sent once SMTP is back', async () => {
    // A free port with nothing listening yet: the "SMTP server" is down until the sink starts there.
    const probe = new SmtpSink();
    await probe.start();
    const port = Number(new URL(probe.url).port);
    await probe.stop();
    const down = new AuthHarness({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    await down.start();
    const late = new SmtpSink();
    try {
      const email = randomEmail();
      const signedUp = await down.call('signUpWithEmail', {
        email,
        password: 'goodpass1',
        passwordConfirmation: 'goodpass1',
        agreeTerms: true,
      });
      expect(signedUp.message).toBe(MESSAGES.signUpConfirm);
      const known = await down.call('requestPasswordReset', { email });
      const unknown = await down.call('requestPasswordReset', { email: randomEmail() });
      expect(known).toEqual(unknown);
      expect(known.message).toBe(MESSAGES.resetMailSent);
      await down.service.mailRelay.runNow();
      expect(await down.service.mailOutbox.pendingCount()).toBe(2);

      await late.start(port);
      const token = await late.linkToken(email, '/confirm-email');
      await late.linkToken(email, '/reset-password');
      await waitFor(async () => (await down.service.mailOutbox.pendingCount()) === 0, { what: 'an empty mail outbox' });
      await down.service.mailRelay.runNow();
      expect(late.mailsTo(email)).toHaveLength(2);
      await expect(down.call('confirmEmail', { token })).resolves.toMatchObject({ user: { email, emailConfirmed: true } });
    } finally {
      await down.stop();
      await late.stop();
    }
  });
});
