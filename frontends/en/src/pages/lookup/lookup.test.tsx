import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../test/render.js';
import { LookupPage, PROMPT } from '../lookup.page.js';
import { IpCard } from './ip-card.js';
import type { IpInfoView } from './ip-info.js';

// ECharts needs a canvas jsdom does not have; the map's own module is the kit's concern.
vi.mock('@ipdata/web-kit/charts', () => ({
  WorldMap: ({ label }: { label: string }) => <div role="img" aria-label={label} />,
}));

const GOOGLE: IpInfoView = {
  ip: '8.8.8.8',
  country_code: 'US',
  country_name: 'United States',
  country_capital: 'Washington D.C.',
  region_name: null,
  city_name: null,
  latitude: 37.751,
  longitude: -97.822,
  zip_code: null,
  is_eu: false,
  calling_code: '1',
  country_flag: '🇺🇸',
  weather_station_code: null,
  weather_station_name: null,
  elevation: null,
  asn: { asn: 15169, asn_name: 'GOOGLE', domain: null, usage_type: null, isp: null, organization: 'Google LLC' },
  time_zone: { name: 'America/Chicago', offset: '-05:00', current_time: '2026-01-10T06:00:00-05:00' },
  currency: { code: 'USD', name: 'US Dollar', symbol: '$' },
  is_proxy: false,
  proxy_data: { is_vpn: false, is_tor: false, is_data_center: true, is_proxy: false, is_relay: false, is_hosting: true },
  start_ip: '8.8.8.0',
  end_ip: '8.8.8.255',
  network: '8.8.8.0/24',
  reserved: null,
};

// As the tool answers a reserved address: every member null but the address and why.
const PRIVATE = {
  ...(Object.fromEntries(Object.keys(GOOGLE).map((key) => [key, null])) as Record<keyof IpInfoView, null>),
  ip: '10.1.2.3',
  reserved: 'private',
} satisfies IpInfoView;

const field = (container: HTMLElement, path: string) => container.querySelector(`[data-field="${path}"]`)?.textContent;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the answer card', () => {
  it('shows every group of the IP info result with its values under data-field', () => {
    const { container } = render(<IpCard info={GOOGLE} />);
    for (const group of ['Location', 'Network', 'ASN', 'Time zone', 'Currency', 'Privacy'])
      expect(screen.getByRole('group', { name: group })).toBeTruthy();
    expect(field(container, 'country_name')).toBe('United States');
    expect(field(container, 'country_flag')).toBe('🇺🇸');
    expect(field(container, 'latitude')).toBe('37.7510');
    expect(field(container, 'is_eu')).toBe('No');
    expect(field(container, 'asn.asn')).toBe('AS15169');
    expect(field(container, 'asn.organization')).toBe('Google LLC');
    expect(field(container, 'time_zone.current_time')).toBe('2026-01-10 06:00:00');
    expect(field(container, 'currency.symbol')).toBe('$');
    expect(field(container, 'proxy_data.is_data_center')).toBe('Yes');
    expect(field(container, 'network')).toBe('8.8.8.0/24');
    // Unknown values keep their row.
    expect(field(container, 'city_name')).toBe('—');
  });

  it('says why a reserved address has no location and leaves out the empty groups', () => {
    const { container } = render(<IpCard info={PRIVATE} />);
    expect(screen.getByText(/10\.1\.2\.3 is a private address/)).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Location' })).toBeNull();
    expect(field(container, 'country_name')).toBeUndefined();
  });
});

type Answer = { status?: number; body: unknown };

