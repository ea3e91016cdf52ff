import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, PROFILE, renderPage } from '../../test/render.js';
import { plan } from '../../test/plans.js';
import { MESSAGES } from '../../forms/validation.js';
import { TRY_KEY_STORAGE } from '../../store/try-key.js';
import { BillingPage, downgradeTargets } from './billing.page.js';
import { DashboardPage } from './dashboard.page.js';
import { DownloadsPage, plansIncluding } from './downloads.page.js';
import { KeysPage } from './keys.page.js';
import { ProfilePage } from './profile.page.js';

// ECharts needs a real canvas: the chart is checked in Chromium (e2e); here it is a plain element.
vi.mock('@ipdata/web-kit/charts', () => ({
  Chart: ({ label }: { label: string }) => <div role="img" aria-label={label} />,
}));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const KEY = { id: 'key_1', name: 'production', prefix: 'ipd_abcd', created_at: '2025-05-01T00:00:00.000Z', revoked_at: null };

const STANDARD = plan({
  id: 'api-standard-monthly',
  name: 'Standard',
  tier: 'standard',
  price_minor: 4900,
  lookups_per_month: 250_000,
});

describe('dashboard', () => {
  it('shows the month exactly as the API counts it, and asks again per key and per hour', async () => {
    const { sent } = fakeApi({
      'GET /api/keys': { data: { keys: [KEY] } },
      'GET /api/usage': (request) => ({
        data: {
          plan: STANDARD,
          quota: {
            limit: 250_000,
            used: 1_234_567,
            remaining: 0,
            overage: 984_567,
            overage_cost_minor: 49_250,
            currency: 'USD',
            reset_at: '2025-07-01T00:00:00.000Z',
          },
          granularity: new URLSearchParams(request.search).get('granularity') ?? 'day',
          key_id: null,
          series: [{ period: '2025-06-02T00:00:00.000Z', lookups: 7, requests: 5 }],
        },
      }),
    });
    const { container } = renderPage(<DashboardPage />, { user: PROFILE });
    await screen.findByText('1,234,567');
    expect(container.querySelector('[data-usage="month"]')!.textContent).toBe('1,234,567');
    expect(container.querySelector('[data-usage="remaining"]')!.textContent).toBe('0');
    expect(container.querySelector('[data-usage="overage"]')!.textContent).toBe('984,567');
    expect(screen.getByText('$492.50 so far')).toBeTruthy();
    expect(container.querySelector('[data-plan]')!.textContent).toBe('Standard');
    expect(screen.getByRole('img').getAttribute('aria-label')).toMatch(/^Lookups and requests, all keys, per day/);
    expect(screen.getByRole('table')).toBeTruthy();
    fireEvent.change(await screen.findByRole('combobox', { name: 'API key' }), { target: { value: 'key_1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Per hour' }));
    await waitFor(() => expect(sent.some((request) => request.search === '?granularity=hour&key_id=key_1')).toBe(true));
    expect(screen.getByRole('button', { name: 'Per hour' }).getAttribute('aria-pressed')).toBe('true');
    expect(sent.find((request) => request.path === '/api/usage')!.search).toBe('?granularity=day');
  });
});

