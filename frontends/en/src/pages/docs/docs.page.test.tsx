import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { silentLogout } from '../../store/session.slice.js';
import { createStore } from '../../store/store.js';
import { DocsPage } from './docs.page.js';
import { FIXTURE } from './openapi.fixture.js';
import { TRY_KEY_STORAGE } from './try-it.js';

function serve() {
  const calls: [string, RequestInit | undefined][] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      calls.push([input, init]);
      if (input === '/v1/openapi.json') return Response.json(FIXTURE);
      return Response.json({ ip: '8.8.8.8' }, { headers: { 'X-RateLimit-Limit': '50000', 'X-RateLimit-Remaining': '49999' } });
    }),
  );
  return calls;
}

function renderDocs(tryKey?: string) {
  const store = createStore();
  store.dispatch(silentLogout()); // which forgets any try key: the keys page sets it after
  if (tryKey) window.sessionStorage.setItem(TRY_KEY_STORAGE, tryKey);
  const router = createMemoryRouter([{ path: '/docs', element: <DocsPage /> }], { initialEntries: ['/docs'] });
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.sessionStorage.clear();
});

describe('the documentation page', () => {
  it('renders one section per operation, with example tabs and a try-it that uses the session key', async () => {
    const calls = serve();
    renderDocs('k_session_key');
    const section = await screen.findByRole('region', { name: 'Everything about one address' });
    expect(section.id).toBe('getIp');
    for (const id of ['getIpField', 'postBatch', 'postBulk', 'getDatabaseSample'])
      expect(document.getElementById(id)).toBeTruthy();
    expect(screen.getByRole('link', { name: /Everything about one address/ }).getAttribute('href')).toBe('#getIp');
    expect(screen.getByLabelText<HTMLInputElement>('API key').value).toBe('k_session_key');

    const tabs = within(section)
      .getAllByRole('tab')
      .map((tab) => tab.textContent);
    expect(tabs).toEqual(['curl', 'JavaScript', 'Python']);
    fireEvent.click(within(section).getByRole('tab', { name: 'Python' }));
    expect(within(section).getByRole('tabpanel').textContent).toContain('requests.get(');
    // The language is the page's: every operation now shows Python.
    expect(within(document.getElementById('postBatch')!).getByRole('tabpanel').textContent).toContain('requests.post(');

    fireEvent.click(within(section).getByRole('button', { name: 'Try it' }));
    expect(await within(section).findByText('X-RateLimit-Remaining')).toBeTruthy();
    const [url, init] = calls.at(-1)!;
    expect(url).toBe('/v1/ip/8.8.8.8');
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer k_session_key');
    // The examples never print the key itself.
    expect(document.body.textContent).not.toContain('Bearer k_session_key');
  });

  it('documents authentication (query key last), errors and the quota headers', async () => {
    serve();
    renderDocs();
    const auth = await screen.findByRole('region', { name: 'Authentication' });
    expect(
      within(auth)
        .getAllByRole('heading', { level: 3 })
        .map((heading) => heading.textContent),
    ).toEqual(['Bearer token (recommended)', 'X-API-Key header', 'key query parameter (least safe)']);
    const errors = screen.getByRole('region', { name: 'Errors' });
    expect(within(errors).getByRole('table', { name: 'Error statuses and their codes' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Quota and rate-limit headers' }).textContent).toContain('X-RateLimit-Remaining');
    expect(screen.getByLabelText<HTMLInputElement>('API key').value).toBe('');
  });
});
