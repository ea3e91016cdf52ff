import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../api/face-a.types.js';
import { modalHidden, modalShown, loginMenuSet, LOGIN_MENU_PASSWORD, LOGIN_MENU_SMS } from './app.slice.js';
import { startSession } from './session.thunks.js';
import { createStore } from './store.js';

// The start-up sequence of spec section 4, against a recorded fetch: which calls go out and what
// the store holds after each branch. The browser tests run the same sequence against bff-cn.
const USER: User = {
  id: 'u1',
  phone: '13800138000',
  name: '',
  display_name: '',
  channel: 'phone',
  auth: [],
  pay_service: [],
  partner: false,
  company_name: '',
  created_at: null,
};

function answer(code: number, data: unknown, msg = '') {
  return new Response(JSON.stringify({ code, msg, data }), { headers: { 'content-type': 'application/json' } });
}

function serve(userInfo: () => Response) {
  const calls: { path: string; token: string | null }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const path = new URL(input instanceof Request ? input.url : input.toString(), 'http://app.test').pathname;
      calls.push({ path, token: new Headers(init?.headers).get('token') });
      if (path === '/v1/user_info') return Promise.resolve(userInfo());
      return Promise.resolve(answer(400, null, 'not in this test'));
    }),
  );
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.cookie = 'token=; Max-Age=0; path=/';
});

describe('application start (spec section 4)', () => {
  it('without a token cookie clears token and user and asks for no user info', async () => {
    const calls = serve(() => answer(200, { user: USER, unread: 2 }));
    const store = createStore({ user: { user: USER, token: 'stale', channel: 'phone', unread: 5, auth: [] } });
    await store.dispatch(startSession(''));
    expect(store.getState().user).toEqual({ user: null, token: '', channel: '', unread: 0, auth: [] });
    expect(calls.map((call) => call.path)).not.toContain('/v1/user_info');
  });

  it('with a cookie stores the token, fetches the user with it, then takes the unread count', async () => {
    const calls = serve(() => answer(200, { user: USER, unread: 3 }));
    const store = createStore();
    await store.dispatch(startSession('a=1; token=t-123'));
    expect(store.getState().user).toMatchObject({ token: 't-123', user: USER, unread: 3, channel: 'phone' });
    expect(calls.find((call) => call.path === '/v1/user_info')?.token).toBe('t-123');
  });

  it('clears token and user when the user fetch fails', async () => {
    serve(() => answer(400, null, '出错了'));
    const store = createStore();
    await store.dispatch(startSession('token=t-bad'));
    expect(store.getState().user).toMatchObject({ token: '', user: null });
  });

  it('sets unread to 0 when the count could not be had', async () => {
    serve(() => answer(200, { user: USER, unread: null }));
    const store = createStore();
    await store.dispatch(startSession('token=t-1'));
    expect(store.getState().user).toMatchObject({ token: 't-1', user: USER, unread: 0 });
  });
});

describe('modal flags', () => {
  it('switch on and off; the login menu index returns to 1 when the login modal is hidden', () => {
    const store = createStore();
    store.dispatch(modalShown('login'));
    store.dispatch(loginMenuSet(LOGIN_MENU_SMS));
    expect(store.getState().app.modals.login).toBe(true);
    store.dispatch(modalHidden('login'));
    expect(store.getState().app).toMatchObject({ loginMenu: LOGIN_MENU_PASSWORD });
    expect(store.getState().app.modals.login).toBe(false);
  });
});