function serve(answers: Record<string, Answer>) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      calls.push(input);
      const answer = answers[input] ?? { status: 404, body: { code: 404, msg: 'no such test answer' } };
      return new Response(JSON.stringify(answer.body), {
        status: answer.status ?? 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return calls;
}

// The page alone: the route table's other pages are not this test's concern.
const renderLookup = (path: string) => renderPage(<LookupPage />, { path }).router;

const ok = (query: string, results: IpInfoView[], kind = 'ip') => ({
  body: { code: 200, msg: '', data: { query, kind, results } },
});

describe('the lookup page', () => {
  it("shows the visitor's own address on arrival, with the map and the raw JSON", async () => {
    const calls = serve({ '/api/lookup': ok('8.8.8.8', [GOOGLE]) });
    renderLookup('/lookup');
    const result = await screen.findByRole('region', { name: 'Result for 8.8.8.8' });
    expect(calls).toEqual(['/api/lookup']);
    expect(within(result).getByRole('heading', { name: 'Your IP address: 8.8.8.8' })).toBeTruthy();
    expect(within(result).getByRole('img').getAttribute('aria-label')).toContain('latitude 37.751');
    expect(JSON.parse(result.querySelector('pre')?.textContent ?? '')).toEqual(GOOGLE);
    expect(screen.getByLabelText('IP address or domain').getAttribute('placeholder')).toBe(PROMPT);
  });

  it('keeps the query in the URL (?q=) so Back returns to the previous answer', async () => {
    serve({ '/api/lookup': ok('8.8.8.8', [GOOGLE]), '/api/lookup?q=10.1.2.3': ok('10.1.2.3', [PRIVATE]) });
    const router = renderLookup('/lookup');
    await screen.findByRole('region', { name: 'Result for 8.8.8.8' });
    fireEvent.change(screen.getByLabelText('IP address or domain'), { target: { value: ' 10.1.2.3 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Look up' }));
    const reserved = await screen.findByRole('region', { name: 'Result for 10.1.2.3' });
    expect(router.state.location.search).toBe('?q=10.1.2.3');
    expect(within(reserved).getByText(/is a private address/)).toBeTruthy();
    expect(within(reserved).queryByRole('img')).toBeNull();
    await router.navigate(-1);
    expect(await screen.findByRole('region', { name: 'Result for 8.8.8.8' })).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('IP address or domain').value).toBe('');
  });

  it('asks for an address when the field is empty, without a request', async () => {
    const calls = serve({ '/api/lookup': ok('8.8.8.8', [GOOGLE]) });
    renderLookup('/lookup');
    await screen.findByRole('region', { name: 'Result for 8.8.8.8' });
    fireEvent.click(screen.getByRole('button', { name: 'Look up' }));
    expect(screen.getByRole('alert').textContent).toBe(PROMPT);
    expect(calls).toHaveLength(1);
  });

  it("shows the server's message for invalid input and for the per-visitor limit", async () => {
    serve({
      '/api/lookup?q=not+an+ip': { status: 400, body: { code: 400, msg: PROMPT, field: 'q' } },
      '/api/lookup?q=1.1.1.1': {
        status: 429,
        body: { code: 429, msg: 'Too many lookups from your address, please try again later', reason: 'rate_limited' },
      },
    });
    renderLookup('/lookup?q=not an ip');
    expect((await screen.findByRole('alert')).textContent).toBe(PROMPT);
    expect(screen.getByLabelText('IP address or domain').getAttribute('aria-invalid')).toBe('true');
    cleanup();
    renderLookup('/lookup?q=1.1.1.1');
    // 429 is retried twice by the client policy (Retry-After absent: 300 ms, 600 ms) before it shows.
    expect((await screen.findByRole('alert', {}, { timeout: 3000 })).textContent).toBe(
      'Too many lookups from your address, please try again later',
    );
  });

  it('shows each address of a domain', async () => {
    serve({ '/api/lookup?q=dns.google': ok('dns.google', [GOOGLE, { ...GOOGLE, ip: '8.8.4.4' }], 'domain') });
    renderLookup('/lookup?q=dns.google');
    expect(await screen.findByRole('region', { name: 'Result for 8.8.4.4' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'dns.google: 8.8.8.8' })).toBeTruthy();
    expect(screen.getByText(/has 2 addresses/)).toBeTruthy();
  });
});
