import { createApi } from '@reduxjs/toolkit/query/react';
import { createWebBaseQuery } from './base-query.js';
import type { UsageAnswer, WebBody, WebData } from './web-api.types.js';

/** For calls whose page shows the server's own sentence (e.g. "If this email address belongs to an account..."). */
const keepMsg = (_data: unknown, meta: { msg: string } | undefined): { msg: string } => ({ msg: meta?.msg ?? '' });

/**
 * The one RTK Query API of face B's web app (bff-en's /api, services/bff-en/openapi/web-api.yaml).
 * Tags: everything that depends on who is logged in provides 'Account' (refetched when a user
 * logs in; a logout resets the whole cache, store.ts); lists provide {type, id: 'LIST'} plus
 * their items' ids; creating invalidates LIST, changing or removing an item invalidates the item.
 */
export const webApi = createApi({
  reducerPath: 'webApi',
  baseQuery: createWebBaseQuery(),
  tagTypes: ['Account', 'Session', 'Keys', 'Subscription', 'Downloads', 'DownloadHistory', 'Invoices'],
  endpoints: (build) => ({
    init: build.query<WebData<'getInit'>, void>({ query: () => ({ url: '/api/init', silent: true }) }),
    profile: build.query<WebData<'getProfile'>, void>({
      query: () => ({ url: '/api/profile', silent: true }),
      providesTags: ['Session', 'Account'],
    }),
    unread: build.query<WebData<'getUnread'>, void>({ query: () => ({ url: '/api/unread', silent: true }) }),
    signUp: build.mutation<WebData<'signUp'>, WebBody<'signUp'>>({
      query: (body) => ({ url: '/api/signup', method: 'POST', body, silent: true }),
    }),
    confirmEmail: build.mutation<WebData<'confirmEmail'>, { token: string }>({
      query: (body) => ({ url: '/api/confirm-email', method: 'POST', body, silent: true }),
    }),
    logIn: build.mutation<WebData<'logIn'>, WebBody<'logIn'>>({
      query: (body) => ({ url: '/api/login', method: 'POST', body, silent: true, credentials: true }),
    }),
    logOut: build.mutation<null, void>({ query: () => ({ url: '/api/logout', method: 'POST', silent: true }) }),
    requestPasswordReset: build.mutation<{ msg: string }, { email: string }>({
      query: (body) => ({ url: '/api/password/forgot', method: 'POST', body, silent: true }),
      transformResponse: keepMsg,
    }),
    resetPassword: build.mutation<{ msg: string }, WebBody<'resetPassword'>>({
      query: (body) => ({ url: '/api/password/reset', method: 'POST', body, silent: true }),
      transformResponse: keepMsg,
    }),
    updateProfile: build.mutation<WebData<'updateProfile'>, WebBody<'updateProfile'>>({
      query: (body) => ({ url: '/api/profile', method: 'PATCH', body, silent: true }),
      invalidatesTags: ['Session'],
    }),
    changePassword: build.mutation<null, WebBody<'changePassword'>>({
      query: (body) => ({ url: '/api/profile/password', method: 'POST', body, silent: true }),
    }),
    keys: build.query<WebData<'listApiKeys'>, void>({
      query: () => ({ url: '/api/keys' }),
      providesTags: (answer) => [
        'Account',
        { type: 'Keys', id: 'LIST' },
        ...(answer?.keys ?? []).map((key) => ({ type: 'Keys' as const, id: key.id })),
      ],
    }),
    createKey: build.mutation<WebData<'createApiKey'>, { name: string }>({
      query: (body) => ({ url: '/api/keys', method: 'POST', body }),
      invalidatesTags: [{ type: 'Keys', id: 'LIST' }],
    }),
    rotateKey: build.mutation<WebData<'rotateApiKey'>, string>({
      query: (id) => ({ url: `/api/keys/${encodeURIComponent(id)}/rotate`, method: 'POST' }),
      // A new key in the list, and the old one revoked.
      invalidatesTags: (_answer, _error, id) => [
        { type: 'Keys', id: 'LIST' },
        { type: 'Keys', id },
      ],
    }),
    revokeKey: build.mutation<WebData<'revokeApiKey'>, string>({
      query: (id) => ({ url: `/api/keys/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: (_answer, _error, id) => [{ type: 'Keys', id }],
    }),
    usage: build.query<UsageAnswer, { granularity: 'day' | 'hour'; keyId: string }>({
      query: ({ granularity, keyId }) => ({ url: '/api/usage', params: { granularity, key_id: keyId } }),
      // When the answer came: the window its series covers ends then (the dashboard fills the gaps).
      transformResponse: (data: WebData<'getUsage'>) => ({ ...data, answeredAt: Date.now() }),
      providesTags: ['Account'],
    }),
    plans: build.query<WebData<'listPlans'>, void>({ query: () => ({ url: '/api/plans' }) }),
    subscription: build.query<WebData<'getSubscription'>, void>({
      query: () => ({ url: '/api/subscription', silent: true }),
      providesTags: ['Subscription', 'Account'],
    }),
    subscribe: build.mutation<WebData<'subscribe'>, string>({
      query: (planId) => ({ url: '/api/subscription', method: 'POST', body: { plan_id: planId } }),
      invalidatesTags: ['Subscription', 'Session'],
    }),
    scheduleDowngrade: build.mutation<WebData<'scheduleDowngrade'>, string>({
      query: (planId) => ({ url: '/api/subscription/downgrade', method: 'POST', body: { plan_id: planId } }),
      invalidatesTags: ['Subscription'],
    }),
    /** One page of invoices: '' for the newest, then the previous page's next_page_token. */
    invoices: build.query<WebData<'listInvoices'>, string>({
      query: (pageToken) => ({ url: '/api/invoices', params: { page_token: pageToken } }),
      providesTags: ['Invoices', 'Account'],
    }),
    databases: build.query<WebData<'listDatabases'>, void>({
      query: () => ({ url: '/api/databases' }),
      providesTags: ['Downloads', 'Account'],
    }),
    downloadLink: build.mutation<WebData<'createDownloadLink'>, { database: string; format: string }>({
      query: ({ database, format }) => ({
        url: `/api/databases/${encodeURIComponent(database)}/${encodeURIComponent(format)}/link`,
        method: 'POST',
      }),
      // Each link is a recorded download (history, and today's remaining count).
      invalidatesTags: ['DownloadHistory'],
    }),
    sampleLink: build.mutation<WebData<'getSampleLink'>, { database: string; format: string }>({
      query: ({ database, format }) => ({
        url: `/api/databases/${encodeURIComponent(database)}/sample/${encodeURIComponent(format)}`,
      }),
    }),
    downloadHistory: build.query<WebData<'listDownloadHistory'>, number>({
      query: (page) => ({ url: '/api/downloads/history', params: { page } }),
      providesTags: ['DownloadHistory', 'Account'],
    }),
    lookUp: build.query<WebData<'lookUp'>, string>({ query: (q) => ({ url: '/api/lookup', params: { q }, silent: true }) }),
    /** The contact form: the form shows refusals at their `field` itself (silent); success is the spec's sentence. */
    contact: build.mutation<WebData<'submitContact'>, WebBody<'submitContact'>>({
      query: (body) => ({ url: '/api/contact', method: 'POST', body, silent: true }),
    }),
  }),
});