describe('API keys', () => {
  it('creates a key, shows its secret once, keeps it for the docs’ try-it box, copies it', async () => {
    const { sent } = fakeApi({
      'GET /api/keys': { data: { keys: [KEY] } },
      'POST /api/keys': {
        status: 201,
        code: 200,
        data: { key: { ...KEY, id: 'key_2', name: 'staging' }, secret: 'ipd_secret_value' },
      },
    });
    const writeText = vi.fn(() => Promise.resolve());
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const { container, toasts } = renderPage(<KeysPage />, { user: PROFILE });
    expect(await screen.findByRole('row', { name: /production/ })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Key name'), { target: { value: ' staging ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));
    await waitFor(() => expect(container.querySelector('[data-new-key]')?.textContent).toBe('ipd_secret_value'));
    expect(sent.find((request) => request.method === 'POST')!.body).toEqual({ name: 'staging' });
    expect(sessionStorage.getItem(TRY_KEY_STORAGE)).toBe('ipd_secret_value');
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(toasts()).toEqual([MESSAGES.copied]));
    expect(writeText).toHaveBeenCalledWith('ipd_secret_value');
    writeText.mockImplementationOnce(() => Promise.reject(new Error('denied')));
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(toasts()).toEqual([MESSAGES.copied, MESSAGES.copyFailed]));
  });

  it('revokes only after the confirm step; rotating shows the new secret', async () => {
    const { sent } = fakeApi({
      'GET /api/keys': { data: { keys: [KEY] } },
      'DELETE /api/keys/key_1': { data: { key: { ...KEY, revoked_at: '2025-06-01T00:00:00.000Z' } } },
      'POST /api/keys/key_1/rotate': { data: { key: { ...KEY, id: 'key_3' }, secret: 'ipd_rotated', revoked_key_id: 'key_1' } },
    });
    const { container } = renderPage(<KeysPage />, { user: PROFILE });
    const row = await screen.findByRole('row', { name: /production/ });
    fireEvent.click(within(row).getByRole('button', { name: 'Revoke' }));
    expect(sent.filter((request) => request.method === 'DELETE')).toEqual([]);
    fireEvent.click(within(row).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(row).getByRole('button', { name: 'Revoke' }));
    fireEvent.click(within(row).getByRole('button', { name: 'Yes, revoke' }));
    await waitFor(() => expect(sent.filter((request) => request.method === 'DELETE')).toHaveLength(1));
    expect(sent.find((request) => request.method === 'DELETE')!.headers.get('x-csrf-token')).toBe('csrf-test-value');
    fireEvent.click(within(row).getByRole('button', { name: 'Rotate' }));
    fireEvent.click(within(row).getByRole('button', { name: 'Yes, rotate' }));
    await waitFor(() => expect(container.querySelector('[data-new-key]')?.textContent).toBe('ipd_rotated'));
    expect(sessionStorage.getItem(TRY_KEY_STORAGE)).toBe('ipd_rotated');
  });
});

