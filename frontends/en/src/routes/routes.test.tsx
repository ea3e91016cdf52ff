import { render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createStore } from '../store/store.js';
import { silentLogout } from '../store/session.slice.js';
import { buildRoutes } from './router.js';

function renderAt(path: string, loggedOut = true) {
  const store = createStore();
  if (loggedOut) store.dispatch(silentLogout());
  const router = createMemoryRouter(buildRoutes(), { initialEntries: [path] });
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return router;
}

describe('routes', () => {
  it('shows the 404 text and a way home for an unknown path', async () => {
    renderAt('/no-such-page');
    expect(await screen.findByText('Sorry, the page you visited does not exist')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to home' }).getAttribute('href')).toBe('/');
  });

  it('sends a visitor who is not logged in from a user-centre page to the root path', async () => {
    const router = renderAt('/console/keys');
    expect(await screen.findByRole('heading', { name: /IP geolocation, privacy and ASN data/ })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
  });

  it('waits for the start-up sequence before deciding', () => {
    const router = renderAt('/console', false);
    expect(screen.getByText('Loading…')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/console');
  });
});
