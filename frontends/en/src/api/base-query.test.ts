import { afterEach, describe, expect, it, vi } from 'vitest';
import { baseQueryApi } from '@ipdata/web-kit/testing';
import { createStore } from '../store/store.js';
import { userLoaded } from '../store/session.slice.js';
import { PROFILE } from '../test/render.js';
import { TRY_KEY_STORAGE } from '../store/try-key.js';
import { BAD_ANSWER_MSG, NETWORK_MSG, createWebBaseQuery, TIMEOUT_MSG, type WebCall } from './base-query.js';

// The browser's fetch is replaced by a recorder: these tests check what the app sends and how it
// reads answers; the browser tests run the same code against the real bff-en.
interface Sent {
  url: string;
  method: string;
  headers: Headers;
  body: string | null;
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

function setup(answer: (sent: Sent, index: number) => Response | Promise<Response>, timeoutMs?: number) {
  const store = createStore();
  store.dispatch({ type: 'session/initialised', payload: { csrf: 'csrf-value-123', freeLookupsPerMonth: 50_000 } });
  const sent: Sent[] = [];
  const fetchFn = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const record: Sent = {
      url: input instanceof Request ? input.url : String(input),
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body: typeof init?.body === 'string' ? init.body : null,
    };
    sent.push(record);
    if (init?.signal?.aborted) return Promise.reject(new Error('aborted'));
    return new Promise<Response>((resolve, reject) => {
      init?.signal?.addEventListener('abort', () => reject(new Error('aborted')));
      void Promise.resolve(answer(record, sent.length - 1)).then(resolve, reject);
    });
  });
  const query = createWebBaseQuery({ fetchFn, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
  const call = (args: WebCall) => query(args, baseQueryApi(store), {});
  const toasts = () => store.getState().toast.items.map((toast) => `${toast.kind}:${toast.text}`);
  return { store, sent, call, toasts, fetchFn };
}

afterEach(() => vi.useRealTimers());

describe('face B base query', () => {
  it('sends JSON bodies with the CSRF header for every method that changes something, none for GET', async () => {
    const { sent, call } = setup(() => json({ code: 200, msg: 'OK', data: { ok: true } }));
    for (const method of ['POST', 'PATCH', 'PUT', 'DELETE'] as const) {
      const result = await call({ url: '/api/x', method, body: { a: 1 } });
      expect(result).toEqual({ data: { ok: true }, meta: { msg: 'OK' } });
    }
    await call({ url: '/api/y', params: { q: '8.8.8.8', empty: '', none: undefined } });
    expect(sent.slice(0, 4).map((s) => [s.method, s.headers.get('content-type'), s.headers.get('x-csrf-token'), s.body])).toEqual(
      ['POST', 'PATCH', 'PUT', 'DELETE'].map((method) => [method, 'application/json', 'csrf-value-123', '{"a":1}']),
    );
    expect(sent[4]).toMatchObject({ url: '/api/y?q=8.8.8.8', method: 'GET', body: null });
    expect(sent[4]!.headers.get('x-csrf-token')).toBeNull();
  });

  it('retries a GET on the spec’s statuses only, at most twice, and never a POST', async () => {
    for (const status of [408, 409, 425, 429, 500, 502, 503, 504]) {
      const { sent, call } = setup((_sent, index) =>
        index < 2
          ? json({ code: status, msg: 'busy', data: null }, status, { 'retry-after': '0' })
          : json({ code: 200, msg: 'OK', data: 1 }),
      );
      expect(await call({ url: '/api/plans' })).toMatchObject({ data: 1 });
      expect(sent).toHaveLength(3);
    }
    const notRetried = setup(() => json({ code: 400, msg: 'bad', data: null }, 400));
    await notRetried.call({ url: '/api/plans' });
    expect(notRetried.sent).toHaveLength(1);
    for (const method of ['POST', 'PATCH', 'PUT', 'DELETE'] as const) {
      for (const status of [408, 409, 425, 429, 500, 502, 503, 504]) {
        const write = setup(() => json({ code: status, msg: 'down', data: null }, status, { 'retry-after': '0' }));
        expect(await write.call({ url: '/api/keys', method, body: {}, silent: true })).toMatchObject({
          error: { error: status, msg: 'down' },
        });
        expect(write.sent).toHaveLength(1);
      }
    }
  });

  it('shows the server’s message as a warning toast unless the call is silent, with the field it names', async () => {
    const loud = setup(() => json({ code: 400, msg: 'Please enter the correct email address', data: null, field: 'email' }, 400));
    expect(await loud.call({ url: '/api/keys', method: 'POST', body: {} })).toEqual({
      error: { error: 400, msg: 'Please enter the correct email address', field: 'email' },
    });
    expect(loud.toasts()).toEqual(['warning:Please enter the correct email address']);
    const quiet = setup(() => json({ code: 400, msg: 'nope', data: null }, 400));
    await quiet.call({ url: '/api/profile', silent: true });
    expect(quiet.toasts()).toEqual([]);
  });

  it('logs out silently on code 506, and on HTTP 401 of a session call, but not on a failed login', async () => {
    for (const [code, status] of [
      [506, 401],
      [506, 200],
      [401, 401],
    ] as const) {
      const { store, call, toasts } = setup(() =>
        json({ code, msg: 'Your login has expired, please log in again', data: null }, status),
      );
      store.dispatch(userLoaded(PROFILE));
      sessionStorage.setItem(TRY_KEY_STORAGE, 'ipd_secret');
      expect(await call({ url: '/api/keys' })).toMatchObject({ error: { error: code } });
      expect(store.getState().session).toMatchObject({ status: 'anonymous', user: null, payService: [] });
      expect(sessionStorage.getItem(TRY_KEY_STORAGE)).toBeNull();
      expect(toasts()).toEqual([]);
    }
    const login = setup(() => json({ code: 401, msg: 'Incorrect account or password', data: null }, 401));
    login.store.dispatch(userLoaded(PROFILE));
    expect(await login.call({ url: '/api/login', method: 'POST', body: {}, credentials: true, silent: true })).toEqual({
      error: { error: 401, msg: 'Incorrect account or password' },
    });
    expect(login.store.getState().session.status).toBe('loggedIn');
  });

  it('gives up after 10 seconds with a timeout message', async () => {
    vi.useFakeTimers();
    const { call, toasts } = setup(() => new Promise<Response>(() => undefined));
    const pending = call({ url: '/api/plans' });
    await vi.advanceTimersByTimeAsync(9_999);
    expect(toasts()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toEqual({ error: { error: 'TIMEOUT', msg: TIMEOUT_MSG } });
    expect(toasts()).toEqual([`warning:${TIMEOUT_MSG}`]);
  });

  it('the 10 seconds cover the retries too', async () => {
    vi.useFakeTimers();
    const { call, sent } = setup((_sent, index) =>
      index === 0
        ? json({ code: 503, msg: 'busy', data: null }, 503, { 'retry-after': '0' })
        : new Promise<Response>(() => undefined),
    );
    const pending = call({ url: '/api/plans', silent: true });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await pending).toMatchObject({ error: { error: 'TIMEOUT' } });
    expect(sent).toHaveLength(2);
  });

  it('fails silently when asked to: no toast for a silent call, a network failure or a cancelled call', async () => {
    const silentNetwork = setup(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(await silentNetwork.call({ url: '/api/unread', silent: true })).toEqual({
      error: { error: 'NETWORK', msg: NETWORK_MSG },
    });
    expect(silentNetwork.toasts()).toEqual([]);
    const loudNetwork = setup(() => Promise.reject(new TypeError('Failed to fetch')));
    await loudNetwork.call({ url: '/api/keys' });
    expect(loudNetwork.toasts()).toEqual([`warning:${NETWORK_MSG}`]);
    const cancelled = setup(() => new Promise<Response>(() => undefined));
    const controller = new AbortController();
    const pending = createWebBaseQuery({ fetchFn: cancelled.fetchFn })(
      { url: '/api/keys' },
      baseQueryApi(cancelled.store, controller.signal),
      {},
    );
    controller.abort();
    expect(await pending).toEqual({ error: { error: 'ABORTED', msg: '' } });
    expect(cancelled.toasts()).toEqual([]);
  });

  it('treats an answer that is not {code, msg, data} as a failure', async () => {
    const { call, toasts } = setup(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    expect(await call({ url: '/api/plans', method: 'POST' })).toEqual({ error: { error: 502, msg: BAD_ANSWER_MSG } });
    expect(toasts()).toEqual([`warning:${BAD_ANSWER_MSG}`]);
  });

  it('echoes the csrf_token cookie when the browser has one (another tab may have renewed it)', async () => {
    document.cookie = 'csrf_token=from-the-cookie';
    const { sent, call } = setup(() => json({ code: 200, msg: 'OK', data: null }));
    await call({ url: '/api/logout', method: 'POST' });
    expect(sent[0]!.headers.get('x-csrf-token')).toBe('from-the-cookie');
    document.cookie = 'csrf_token=; max-age=0';
  });
});