describe('data downloads', () => {
  const FILES = [
    {
      database: 'asn',
      format: 'csv',
      file_name: 'asn.csv',
      updated_at: '2025-06-01T00:00:00.000Z',
      update_frequency: 'every 7 days',
      size_bytes: 2_500_000,
      sha256: 'a'.repeat(64),
      entitled: true,
      datasets: ['asn'],
      sample_url: '/v1/databases/asn/sample.csv',
    },
    {
      database: 'complete',
      format: 'mmdb',
      file_name: 'ipdata-city.mmdb',
      updated_at: '2025-06-01T00:00:00.000Z',
      update_frequency: 'every 7 days',
      size_bytes: 80_000_000,
      sha256: 'b'.repeat(64),
      entitled: false,
      datasets: ['geolocation', 'privacy', 'asn'],
      sample_url: null,
    },
  ];
  const DOWNLOAD_PLANS = [
    plan({ id: 'download-free', kind: 'download', datasets: ['asn'] }),
    plan({
      id: 'download-standard-monthly',
      name: 'Standard',
      kind: 'download',
      tier: 'standard',
      datasets: ['geolocation', 'asn'],
    }),
    plan({
      id: 'download-business-monthly',
      name: 'Business',
      kind: 'download',
      tier: 'business',
      datasets: ['geolocation', 'privacy', 'asn'],
    }),
    plan({
      id: 'download-business-yearly',
      name: 'Business',
      kind: 'download',
      tier: 'business',
      interval: 'year',
      datasets: ['geolocation', 'privacy', 'asn'],
    }),
  ];

  it('names the plans that include a file', () => {
    expect(plansIncluding(FILES[1]!, DOWNLOAD_PLANS)).toEqual(['Business']);
    expect(plansIncluding(FILES[0]!, DOWNLOAD_PLANS)).toEqual(['Free', 'Standard', 'Business']);
  });

  it('lists the files, downloads through a fresh signed link, pages the history', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const { sent } = fakeApi({
      'GET /api/databases': {
        data: { version: '2025.06.01', plan: { id: 'download-free', name: 'Free', datasets: ['asn'] }, databases: FILES },
      },
      'GET /api/plans': { data: { plans: DOWNLOAD_PLANS } },
      'POST /api/databases/asn/csv/link': {
        data: { url: 'http://files.test/asn.csv?sig=1', expires_at: null, file_name: 'asn.csv' },
      },
      'GET /api/downloads/history': (request) => ({
        data: {
          downloads: [
            {
              id: `dl_${request.search}`,
              downloaded_at: '2025-06-02T10:30:00.000Z',
              ip: '203.0.113.9',
              database: 'asn',
              format: 'csv',
              file_name: 'asn.csv',
            },
          ],
          total: 25,
          page: Number(new URLSearchParams(request.search).get('page')),
          remaining_today: 9,
          daily_limit: 10,
        },
      }),
    });
    const { container } = renderPage(<DownloadsPage />, { user: PROFILE });
    const asn = await waitFor(() => {
      const row = container.querySelector<HTMLElement>('tr[data-database="asn"][data-format="csv"]');
      if (!row) throw new Error('no asn row yet');
      return row;
    });
    expect(asn.textContent).toContain('every 7 days');
    expect(asn.textContent).toContain('a'.repeat(64));
    expect(within(asn).getByRole('button', { name: 'Sample' })).toBeTruthy();
    const complete = container.querySelector<HTMLElement>('tr[data-database="complete"][data-format="mmdb"]')!;
    await waitFor(() => expect(complete.textContent).toContain('In the Business plan.'));
    expect(within(complete).queryByRole('button', { name: 'Download' })).toBeNull();
    expect(within(complete).queryByRole('button', { name: 'Sample' })).toBeNull();
    expect(within(complete).getByRole('link', { name: 'See pricing' }).getAttribute('href')).toBe('/pricing');
    fireEvent.click(within(asn).getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('http://files.test/asn.csv?sig=1'));
    const history = await screen.findByRole('table', { name: 'Download history' });
    expect(within(history).getByText('203.0.113.9')).toBeTruthy();
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 2 of 2');
    expect(sent.filter((request) => request.path === '/api/downloads/history').map((request) => request.search)).toContain(
      '?page=2',
    );
  });
});

