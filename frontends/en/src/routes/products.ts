// The product names, apart from the route table: the route table loads the pages, and the
// pages (products, databases, pricing cards) and the site links name the products, so keeping
// the names here lets both import them without an import cycle through route-table.ts.

/** The three API products and the three databases: one page component each, told which one. */
export const PRODUCTS = ['geolocation', 'privacy', 'asn'] as const;
export type Product = (typeof PRODUCTS)[number];
export const PRODUCT_NAMES: Record<Product, string> = {
  geolocation: 'IP geolocation',
  privacy: 'Privacy detection',
  asn: 'ASN',
};
