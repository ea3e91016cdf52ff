import { Suspense, lazy, useEffect } from 'react';
import { Navigate, createBrowserRouter, type RouteObject } from 'react-router';
import { DefaultLayout } from '../layouts/default.layout.js';
import { useAppSelector } from '../store/hooks.js';
import { selectSession } from '../store/session.slice.js';
import { NotFoundPage } from '../pages/not-found.page.js';
import { ROUTES, type RouteEntry } from './route-table.js';

/** The page of a route: its title, the login guard, and a loading line while its chunk arrives. */
function RoutePage({ entry }: { entry: RouteEntry & { Page: React.ComponentType } }) {
  const { status } = useAppSelector(selectSession);
  useEffect(() => {
    document.title = `${entry.title} · IP Data`;
  }, [entry.title]);
  if (entry.login && status === 'starting') return <p className="loading">Loading…</p>;
  if (entry.login && status === 'anonymous') return <Navigate to="/" replace />;
  const { Page } = entry;
  return (
    <Suspense fallback={<p className="loading">Loading…</p>}>
      <Page />
    </Suspense>
  );
}

export function buildRoutes(table: readonly RouteEntry[] = ROUTES): RouteObject[] {
  return [
    {
      element: <DefaultLayout />,
      children: [
        ...table.map((entry) => {
          const load = entry.page;
          const Page = lazy(async () => ({ default: await load() }));
          return { path: entry.path, element: <RoutePage entry={{ ...entry, Page }} /> };
        }),
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(buildRoutes());
}
