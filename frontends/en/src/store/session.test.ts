import { describe, expect, it, vi } from 'vitest';
import { payServiceList } from './session.slice.js';
import { logOut, startSession } from './session.thunks.js';
import { createStore } from './store.js';
import { TRY_KEY_STORAGE, rememberTryKey } from './try-key.js';
import { webApi } from '../api/web.api.js';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const ok = (data: unknown) => json({ code: 200, msg: 'OK', data });
const PROFILE = {
  id: 'acc',
  email: 'dev@example.test',
  name: 'Dev',
  display_name: 'Dev',
  company_name: '',
  email_confirmed: true,
  auth: ['api:standard'],
  payService: 'api, download',
  created_at: null,
};
const INIT = { csrf_token: 'c'.repeat(43), free_lookups_per_month: 50_000, contact_categories: [], client_ip: null };

/** The start-up sequence against canned answers per path. */
async function start(answers: Record<string, () => Response>, store = createStore()) {
  const calls: string[] = [];
  vi.stubGlobal('fetch', (input: RequestInfo | URL) => {
    const path = new URL(input instanceof Request ? input.url : String(input), 'http://app.test').pathname;
    calls.push(path);
    return Promise.resolve(answers[path]?.() ?? json({ code: 404, msg: 'no', data: null }, 404));
  });
  await store.dispatch(startSession());
  vi.unstubAllGlobals();
  return { session: store.getState().session, calls, store };
}

describe('start-up sequence (spec section 4)', () => {
  it('without a token cookie: no profile call, user cleared, the CSRF value kept', async () => {
    const { session, calls } = await start({ '/api/init': () => ok({ ...INIT, logged_in: false }) });
    expect(calls).toEqual(['/api/init']);
    expect(session).toMatchObject({ status: 'anonymous', user: null, csrf: INIT.csrf_token });
  });

  it('with a cookie: profile then unread; payService becomes a list', async () => {
    const { session, calls } = await start({
      '/api/init': () => ok({ ...INIT, logged_in: true }),
      '/api/profile': () => ok(PROFILE),
      '/api/unread': () => ok({ unread: 4 }),
    });
    expect(calls).toEqual(['/api/init', '/api/profile', '/api/unread']);
    expect(session).toMatchObject({ status: 'loggedIn', payService: ['api', 'download'], unread: 4 });
  });

  it('a failed profile clears the user; a failed unread count is 0', async () => {
    const failed = await start({
      '/api/init': () => ok({ ...INIT, logged_in: true }),
      '/api/profile': () => json({ code: 506, msg: 'expired', data: null }, 401),
    });
    expect(failed.session).toMatchObject({ status: 'anonymous', user: null });
    expect(failed.calls).not.toContain('/api/unread');
    const noUnread = await start({
      '/api/init': () => ok({ ...INIT, logged_in: true }),
      '/api/profile': () => ok(PROFILE),
      '/api/unread': () => json({ code: 503, msg: 'down', data: null }, 503),
    });
    expect(noUnread.session).toMatchObject({ status: 'loggedIn', unread: 0 });
  });

  it('turns payService into a list, empty when absent', () => {
    expect(payServiceList('api,download')).toEqual(['api', 'download']);
    expect(payServiceList('')).toEqual([]);
    expect(payServiceList(undefined)).toEqual([]);
  });

  it('when /api/init fails, the profile decides: no session there clears the user, silently', async () => {
    const { session, calls, store } = await start({
      '/api/init': () => json({ code: 503, msg: 'down', data: null }, 503),
      '/api/profile': () => json({ code: 506, msg: 'Your login has expired, please log in again', data: null }, 401),
    });
    expect(calls.filter((call) => call === '/api/init').length).toBe(3); // GET: retried twice on 503
    expect(calls).toContain('/api/profile');
    expect(session).toMatchObject({ status: 'anonymous', user: null });
    expect(store.getState().toast.items).toEqual([]);
  });

  it('no token cookie clears a try-it key left from an earlier session', async () => {
    rememberTryKey('ipd_old');
    await start({ '/api/init': () => ok({ ...INIT, logged_in: false }) });
    expect(sessionStorage.getItem(TRY_KEY_STORAGE)).toBeNull();
  });
});

describe('logout', () => {
  it('clears the user, the unread count, the try-it key and every cached answer, then goes home', async () => {
    const store = createStore();
    await start(
      {
        '/api/init': () => ok({ ...INIT, logged_in: true }),
        '/api/profile': () => ok(PROFILE),
        '/api/unread': () => ok({ unread: 2 }),
      },
      store,
    );
    vi.stubGlobal('fetch', (input: string) => {
      const path = new URL(input, 'http://app.test').pathname;
      return Promise.resolve(path === '/api/keys' ? ok({ keys: [] }) : ok(null));
    });
    await store.dispatch(webApi.endpoints.keys.initiate(undefined, { subscribe: false }));
    expect(webApi.endpoints.keys.select()(store.getState()).data).toEqual({ keys: [] });
    rememberTryKey('ipd_secret');
    const went: string[] = [];
    await store.dispatch(logOut((path) => went.push(path)));
    vi.unstubAllGlobals();
    expect(store.getState().session).toMatchObject({ status: 'anonymous', user: null, payService: [], unread: 0 });
    expect(webApi.endpoints.keys.select()(store.getState()).data).toBeUndefined();
    expect(sessionStorage.getItem(TRY_KEY_STORAGE)).toBeNull();
    expect(went).toEqual(['/']);
  });

  it('forgets the user even when the server cannot be reached', async () => {
    const store = createStore();
    store.dispatch({ type: 'session/userLoaded', payload: PROFILE });
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await store.dispatch(logOut(() => undefined));
    vi.unstubAllGlobals();
    expect(store.getState().session).toMatchObject({ status: 'anonymous', user: null });
    expect(store.getState().toast.items).toEqual([]);
  });
});
