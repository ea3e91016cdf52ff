import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, renderPage } from '../test/render.js';
import { HomePage } from './home.page.js';
import { RESOLVERS } from './home/live-lookups.api.js';

// ECharts needs a real canvas (checked in Chromium): here the map is a plain element listing its pins.
vi.mock('@ipdata/web-kit/charts', () => ({
  WorldMap: ({ label, points }: { label: string; points: { name: string }[] }) => (
    <div role="img" aria-label={label} data-pins={points.map((point) => point.name).join('|')} />
  ),
}));

// A test's lookups may still be saved after it ends (they answer asynchronously): clear before each.
beforeEach(() => sessionStorage.clear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The lookup tool's answer for one address: somewhere for all but the last resolver. */
function lookupAnswer(ip: string) {
  const located = ip !== RESOLVERS[RESOLVERS.length - 1];
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
          city_name: located ? 'Berlin' : null,
          latitude: located ? 52.5 : null,
          longitude: located ? 13.4 : null,
          asn: { asn: 64500, asn_name: `Network of ${ip}` },
          time_zone: null,
          currency: null,
          is_proxy: false,
          proxy_data: null,
          reserved: null,
        },
      ],
    },
  };
}

describe('home', () => {
  it("shows the spec's sections: banner, trusted-by, services, the map, why-us, comments and the calls to action", async () => {
    fakeApi({ 'GET /api/lookup': (request) => lookupAnswer(new URLSearchParams(request.search).get('q')!) });
    renderPage(<HomePage />, { path: '/' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('IP geolocation, privacy and ASN data for developers');
    expect(screen.getByText(/50,000 free lookups per month — no credit card/)).toBeTruthy();
    for (const name of [
      'Trusted by 3000+ companies',
      'Services',
      'Live lookups around the world',
      'Why us',
      'What teams build with it',
    ])
      expect(screen.getByRole('heading', { level: 2, name })).toBeTruthy();
    // The spec's numbers (sections 1 and 9), as stated.
    for (const figure of ['< 40 ms', '99.99%', '900+', '100+']) expect(screen.getByText(figure)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Get your free API key' }).getAttribute('href')).toBe('/signup');
    expect(screen.getByRole('link', { name: 'Privacy detection API' }).getAttribute('href')).toBe('/products/privacy');
  });

  it('pins the resolvers where the lookup tool places them, lists them in a table, and asks only once per session', async () => {
    const { sent } = fakeApi({ 'GET /api/lookup': (request) => lookupAnswer(new URLSearchParams(request.search).get('q')!) });
    renderPage(<HomePage />, { path: '/' });
    const table = await screen.findByRole('table', { name: 'Looked up just now' });
    // The address without a location has no pin and no row.
    expect(within(table).getAllByRole('row')).toHaveLength(RESOLVERS.length);
    expect(within(table).getByRole('link', { name: RESOLVERS[0] }).getAttribute('href')).toBe(`/lookup?q=${RESOLVERS[0]}`);
    expect(within(table).getAllByText('Berlin, Germany')).toHaveLength(RESOLVERS.length - 1);
    const map = screen.getByRole('img', { name: /World map with 7 looked-up resolvers/ });
    expect(map.getAttribute('data-pins')!.split('|')).toHaveLength(RESOLVERS.length - 1);
    expect(sent.filter((request) => request.path === '/api/lookup')).toHaveLength(RESOLVERS.length);
    cleanup();

    // A second visit in the same browser session reuses the answers (the tool is limited per visitor).
    renderPage(<HomePage />, { path: '/' });
    expect(await screen.findByRole('table', { name: 'Looked up just now' })).toBeTruthy();
    expect(sent.filter((request) => request.path === '/api/lookup')).toHaveLength(RESOLVERS.length);
  });

  it('says so when the lookups cannot be made, and keeps the rest of the page', async () => {
    fakeApi({ 'GET /api/lookup': { status: 400, msg: 'Please enter any IPv4 or IPv6 address' } });
    renderPage(<HomePage />, { path: '/' });
    expect(await screen.findByText('The live lookups are not available right now.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Why us' })).toBeTruthy();
  });
});
