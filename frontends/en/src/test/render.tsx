// Page tests: a page rendered with a fresh store and a memory router, the browser's fetch replaced
// by canned answers per "METHOD /path", and every request kept for the test to look at.
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import type { Profile } from '../api/web-api.types.js';
import { initialised, silentLogout, userLoaded } from '../store/session.slice.js';
import { createStore } from '../store/store.js';

export interface SentRequest {
  method: string;
  path: string;
  search: string;
  body: unknown;
  headers: Headers;
}

export type Answer = { status?: number; code?: number; msg?: string; data?: unknown; field?: string };
type Answers = Record<string, Answer | ((sent: SentRequest) => Answer)>;

export const PROFILE: Profile = {
  id: 'acc_1',
  email: 'dev@example.test',
  name: 'Dev',
  display_name: 'Dev',
  company_name: 'Example Ltd',
  email_confirmed: true,
  auth: ['api:standard'],
  payService: 'api',
  created_at: '2025-01-15T10:00:00.000Z',
};

/** Replaces fetch: each request gets the answer of its "METHOD /path" (404 when there is none). */
export function fakeApi(answers: Answers) {
  const sent: SentRequest[] = [];
  const fetchStub = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://app.test');
    const request: SentRequest = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      search: url.search,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      headers: new Headers(init?.headers),
    };
    sent.push(request);
    const found = answers[`${request.method} ${request.path}`];
    const answer = typeof found === 'function' ? found(request) : (found ?? { status: 404, msg: 'Not found' });
    const status = answer.status ?? 200;
    const envelope = {
      code: answer.code ?? status,
      msg: answer.msg ?? 'OK',
      data: answer.data ?? null,
      ...(answer.field ? { field: answer.field } : {}),
    };
    return Promise.resolve(new Response(JSON.stringify(envelope), { status, headers: { 'content-type': 'application/json' } }));
  });
  vi.stubGlobal('fetch', fetchStub);
  return { sent, fetchStub };
}

/** Renders `page` at `path` (and any other routes given), logged in as `user` or anonymous. */
export function renderPage(
  page: ReactElement,
  options: { path?: string; user?: Profile | null; routes?: Record<string, ReactElement> } = {},
) {
  const store = createStore();
  store.dispatch(initialised({ csrf: 'csrf-test-value', freeLookupsPerMonth: 50_000 }));
  if (options.user === undefined || options.user === null) store.dispatch(silentLogout());
  else store.dispatch(userLoaded(options.user));
  const path = options.path ?? '/page';
  const router = createMemoryRouter(
    [
      { path: path.split('?')[0]!, element: page },
      ...Object.entries(options.routes ?? {}).map(([routePath, element]) => ({ path: routePath, element })),
    ],
    { initialEntries: [path] },
  );
  const view = render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  const toasts = () => store.getState().toast.items.map((toast) => toast.text);
  return { store, router, toasts, ...view };
}
