import { createElement, type ComponentType } from 'react';
import type { Product } from '../../routes/products.js';

/**
 * The route table's page for one product: `Page` with `product` bound, named after both so React's
 * tools tell the products' pages apart.
 */
export function pageForProduct(Page: ComponentType<{ product: Product }>, product: Product, name: string): ComponentType {
  function ProductPage() {
    return createElement(Page, { product });
  }
  ProductPage.displayName = `${name}(${product})`;
  return ProductPage;
}
