import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, PROFILE, renderPage } from '../test/render.js';
import type { Plan } from '../api/web-api.types.js';
import { plan } from '../test/plans.js';
import { leavePageFor } from './leave-page.js';
import { FREE_PLAN_NOTE, PricingPage } from './pricing.page.js';
import { plansShown, yearlySaving } from './pricing/plan-choice.js';

vi.mock('./leave-page.js', () => ({ leavePageFor: vi.fn() }));

// The shape of billing's catalogue (services/billing's plans), trimmed to what the page reads.
const PLANS: Plan[] = [
  plan({}),
  plan({
    id: 'api-standard-monthly',
    name: 'Standard',
    tier: 'standard',
    price_minor: 4900,
    lookups_per_month: 250_000,
    overage_price_per_1k_minor: 50,
    support_level: 'priority',
  }),
  plan({
    id: 'api-standard-yearly',
    name: 'Standard',
    tier: 'standard',
    interval: 'year',
    price_minor: 49_000,
    lookups_per_month: 250_000,
    overage_price_per_1k_minor: 50,
    support_level: 'priority',
  }),
  plan({
    id: 'api-business-monthly',
    name: 'Business',
    tier: 'business',
    price_minor: 19_900,
    lookups_per_month: 1_500_000,
    overage_price_per_1k_minor: 30,
    support_level: 'priority',
  }),
  plan({
    id: 'api-business-yearly',
    name: 'Business',
    tier: 'business',
    interval: 'year',
    price_minor: 199_000,
    lookups_per_month: 1_500_000,
    overage_price_per_1k_minor: 30,
    support_level: 'priority',
  }),
  plan({
    id: 'api-enterprise-monthly',
    name: 'Enterprise',
    tier: 'enterprise',
    self_checkout: false,
    lookups_per_month: 20_000_000,
    overage_price_per_1k_minor: 15,
    support_level: 'priority',
  }),
  plan({ id: 'download-free', kind: 'download', lookups_per_month: 0, datasets: ['asn'] }),
  plan({
    id: 'download-standard-monthly',
    name: 'Standard',
    kind: 'download',
    tier: 'standard',
    price_minor: 9900,
    lookups_per_month: 0,
    datasets: ['geolocation', 'asn'],
    support_level: 'priority',
  }),
  plan({
    id: 'download-enterprise-yearly',
    name: 'Enterprise',
    kind: 'download',
    tier: 'enterprise',
    interval: 'year',
    self_checkout: false,
    lookups_per_month: 0,
    datasets: ['geolocation', 'privacy', 'asn'],
    support_level: 'priority',
  }),
  plan({ id: 'vip-monthly', name: 'VIP', kind: 'vip', tier: 'standard', price_minor: 1500 }),
];

const byId = (id: string) => PLANS.find((entry) => entry.id === id)!;
const currentAnswer = (...ids: string[]) => ({
  data: { plans: ids.map((id) => ({ kind: byId(id).kind, plan: byId(id), subscription: { id: `sub-${id}`, plan_id: id } })) },
});

const article = (name: string) => screen.getByRole('article', { name });

