import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, PROFILE } from '../test/render.js';
import { initialised, silentLogout, userLoaded } from '../store/session.slice.js';
import { createStore } from '../store/store.js';
import { DefaultLayout } from './default.layout.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderLayout(options: { loggedIn: boolean; path?: string }) {
  fakeApi({ 'POST /api/logout': {} });
  const store = createStore();
  store.dispatch(initialised({ csrf: 'csrf-test-value', freeLookupsPerMonth: 50_000 }));
  store.dispatch(options.loggedIn ? userLoaded(PROFILE) : silentLogout());
  const router = createMemoryRouter([{ element: <DefaultLayout />, children: [{ path: '*', element: <h1>Page</h1> }] }], {
    initialEntries: [options.path ?? '/'],
  });
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return router;
}

const mainNav = () => screen.getByRole('navigation', { name: 'Main' });

describe('default layout', () => {
  it('has the main navigation: Products and Databases menus, Pricing, Docs, IP lookup, Contact', () => {
    renderLayout({ loggedIn: false });
    const nav = mainNav();
    expect(
      within(nav)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Products', 'Databases']);
    // The menus' links are hidden until their menu opens: the four plain links show.
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Pricing', '/pricing'],
      ['Docs', '/docs'],
      ['IP lookup', '/lookup'],
      ['Contact', '/contact'],
    ]);
  });

  it('opens a menu with its button, closes it with Escape (focus back on the button) or by following a link', () => {
    const router = renderLayout({ loggedIn: false });
    const products = within(mainNav()).getByRole('button', { name: 'Products' });
    expect(products.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(products);
    expect(products.getAttribute('aria-expanded')).toBe('true');
    const list = document.getElementById(products.getAttribute('aria-controls')!)!;
    expect(list.hidden).toBe(false);
    const privacy = within(list).getByRole('link', { name: 'Privacy detection API' });
    privacy.focus();
    fireEvent.keyDown(privacy, { key: 'Escape' });
    expect(products.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(products);

    // Only one menu at a time.
    fireEvent.click(products);
    fireEvent.click(within(mainNav()).getByRole('button', { name: 'Databases' }));
    expect(products.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(products);
    fireEvent.click(within(list).getByRole('link', { name: 'ASN API' }));
    expect(router.state.location.pathname).toBe('/products/asn');
    expect(products.getAttribute('aria-expanded')).toBe('false');
  });

  it('folds the navigation behind the Menu button on phones; Escape closes it and returns to the button', () => {
    renderLayout({ loggedIn: false });
    const menu = screen.getByRole('button', { name: 'Menu' });
    const panel = document.getElementById(menu.getAttribute('aria-controls')!)!;
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    expect(panel.className).not.toContain('open');
    fireEvent.click(menu);
    expect(menu.getAttribute('aria-expanded')).toBe('true');
    expect(panel.className).toContain('open');
    fireEvent.keyDown(within(panel).getByRole('link', { name: 'Pricing' }), { key: 'Escape' });
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(menu);
  });

  it('shows Log in and Sign up free to a visitor, and no user centre', () => {
    renderLayout({ loggedIn: false });
    const header = screen.getByRole('banner');
    expect(within(header).getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/login');
    expect(within(header).getByRole('link', { name: 'Sign up free' }).getAttribute('href')).toBe('/signup');
    expect(screen.queryByRole('navigation', { name: 'User centre' })).toBeNull();
  });

  it("shows a logged-in user's email, the console, Log out and the user centre's five links", () => {
    renderLayout({ loggedIn: true, path: '/console/keys' });
    const header = screen.getByRole('banner');
    expect(header.querySelector('[data-user-name]')!.textContent).toBe(PROFILE.email);
    expect(within(header).getByRole('link', { name: 'Console' }).getAttribute('href')).toBe('/console');
    expect(within(header).getByRole('button', { name: 'Log out' })).toBeTruthy();
    const centre = screen.getByRole('navigation', { name: 'User centre' });
    expect(
      within(centre)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Dashboard', '/console'],
      ['API keys', '/console/keys'],
      ['Data downloads', '/console/downloads'],
      ['Billing', '/console/billing'],
      ['Profile', '/console/profile'],
    ]);
    expect(within(centre).getByRole('link', { name: 'API keys' }).getAttribute('aria-current')).toBe('page');
  });

  it('links every public page from the footer', () => {
    renderLayout({ loggedIn: false });
    const footer = screen.getByRole('navigation', { name: 'Footer' });
    const hrefs = within(footer)
      .getAllByRole('link')
      .map((link) => link.getAttribute('href'));
    for (const path of [
      '/products/geolocation',
      '/products/privacy',
      '/products/asn',
      '/databases/geolocation',
      '/databases/privacy',
      '/databases/asn',
      '/pricing',
      '/docs',
      '/lookup',
      '/contact',
    ])
      expect(hrefs).toContain(path);
  });
});
