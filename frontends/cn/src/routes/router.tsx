import { lazy, type ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { DefaultLayout } from '../layouts/default.layout.js';
import { SimpleLayout } from '../layouts/simple.layout.js';
import { ErrorPage, NotFoundPage } from './error.page.js';
import { RoutePage } from './route-page.js';
import { ROUTES, type LayoutName, type RouteEntry } from './route-table.js';

const LAYOUTS: Record<LayoutName, ComponentType> = { default: DefaultLayout, simple: SimpleLayout };

/**
 * The router's routes from the table: one layout route per layout, each page lazy (its own chunk),
 * the 404 page for every other path, the error page for anything thrown.
 */
export function buildRoutes(table: readonly RouteEntry[] = ROUTES): RouteObject[] {
  const built = table.filter((entry) => entry.page !== undefined);
  const byLayout = (name: LayoutName): RouteObject[] =>
    built
      .filter((entry) => entry.layout === name)
      .map((entry) => {
        const load = entry.page!;
        const Page = lazy(async () => ({ default: await load() }));
        return { path: entry.path, element: <RoutePage entry={entry} Page={Page} />, errorElement: <ErrorPage /> };
      });
  const Default = LAYOUTS.default;
  const Simple = LAYOUTS.simple;
  return [
    {
      errorElement: <ErrorPage />,
      children: [
        {
          element: <Default />,
          errorElement: <ErrorPage />,
          children: [...byLayout('default'), { path: '*', element: <NotFoundPage /> }],
        },
        { element: <Simple />, errorElement: <ErrorPage />, children: byLayout('simple') },
      ],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(buildRoutes());
}