beforeEach(() => vi.mocked(leavePageFor).mockClear());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('pricing', () => {
  it('shows one plan per tier with its price per month and per extra 1k requests; Yearly spreads the yearly price', async () => {
    fakeApi({ 'GET /api/plans': { data: { plans: PLANS } } });
    renderPage(<PricingPage />, { path: '/pricing' });
    const standard = await screen.findByRole('article', { name: 'Standard' });
    expect(screen.getAllByRole('article').map((item) => item.getAttribute('aria-label'))).toEqual([
      'FREE',
      'Standard',
      'Business',
      'Enterprise',
    ]);
    expect(standard.textContent).toContain('$49 per month');
    expect(standard.textContent).toContain('$0.50 per extra 1k requests');
    expect(within(article('FREE')).getByText(/per extra 1k requests/).textContent).toMatch(/No charge/);
    expect(within(article('Enterprise')).getByRole('link', { name: 'Contact sales' }).getAttribute('href')).toBe(
      '/contact?category=Custom%20plans',
    );

    const monthly = screen.getByRole('button', { name: 'Monthly' });
    const yearly = screen.getByRole('button', { name: 'Yearly' });
    expect(monthly.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(yearly);
    expect(yearly.getAttribute('aria-pressed')).toBe('true');
    expect(monthly.getAttribute('aria-pressed')).toBe('false');
    expect(article('Standard').textContent).toContain('$40.83 per month');
    expect(article('Standard').textContent).toContain('Billed yearly: $490');
    // The free plan is the same whichever period is chosen.
    expect(article('FREE').textContent).toContain('$0 per month');
  });

  it('switches between API access and Data download with the tabs (arrow keys too)', async () => {
    fakeApi({ 'GET /api/plans': { data: { plans: PLANS } } });
    renderPage(<PricingPage />, { path: '/pricing' });
    await screen.findByRole('article', { name: 'Standard' });
    const api = screen.getByRole('tab', { name: 'API access' });
    const download = screen.getByRole('tab', { name: 'Data download' });
    expect(api.getAttribute('aria-selected')).toBe('true');

    fireEvent.click(download);
    expect(download.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe(download.id);
    expect(article('Standard').textContent).toContain('IP geolocation, ASN databases');
    expect(article('Standard').textContent).not.toContain('per extra 1k requests');
    // Sold through sales, yearly only: still shown with the monthly toggle.
    expect(article('Enterprise')).toBeTruthy();

    fireEvent.keyDown(download, { key: 'ArrowLeft' });
    expect(api.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(api);
  });

  it("marks the subscribed plan 'Current Plan' and sends a free-plan subscriber to the console", async () => {
    fakeApi({
      'GET /api/plans': { data: { plans: PLANS } },
      'GET /api/subscription': currentAnswer('api-free', 'download-standard-monthly'),
    });
    renderPage(<PricingPage />, { path: '/pricing', user: PROFILE });
    expect(await within(await screen.findByRole('article', { name: 'FREE' })).findByText('Current Plan')).toBeTruthy();
    expect(within(article('Standard')).getByRole('button', { name: 'Subscribe' })).toBeTruthy();
    expect(screen.getByText(FREE_PLAN_NOTE, { exact: false })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the console' }).getAttribute('href')).toBe('/console');

    // On the data download tab the account pays for Standard: no console message there.
    fireEvent.click(screen.getByRole('tab', { name: 'Data download' }));
    expect(within(article('Standard')).getByText('Current Plan')).toBeTruthy();
    expect(screen.queryByText(FREE_PLAN_NOTE, { exact: false })).toBeNull();
  });

  it('sends a visitor who is not logged in to the login page', async () => {
    const { sent } = fakeApi({ 'GET /api/plans': { data: { plans: PLANS } } });
    const { router } = renderPage(<PricingPage />, { path: '/pricing', routes: { '/login': <h1>Log in</h1> } });
    fireEvent.click(within(await screen.findByRole('article', { name: 'Standard' })).getByRole('button', { name: 'Subscribe' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(sent.some((request) => request.method === 'POST')).toBe(false);
  });

  it("goes to billing's checkout for a paid plan, and shows the success message when the checkout sends the buyer back", async () => {
    const { sent } = fakeApi({
      'GET /api/plans': { data: { plans: PLANS } },
      'GET /api/subscription': currentAnswer('api-free'),
      'POST /api/subscription': {
        data: { checkout_url: 'http://127.0.0.1:9113/checkout/cs_1', order_id: 'ord_1', subscription: null },
      },
    });
    renderPage(<PricingPage />, { path: '/pricing', user: PROFILE });
    await within(await screen.findByRole('article', { name: 'FREE' })).findByText('Current Plan');
    fireEvent.click(within(article('Business')).getByRole('button', { name: 'Subscribe' }));
    await waitFor(() => expect(leavePageFor).toHaveBeenCalledWith('http://127.0.0.1:9113/checkout/cs_1'));
    expect(sent.find((request) => request.method === 'POST')?.body).toEqual({ plan_id: 'api-business-monthly' });
    cleanup();

    fakeApi({
      'GET /api/plans': { data: { plans: PLANS } },
      'GET /api/subscription': currentAnswer('api-business-monthly'),
    });
    renderPage(<PricingPage />, { path: '/pricing?checkout=done&order_id=ord_1&status=paid', user: PROFILE });
    expect((await screen.findByText(/subscribed/)).getAttribute('role')).toBe('status');
    expect(await within(await screen.findByRole('article', { name: 'Business' })).findByText('Current Plan')).toBeTruthy();
    // Exactly one 'Current Plan' on the page: the success message does not repeat the words.
    expect(screen.getAllByText('Current Plan', { exact: false })).toHaveLength(1);
  });

  it('subscribes to FREE at once with a success message, and moves down from a paid plan at the end of the period once confirmed', async () => {
    let downgraded = false;
    const { sent } = fakeApi({
      'GET /api/plans': { data: { plans: PLANS } },
      // After the move is asked for, the subscription names the plan it goes to (billing's scheduled_plan_id).
      'GET /api/subscription': () => {
        const answer = currentAnswer('download-standard-monthly');
        if (downgraded)
          Object.assign(answer.data.plans[0]!.subscription, {
            scheduled_plan_id: 'download-free',
            period_end: '2026-12-26T00:00:00.000Z',
          });
        return answer;
      },
      'POST /api/subscription': {
        msg: 'Subscription successful',
        data: { checkout_url: null, order_id: null, subscription: null },
      },
      'POST /api/subscription/downgrade': () => {
        downgraded = true;
        return {
          data: {
            subscription: {
              id: 'sub_1',
              kind: 'download',
              plan_id: 'download-standard-monthly',
              period_end: '2026-12-26T00:00:00.000Z',
            },
          },
        };
      },
    });
    renderPage(<PricingPage />, { path: '/pricing', user: PROFILE });
    fireEvent.click(within(await screen.findByRole('article', { name: 'FREE' })).getByRole('button', { name: 'Subscribe' }));
    expect(await screen.findByText('Subscription successful: you have subscribed to FREE.')).toBeTruthy();
    expect(leavePageFor).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('tab', { name: 'Data download' }));
    await within(article('Standard')).findByText('Current Plan');
    fireEvent.click(within(article('FREE')).getByRole('button', { name: 'Subscribe' }));
    // Asked once more; "Keep my plan" changes nothing.
    fireEvent.click(await screen.findByRole('button', { name: 'Keep my plan' }));
    expect(screen.queryByRole('button', { name: 'Move to FREE' })).toBeNull();
    fireEvent.click(within(article('FREE')).getByRole('button', { name: 'Subscribe' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Move to FREE' }));
    expect(await screen.findByText(/changes to FREE at the end of the current period \(Dec 26, 2026\)/)).toBeTruthy();
    expect(await within(article('FREE')).findByText('Starts Dec 26, 2026')).toBeTruthy();
    const posts = sent.filter((request) => request.method === 'POST').map((request) => [request.path, request.body]);
    expect(posts).toEqual([
      ['/api/subscription', { plan_id: 'api-free' }],
      ['/api/subscription/downgrade', { plan_id: 'download-free' }],
    ]);
  });
});

describe('plan choice', () => {
  it('picks one plan per tier for the period, falling back to the other period for FREE and sales plans', () => {
    expect(plansShown(PLANS, 'api', 'year').map((entry) => entry.id)).toEqual([
      'api-free',
      'api-standard-yearly',
      'api-business-yearly',
      'api-enterprise-monthly',
    ]);
    expect(plansShown(PLANS, 'download', 'month').map((entry) => entry.id)).toEqual([
      'download-free',
      'download-standard-monthly',
      'download-enterprise-yearly',
    ]);
  });

  it('says how much yearly billing saves at most', () => {
    expect(yearlySaving(PLANS, 'api')).toBe(17);
    expect(yearlySaving(PLANS, 'download')).toBe(0);
  });
});
