import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, PROFILE, renderPage } from '../test/render.js';
import { MESSAGES } from '../forms/validation.js';
import { ConfirmEmailPage } from './confirm-email.page.js';
import { LoginPage } from './login.page.js';
import { ForgotPasswordPage, ResetPasswordPage } from './password-reset.page.js';
import { SignUpPage } from './signup.page.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const alerts = () => screen.queryAllByRole('alert').map((alert) => alert.textContent);

describe('login', () => {
  it('says what is missing next to each field, without a request', async () => {
    const { sent } = fakeApi({});
    renderPage(<LoginPage />, { path: '/login' });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findAllByRole('alert')).toHaveLength(2);
    expect(alerts()).toEqual([MESSAGES.email, MESSAGES.password]);
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    expect(sent).toEqual([]);
  });

  it('logs in with remember-me, says so and goes to the console', async () => {
    const { sent } = fakeApi({
      'POST /api/login': { msg: 'Login succeeded', data: { user: PROFILE, expires_at: '2026-01-01T00:00:00.000Z' } },
      'GET /api/unread': { data: { unread: 3 } },
    });
    const { store, router, toasts } = renderPage(<LoginPage />, { path: '/login', routes: { '/console': <h1>Console</h1> } });
    type('Email', ' dev@example.test ');
    type('Password', 'correct horse');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Remember me' }));
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('heading', { name: 'Console' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/console');
    expect(sent[0]).toMatchObject({
      method: 'POST',
      path: '/api/login',
      body: { email: 'dev@example.test', password: 'correct horse', remember_me: true },
    });
    expect(sent[0]!.headers.get('x-csrf-token')).toBe('csrf-test-value');
    expect(store.getState().session).toMatchObject({ status: 'loggedIn', payService: ['api'], unread: 3 });
    expect(toasts()).toEqual([MESSAGES.loginSucceeded]);
  });

  it('shows the server’s answer to wrong credentials and stays', async () => {
    fakeApi({ 'POST /api/login': { status: 401, msg: 'Incorrect account or password' } });
    const { router, toasts } = renderPage(<LoginPage />, { path: '/login' });
    type('Email', 'dev@example.test');
    type('Password', 'wrong');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Incorrect account or password')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(toasts()).toEqual([]);
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/forgot-password');
  });
});

describe('sign-up', () => {
  it('gives the spec’s messages, the terms one with links to both documents', async () => {
    const { sent } = fakeApi({});
    renderPage(<SignUpPage />, { path: '/signup' });
    type('Email', 'not-an-address');
    type('Password', 'long enough');
    type('Confirm password', 'long enougH');
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await screen.findAllByRole('alert');
    expect(alerts()).toEqual([MESSAGES.email, MESSAGES.passwordsDiffer, MESSAGES.terms]);
    const terms = screen.getAllByRole('alert')[2]!;
    expect(within(terms).getByRole('link', { name: 'Terms of Service' })).toBeTruthy();
    expect(within(terms).getByRole('link', { name: 'Privacy Policy' })).toBeTruthy();
    type('Password', '');
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(alerts()).toContain(MESSAGES.password));
    expect(sent).toEqual([]);
    expect(screen.getByRole('checkbox', { name: 'I agree to the Terms of Service and Privacy Policy' })).toBeTruthy();
  });

  it('signs up and then asks to confirm the address (check the spam folder)', async () => {
    const { sent } = fakeApi({
      'POST /api/signup': { msg: 'We have sent a confirmation link', data: { state: 'confirm_email' } },
    });
    renderPage(<SignUpPage />, { path: '/signup' });
    type('Email', 'new@example.test');
    type('Password', 'long enough');
    type('Confirm password', 'long enough');
    fireEvent.click(screen.getByRole('checkbox', { name: /I agree to the/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('heading', { name: 'Confirm your email' })).toBeTruthy();
    expect(screen.getByText(/spam folder/).textContent).toContain('new@example.test');
    expect(sent[0]!.body).toEqual({
      email: 'new@example.test',
      password: 'long enough',
      password_confirmation: 'long enough',
      agree_terms: true,
      name: '',
    });
  });

  it('puts a message the server tied to a field next to that field', async () => {
    fakeApi({
      'POST /api/signup': { status: 400, msg: 'This password is too common, please choose another one', field: 'password' },
    });
    renderPage(<SignUpPage />, { path: '/signup' });
    type('Email', 'new@example.test');
    type('Password', 'password1');
    type('Confirm password', 'password1');
    fireEvent.click(screen.getByRole('checkbox', { name: /I agree to the/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('This password is too common, please choose another one')).toBeTruthy();
    expect(screen.getByLabelText('Password').getAttribute('aria-describedby')).toContain('password-error');
  });
});

describe('confirm-email', () => {
  it('confirms the token once and offers to log in', async () => {
    const { sent } = fakeApi({ 'POST /api/confirm-email': { data: { confirmed: true } } });
    renderPage(<ConfirmEmailPage />, { path: '/confirm-email?token=abc123' });
    expect(await screen.findByText(/Your email address has been confirmed/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'log in' }).getAttribute('href')).toBe('/login');
    expect(sent.map((request) => [request.path, request.body])).toEqual([['/api/confirm-email', { token: 'abc123' }]]);
  });

  it('says when the link is not valid', async () => {
    fakeApi({ 'POST /api/confirm-email': { status: 400, msg: 'This link is invalid or has expired' } });
    renderPage(<ConfirmEmailPage />, { path: '/confirm-email?token=used' });
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'This link is invalid or has expired');
  });
});

describe('password reset', () => {
  it('asks for a valid address, then shows the server’s answer', async () => {
    const msg = 'If this email address belongs to an account, we have sent it a link to reset the password.';
    const { sent } = fakeApi({ 'POST /api/password/forgot': { msg } });
    renderPage(<ForgotPasswordPage />, { path: '/forgot-password' });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect((await screen.findByRole('alert')).textContent).toBe(MESSAGES.email);
    type('Email', 'dev@example.test');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    });
    expect(await screen.findByText(msg)).toBeTruthy();
    expect(sent.map((request) => request.body)).toEqual([{ email: 'dev@example.test' }]);
  });

  it('sets a new password with the link’s token (the same password twice)', async () => {
    const msg = 'Your password has been reset. Please log in with the new password.';
    const { sent } = fakeApi({ 'POST /api/password/reset': { msg } });
    renderPage(<ResetPasswordPage />, { path: '/reset-password?token=tok' });
    type('New password', 'a new password');
    type('Confirm new password', 'another one');
    fireEvent.click(screen.getByRole('button', { name: 'Save new password' }));
    expect((await screen.findByRole('alert')).textContent).toBe(MESSAGES.passwordsDiffer);
    type('Confirm new password', 'a new password');
    fireEvent.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(await screen.findByText(msg)).toBeTruthy();
    expect(sent[0]!.body).toEqual({ token: 'tok', password: 'a new password', password_confirmation: 'a new password' });
  });

  it('without a token says the link is not valid', () => {
    fakeApi({});
    renderPage(<ResetPasswordPage />, { path: '/reset-password' });
    expect(screen.getByRole('alert').textContent).toBe('This link is invalid or has expired');
    expect(screen.getByRole('link', { name: 'Send a new link' }).getAttribute('href')).toBe('/forgot-password');
  });
});
