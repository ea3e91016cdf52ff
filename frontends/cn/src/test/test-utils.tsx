import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { ToastStack } from '@ipdata/web-kit/toast-stack';
import { buildRoutes } from '../routes/router.js';
import type { RouteEntry } from '../routes/route-table.js';
import { createStore, type RootState } from '../store/store.js';

/** Renders the app's routes at `path` with a fresh store (one per test). */
export function renderRoute(path: string, options: { table?: readonly RouteEntry[]; state?: Partial<RootState> } = {}) {
  const store = createStore(options.state);
  const router = createMemoryRouter(buildRoutes(options.table), { initialEntries: [path] });
  const view = render(
    <Provider store={store}>
      <RouterProvider router={router} />
      <ToastStack />
    </Provider>,
  );
  return { store, router, ...view };
}

export { baseQueryApi } from '@ipdata/web-kit/testing';
