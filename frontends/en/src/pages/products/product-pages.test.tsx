import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, renderPage } from '../../test/render.js';
import { leavePageFor } from '../leave-page.js';
import { apiProductPage } from './api-product.page.js';
import { databasePage } from './database.page.js';

vi.mock('../leave-page.js', () => ({ leavePageFor: vi.fn() }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function answerFor(ip: string) {
  return {
    data: {
      query: ip,
      kind: 'ip',
      results: [
        {
          ip,
          country_code: 'DE',
          country_name: 'Germany',
          region_name: null,
          city_name: null,
          latitude: 51,
          longitude: 9,
          asn: { asn: 14061, asn_name: 'DIGITALOCEAN-ASN', organization: 'DigitalOcean, LLC' },
          time_zone: { name: 'Europe/Berlin', offset: '+01:00', current_time: '2026-01-01T00:00:00+01:00' },
          currency: { code: 'EUR', name: 'Euro', symbol: '€' },
          is_proxy: false,
          proxy_data: { is_vpn: false, is_tor: false, is_data_center: true, is_proxy: false, is_relay: false, is_hosting: true },
          reserved: null,
        },
      ],
    },
  };
}

const lookups = () => fakeApi({ 'GET /api/lookup': (request) => answerFor(new URLSearchParams(request.search).get('q')!) });

describe('API product pages', () => {
  it('privacy: what it answers, its calls with links to the docs, and a live answer with just the privacy members', async () => {
    const { sent } = lookups();
    const Page = apiProductPage('privacy');
    renderPage(<Page />, { path: '/products/privacy' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Privacy detection API');
    expect(screen.getByText('proxy_data.is_tor')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'GET /v1/privacy/{ip} in the docs' }).getAttribute('href')).toBe('/docs#getPrivacy');
    const answer = await screen.findByLabelText(/Answer for .* as JSON/);
    expect(Object.keys(JSON.parse(answer.textContent) as object)).toEqual(['ip', 'is_proxy', 'proxy_data']);
    expect(sent[0]!.search).toBe('?q=159.89.0.1');

    // Another address: asked for and shown.
    fireEvent.change(screen.getByLabelText('IP address'), { target: { value: '1.2.3.4' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show the answer' }));
    await waitFor(() => expect(screen.getByLabelText('Answer for 1.2.3.4 as JSON')).toBeTruthy());
    expect(screen.getByText('GET /v1/privacy/1.2.3.4')).toBeTruthy();
  });

  it('geolocation shows the whole answer; ASN the asn object; both link to pricing and their database', async () => {
    lookups();
    const Geo = apiProductPage('geolocation');
    renderPage(<Geo />, { path: '/products/geolocation' });
    const whole = JSON.parse((await screen.findByLabelText(/as JSON/)).textContent) as Record<string, unknown>;
    expect(whole).toHaveProperty('time_zone');
    expect(whole).toHaveProperty('currency');
    expect(screen.getByRole('link', { name: 'IP geolocation database' }).getAttribute('href')).toBe('/databases/geolocation');
    cleanup();

    const Asn = apiProductPage('asn');
    renderPage(<Asn />, { path: '/products/asn' });
    const asn = JSON.parse((await screen.findByLabelText(/as JSON/)).textContent) as Record<string, unknown>;
    expect(Object.keys(asn)).toEqual(['ip', 'asn']);
    expect(screen.getAllByRole('link', { name: /pricing/i })[0]!.getAttribute('href')).toBe('/pricing');
  });

  it('says what went wrong when the example cannot be fetched', async () => {
    fakeApi({ 'GET /api/lookup': { status: 429, msg: 'Too many lookups from your address, please try again later' } });
    const Page = apiProductPage('asn');
    renderPage(<Page />, { path: '/products/asn' });
    expect((await screen.findByRole('alert', {}, { timeout: 8000 })).textContent).toBe(
      'Too many lookups from your address, please try again later',
    );
  }, 15_000);
});

const FILE = {
  updated_at: '2026-09-16T00:00:00.000Z',
  update_frequency: 'every 7 days',
  sha256: 'ab'.repeat(32),
  entitled: false,
  version: '2026.09.16',
};

describe('database pages', () => {
  it('shows the formats, the update frequency and the plans that include it; a sample goes to the link the web API gives', async () => {
    const { sent } = fakeApi({
      'GET /api/databases': {
        data: {
          version: '2026.09.16',
          plan: {},
          databases: [
            {
              ...FILE,
              database: 'asn',
              format: 'csv',
              file_name: 'asn.csv',
              size_bytes: 45_842_932,
              row_count: 515_158,
              sample_url: '/v1/databases/asn/sample.csv',
            },
            {
              ...FILE,
              database: 'asn',
              format: 'ndjson',
              file_name: 'asn.ndjson',
              size_bytes: 86_125_791,
              row_count: 515_158,
              sample_url: '/v1/databases/asn/sample.ndjson',
            },
            {
              ...FILE,
              database: 'geolocation',
              format: 'csv',
              file_name: 'geolocation.csv',
              size_bytes: 1,
              row_count: 1,
              sample_url: null,
            },
            {
              ...FILE,
              database: 'complete',
              format: 'mmdb',
              file_name: 'ipdata-city.mmdb',
              size_bytes: 100_692_762,
              row_count: 7_454_942,
              sample_url: null,
            },
          ],
        },
      },
      'GET /api/plans': {
        data: {
          plans: [
            { id: 'download-free', name: 'Free', kind: 'download', tier: 'free', datasets: ['asn'] },
            {
              id: 'download-standard-monthly',
              name: 'Standard',
              kind: 'download',
              tier: 'standard',
              datasets: ['geolocation', 'asn'],
            },
            {
              id: 'download-standard-yearly',
              name: 'Standard',
              kind: 'download',
              tier: 'standard',
              datasets: ['geolocation', 'asn'],
            },
            {
              id: 'download-business-monthly',
              name: 'Business',
              kind: 'download',
              tier: 'business',
              datasets: ['geolocation', 'privacy', 'asn'],
            },
          ],
        },
      },
      'GET /api/databases/asn/sample/csv': {
        data: { url: 'http://127.0.0.1:9105/samples/asn-sample.csv', file_name: 'asn-sample.csv', size_bytes: 1, sha256: 'x' },
      },
    });
    const Page = databasePage('asn');
    renderPage(<Page />, { path: '/databases/asn' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('ASN database');
    expect(screen.getAllByText('every 7 days').length).toBeGreaterThan(0);
    const table = await screen.findByRole('table', { name: 'Files of the ASN database' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]!.textContent)).toEqual([
      'asn.csv',
      'asn.ndjson',
      'ipdata-city.mmdb',
    ]);
    expect(within(rows[2]!).getByRole('rowheader').textContent).toContain('MMDB');
    expect(await screen.findByText(/Included in the FREE, Standard, Business data download plans/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Download CSV sample' }));
    await waitFor(() => expect(leavePageFor).toHaveBeenCalledWith('http://127.0.0.1:9105/samples/asn-sample.csv'));
    expect(sent.some((request) => request.path === '/api/databases/asn/sample/csv')).toBe(true);
  });
});
