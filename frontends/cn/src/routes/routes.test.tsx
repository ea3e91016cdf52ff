import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HomePage } from '../pages/home.page.js';
import { renderRoute } from '../test/test-utils.js';
import { ROUTES, type RouteEntry } from './route-table.js';

// Spec section 2, face A routes.
const SPEC_PATHS = [
  '/',
  '/ip',
  '/chaxun',
  '/piliang',
  '/yuming',
  '/asncorrespondence',
  '/asncorrespondence/detail',
  '/datasupport/chinaip',
  '/datasupport/globalip',
  '/idccompany',
  '/ipconvert',
  '/ipv4andlong',
  '/ipv4calculator',
  '/maskconverter',
  '/netmaskinverse',
  '/networkcalculator',
  '/ipreport',
  '/ipreport/detail',
  '/networkdetection',
  '/news',
  '/newsip66/:id',
  '/onlineapi',
  '/tool',
  '/vip',
  '/visualizeip',
];

const page = async () => HomePage;

describe('route table', () => {
  it('lists every face A path of the spec once, with a known layout', () => {
    expect(ROUTES.map((r) => r.path).sort()).toEqual([...SPEC_PATHS].sort());
    for (const route of ROUTES) expect(['default', 'simple']).toContain(route.layout);
  });

  it('gives every spec path a page (one lazily loaded chunk each), rendered in its layout', async () => {
    expect(ROUTES.filter((route) => !route.page).map((route) => route.path)).toEqual([]);
    const pages = await Promise.all(ROUTES.map((route) => route.page!()));
    for (const page of pages) expect(typeof page).toBe('function');
    renderRoute('/ipv4calculator');
    expect(await screen.findByRole('heading', { level: 1, name: 'IPv4 子网计算器' })).toBeTruthy();
    expect(screen.getByRole('navigation', { name: '主导航' })).toBeTruthy();
  });

  it('shows "Page not found: {path}" for an unmatched path', async () => {
    renderRoute('/no/such/page');
    expect(await screen.findByText('Page not found: /no/such/page')).toBeTruthy();
  });

  it('shows the global error page for an unknown middleware name', async () => {
    const table: RouteEntry[] = [{ path: '/', title: 't', layout: 'default', middleware: ['nope'], page }];
    renderRoute('/', { table });
    expect(await screen.findByText('Unknown route middleware: nope')).toBeTruthy();
    expect(screen.getByRole('heading', { name: '页面出错了' })).toBeTruthy();
  });

  it('auth opens the login modal for a visitor who is not logged in, and lets a logged-in one through', async () => {
    const table: RouteEntry[] = [{ path: '/', title: 't', layout: 'simple', middleware: ['auth'], page }];
    const visitor = renderRoute('/', { table });
    expect(await screen.findByText('请先登录后查看此页面')).toBeTruthy();
    await waitFor(() => expect(visitor.store.getState().app.modals.login).toBe(true));
    visitor.unmount();

    const member = renderRoute('/', {
      table,
      state: { user: { user: null, token: 't', channel: '', unread: 0, auth: [] } },
    });
    expect(await screen.findByRole('heading', { name: 'IP 地址查询与网络工具' })).toBeTruthy();
    expect(member.store.getState().app.modals.login).toBe(false);
  });
});
