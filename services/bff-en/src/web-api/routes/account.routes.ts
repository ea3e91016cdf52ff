import { z } from 'zod';
import { isDomainError } from '@ipdata/common';
import type { Logger } from 'pino';
import { WebApiError } from '../web-envelope.js';
import { flag, linkToken, noInput, text } from '../web-input.js';
import { defineWebRoute, type WebContext, type WebRoute } from '../web-route.js';
import type { UnreadCounts, WebAccounts } from '../web-api.ports.js';
import { clearedSessionCookie, newCsrfCookie, sessionCookie, type CookiePolicy } from '../session-cookie.js';
import { profileView } from '../web-views.js';

export interface AccountRoutesDeps {
  accounts: WebAccounts;
  unread: UnreadCounts;
  cookies: CookiePolicy;
  /** What the home and pricing pages say about the free tier (the FREE API plan's lookups). */
  freeLookupsPerMonth: () => Promise<number>;
  logger: Logger;
}

const token = (context: WebContext): string => context.token as string;

/** Sign-up, e-mail confirmation, login and logout, password reset, the profile and the start-up data. */
export function accountRoutes(deps: AccountRoutesDeps): WebRoute[] {
  const { accounts, cookies } = deps;
  return [
    defineWebRoute({
      name: 'getInit',
      method: 'GET',
      path: '/api/init',
      login: false,
      input: noInput,
      handle: async (context) => {
        // The CSRF value the app echoes in X-CSRF-Token; a new one when the browser has none yet.
        const csrf = context.csrfToken === undefined ? newCsrfCookie(cookies) : undefined;
        return {
          data: {
            csrf_token: csrf?.value ?? context.csrfToken,
            logged_in: context.token !== undefined,
            free_lookups_per_month: await deps.freeLookupsPerMonth(),
            contact_categories: ['Custom plans', 'Support', 'Feedback'],
            client_ip: context.clientIp || null,
          },
          ...(csrf ? { cookies: [csrf.cookie] } : {}),
        };
      },
    }),
    defineWebRoute({
      name: 'signUp',
      method: 'POST',
      path: '/api/signup',
      login: false,
      input: z.object({
        email: text(320),
        password: text(128),
        password_confirmation: text(128),
        agree_terms: flag,
        name: text(100),
      }),
      handle: async (context, input) => {
        const { message } = await accounts.signUp({
          email: input.email,
          password: input.password,
          passwordConfirmation: input.password_confirmation,
          agreeTerms: input.agree_terms,
          name: input.name,
          clientIp: context.clientIp,
        });
        // The confirm-email state: the same answer whether or not the address had an account.
        return { data: { state: 'confirm_email' }, msg: message };
      },
    }),
    defineWebRoute({
      name: 'confirmEmail',
      method: 'POST',
      path: '/api/confirm-email',
      login: false,
      input: z.object({ token: linkToken }),
      handle: async (_context, input) => {
        const { message } = await accounts.confirmEmail(input.token);
        return { data: { confirmed: true }, msg: message };
      },
    }),
    defineWebRoute({
      name: 'logIn',
      method: 'POST',
      path: '/api/login',
      login: false,
      input: z.object({ email: text(320), password: text(128), remember_me: flag }),
      handle: async (context, input) => {
        const signedIn = await accounts.login({
          email: input.email,
          password: input.password,
          rememberMe: input.remember_me,
          clientIp: context.clientIp,
        });
        if (signedIn.session === undefined || signedIn.user === undefined)
          throw new Error('auth answered a login without a session');
        return {
          data: { user: profileView(signedIn.user), expires_at: signedIn.session.expiresAt?.toISOString() ?? null },
          msg: signedIn.message,
          cookies: [sessionCookie(signedIn.session.token, signedIn.session.expiresAt, context.now, cookies)],
        };
      },
    }),
    defineWebRoute({
      name: 'logOut',
      method: 'POST',
      path: '/api/logout',
      // Not `login`: an expired session must still be able to clear its cookie.
      login: false,
      input: noInput,
      handle: async (context) => {
        if (context.token !== undefined) {
          await accounts.logout(context.token).catch((error: unknown) => {
            // A session that already ended is logged out; anything else is worth knowing about.
            if (!isDomainError(error) || error.kind !== 'unauthenticated')
              deps.logger.warn({ err: error }, 'logout: auth did not answer');
          });
        }
        return { data: null, msg: 'Logged out', cookies: [clearedSessionCookie(cookies)] };
      },
    }),
    defineWebRoute({
      name: 'requestPasswordReset',
      method: 'POST',
      path: '/api/password/forgot',
      login: false,
      input: z.object({ email: text(320) }),
      handle: async (context, input) => ({
        data: null,
        msg: (await accounts.requestPasswordReset(input.email, context.clientIp)).message,
      }),
    }),
    defineWebRoute({
      name: 'resetPassword',
      method: 'POST',
      path: '/api/password/reset',
      login: false,
      input: z.object({ token: linkToken, password: text(128), password_confirmation: text(128) }),
      handle: async (context, input) => {
        const { message } = await accounts.resetPassword({
          token: input.token,
          password: input.password,
          passwordConfirmation: input.password_confirmation,
          clientIp: context.clientIp,
        });
        return { data: null, msg: message };
      },
    }),
    defineWebRoute({
      name: 'getProfile',
      method: 'GET',
      path: '/api/profile',
      login: true,
      input: noInput,
      handle: async (context) => ({ data: profileView(await accounts.user(token(context))) }),
    }),
    defineWebRoute({
      name: 'updateProfile',
      method: 'PATCH',
      path: '/api/profile',
      login: true,
      input: z.object({
        name: z.string({ error: 'Expected text' }).max(100, { error: 'The name must be at most 100 characters long' }).optional(),
        company_name: z.string({ error: 'Expected text' }).max(200, { error: 'This value is too long' }).optional(),
      }),
      handle: async (context, input) => {
        const { user, message } = await accounts.updateProfile(token(context), {
          ...(input.name === undefined ? {} : { name: input.name }),
          ...(input.company_name === undefined ? {} : { companyName: input.company_name }),
        });
        if (user === undefined) throw new WebApiError(500, 'auth answered without the user');
        return { data: profileView(user), msg: message };
      },
    }),
    defineWebRoute({
      name: 'changePassword',
      method: 'POST',
      path: '/api/profile/password',
      login: true,
      input: z.object({ current_password: text(128), new_password: text(128), password_confirmation: text(128) }),
      handle: async (context, input) => {
        const { message } = await accounts.changePassword(token(context), {
          currentPassword: input.current_password,
          newPassword: input.new_password,
          passwordConfirmation: input.password_confirmation,
        });
        return { data: null, msg: message };
      },
    }),
    defineWebRoute({
      name: 'getUnread',
      method: 'GET',
      path: '/api/unread',
      login: true,
      input: noInput,
      handle: async (context) => ({ data: { unread: await deps.unread.unread(context.accountId as string) } }),
    }),
  ];
}