describe('billing', () => {
  it('offers only lower plans of the same kind as downgrades (none from a free plan)', () => {
    const yearly = { ...STANDARD, id: 'api-standard-yearly', interval: 'year' as const };
    const business = plan({ id: 'api-business-monthly', name: 'Business', tier: 'business', price_minor: 19_900 });
    const all = [plan({}), STANDARD, yearly, business, plan({ id: 'download-free', kind: 'download' })];
    expect(downgradeTargets(business, all).map((entry) => entry.id)).toEqual([
      'api-standard-yearly',
      'api-standard-monthly',
      'api-free',
    ]);
    expect(downgradeTargets(yearly, all).map((entry) => entry.id)).toEqual(['api-standard-monthly', 'api-free']);
    expect(downgradeTargets(plan({}), all)).toEqual([]);
  });

  it('shows the plan per kind and invoices, and downgrades after the confirm step', async () => {
    const subscription = {
      id: 'sub_1',
      kind: 'api',
      plan_id: STANDARD.id,
      tier: 'standard',
      period_start: '2025-06-01T00:00:00.000Z',
      period_end: '2025-07-01T00:00:00.000Z',
      scheduled_plan_id: null,
    };
    const { sent } = fakeApi({
      'GET /api/subscription': {
        data: {
          plans: [
            { kind: 'api', plan: STANDARD, subscription },
            { kind: 'download', plan: plan({ id: 'download-free', kind: 'download' }) },
          ],
        },
      },
      'GET /api/plans': { data: { plans: [plan({}), STANDARD] } },
      'GET /api/invoices': {
        data: {
          invoices: [
            {
              id: 'inv_1',
              period_start: '2025-05-01T00:00:00.000Z',
              period_end: '2025-06-01T00:00:00.000Z',
              currency: 'USD',
              total_minor: 5_400,
              amount_due_minor: 500,
              lookups: 260_000,
              included_lookups: 250_000,
              plan_id: STANDARD.id,
              issued_at: '2025-06-01T00:05:00.000Z',
              lines: [{ description: 'Standard, May 2025', amount_minor: 4_900 }],
            },
          ],
          next_page_token: null,
        },
      },
      'POST /api/subscription/downgrade': { data: { subscription: { ...subscription, scheduled_plan_id: 'api-free' } } },
    });
    const { container } = renderPage(<BillingPage />, { user: PROFILE });
    await waitFor(() => expect(container.querySelector('[data-current-plan="api"]')?.textContent).toBe('Standard'));
    expect(container.querySelector('[data-current-plan="download"]')!.textContent).toBe('Free');
    expect(screen.getByText(/Renews on Jul 1, 2025/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Change plan' }).getAttribute('href')).toBe('/pricing');
    const invoices = await screen.findByRole('table', { name: 'Invoices' });
    expect(within(invoices).getByText('$54.00')).toBeTruthy();
    expect(within(invoices).getByText('Due')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Downgrade' }));
    expect(sent.some((request) => request.method === 'POST')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Yes, downgrade' }));
    await waitFor(() => expect(sent.find((request) => request.method === 'POST')?.body).toEqual({ plan_id: 'api-free' }));
  });
});

describe('profile', () => {
  it('lists the user with payService as a list, and saves name and company', async () => {
    const { sent } = fakeApi({ 'PATCH /api/profile': { data: { ...PROFILE, name: 'New Name' } } });
    const { container, toasts, store } = renderPage(<ProfilePage />, { user: { ...PROFILE, payService: 'api,download' } });
    expect([...container.querySelectorAll('[data-profile="payService"] li')].map((item) => item.textContent)).toEqual([
      'API access',
      'Data download',
    ]);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'New Name' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(toasts()).toEqual([MESSAGES.profileSaved]));
    expect(sent[0]).toMatchObject({ method: 'PATCH', body: { name: 'New Name', company_name: 'Example Ltd' } });
    expect(store.getState().session.user?.name).toBe('New Name');
  });

  it('changes the password: all three fields, the same new password twice', async () => {
    const { sent } = fakeApi({
      'POST /api/profile/password': (request) =>
        (request.body as { current_password: string }).current_password === 'wrong'
          ? { status: 400, msg: 'The current password is incorrect', field: 'current_password' }
          : { msg: 'Your password has been changed' },
    });
    renderPage(<ProfilePage />, { user: PROFILE });
    const form = screen.getByRole('form', { name: 'Change password' });
    fireEvent.change(within(form).getByLabelText('New password'), { target: { value: 'a new password' } });
    fireEvent.change(within(form).getByLabelText('Confirm new password'), { target: { value: 'a different one' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Change password' }));
    await waitFor(() =>
      expect(
        within(form)
          .getAllByRole('alert')
          .map((alert) => alert.textContent),
      ).toEqual([MESSAGES.currentPassword, MESSAGES.passwordsDiffer]),
    );
    expect(sent).toEqual([]);
    fireEvent.change(within(form).getByLabelText('Current password'), { target: { value: 'wrong' } });
    fireEvent.change(within(form).getByLabelText('Confirm new password'), { target: { value: 'a new password' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await within(form).findByText('The current password is incorrect')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Current password'), { target: { value: 'the old one' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await within(form).findByText('Your password has been changed')).toBeTruthy();
    expect(within(form).getByLabelText<HTMLInputElement>('Current password').value).toBe('');
  });
});
