import { PRODUCTS, PRODUCT_NAMES } from '../routes/products.js';

export interface SiteLink {
  to: string;
  label: string;
}

/** The three API product pages (header's Products menu, footer). */
export const PRODUCT_LINKS: readonly SiteLink[] = PRODUCTS.map((product) => ({
  to: `/products/${product}`,
  label: `${PRODUCT_NAMES[product]} API`,
}));

/** The three database pages (header's Databases menu, footer). */
export const DATABASE_LINKS: readonly SiteLink[] = PRODUCTS.map((product) => ({
  to: `/databases/${product}`,
  label: `${PRODUCT_NAMES[product]} database`,
}));

/** The main navigation's plain links, after the two menus. */
export const MAIN_LINKS: readonly SiteLink[] = [
  { to: '/pricing', label: 'Pricing' },
  { to: '/docs', label: 'Docs' },
  { to: '/lookup', label: 'IP lookup' },
  { to: '/contact', label: 'Contact' },
];

/** The user centre (UI contract: these names exactly). */
export const USER_CENTRE_LINKS: readonly SiteLink[] = [
  { to: '/console', label: 'Dashboard' },
  { to: '/console/keys', label: 'API keys' },
  { to: '/console/downloads', label: 'Data downloads' },
  { to: '/console/billing', label: 'Billing' },
  { to: '/console/profile', label: 'Profile' },
];
