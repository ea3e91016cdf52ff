import type { ComponentType } from 'react';
import { PRODUCTS, PRODUCT_NAMES } from './products.js';

export interface RouteEntry {
  path: string;
  /** The document title (and the page's h1 unless the page says otherwise). */
  title: string;
  /** The page, loaded when first visited: one chunk per route. */
  page: () => Promise<ComponentType>;
  /** User-centre routes: a visitor who is not logged in is sent to the root path (spec section 2). */
  login?: true;
}

const page =
  <M>(load: () => Promise<M>, pick: (module: M) => ComponentType) =>
  async () =>
    pick(await load());

/** Face B's screens (spec section 2). */
export const ROUTES: readonly RouteEntry[] = [
  {
    path: '/',
    title: 'IP geolocation API and IP databases',
    page: page(
      () => import('../pages/home.page.js'),
      (m) => m.HomePage,
    ),
  },
  ...PRODUCTS.map((product): RouteEntry => ({
    path: `/products/${product}`,
    title: `${PRODUCT_NAMES[product]} API`,
    page: page(
      () => import('../pages/products/api-product.page.js'),
      (m) => m.apiProductPage(product),
    ),
  })),
  ...PRODUCTS.map((product): RouteEntry => ({
    path: `/databases/${product}`,
    title: `${PRODUCT_NAMES[product]} database`,
    page: page(
      () => import('../pages/products/database.page.js'),
      (m) => m.databasePage(product),
    ),
  })),
  {
    path: '/lookup',
    title: 'IP lookup',
    page: page(
      () => import('../pages/lookup.page.js'),
      (m) => m.LookupPage,
    ),
  },
  {
    path: '/pricing',
    title: 'Pricing',
    page: page(
      () => import('../pages/pricing.page.js'),
      (m) => m.PricingPage,
    ),
  },
  {
    path: '/docs',
    title: 'Documentation',
    page: page(
      () => import('../pages/docs/docs.page.js'),
      (m) => m.DocsPage,
    ),
  },
  {
    path: '/contact',
    title: 'Contact us',
    page: page(
      () => import('../pages/contact.page.js'),
      (m) => m.ContactPage,
    ),
  },
  {
    path: '/login',
    title: 'Log in',
    page: page(
      () => import('../pages/login.page.js'),
      (m) => m.LoginPage,
    ),
  },
  {
    path: '/signup',
    title: 'Sign up',
    page: page(
      () => import('../pages/signup.page.js'),
      (m) => m.SignUpPage,
    ),
  },
  {
    // The link in the confirmation mail (auth's PUBLIC_BASE_URL + /confirm-email?token=...).
    path: '/confirm-email',
    title: 'Confirm your email',
    page: page(
      () => import('../pages/confirm-email.page.js'),
      (m) => m.ConfirmEmailPage,
    ),
  },
  {
    path: '/forgot-password',
    title: 'Forgot password',
    page: page(
      () => import('../pages/password-reset.page.js'),
      (m) => m.ForgotPasswordPage,
    ),
  },
  {
    // The link in the reset mail (auth's PUBLIC_BASE_URL + /reset-password?token=...).
    path: '/reset-password',
    title: 'Choose a new password',
    page: page(
      () => import('../pages/password-reset.page.js'),
      (m) => m.ResetPasswordPage,
    ),
  },
  {
    path: '/console',
    title: 'Dashboard',
    login: true,
    page: page(
      () => import('../pages/console/dashboard.page.js'),
      (m) => m.DashboardPage,
    ),
  },
  {
    path: '/console/keys',
    title: 'API keys',
    login: true,
    page: page(
      () => import('../pages/console/keys.page.js'),
      (m) => m.KeysPage,
    ),
  },
  {
    path: '/console/downloads',
    title: 'Data downloads',
    login: true,
    page: page(
      () => import('../pages/console/downloads.page.js'),
      (m) => m.DownloadsPage,
    ),
  },
  {
    path: '/console/billing',
    title: 'Billing',
    login: true,
    page: page(
      () => import('../pages/console/billing.page.js'),
      (m) => m.BillingPage,
    ),
  },
  {
    path: '/console/profile',
    title: 'Profile',
    login: true,
    page: page(
      () => import('../pages/console/profile.page.js'),
      (m) => m.ProfilePage,
    ),
  },
];
