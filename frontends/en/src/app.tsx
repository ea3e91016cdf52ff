import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router';
import { ToastStack } from '@ipdata/web-kit/toast-stack';
import type { createAppRouter } from './routes/router.js';
import type { AppStore } from './store/store.js';

export function App({ store, router }: { store: AppStore; router: ReturnType<typeof createAppRouter> }) {
  return (
    <Provider store={store}>
      <RouterProvider router={router} />
      <ToastStack />
    </Provider>
  );
}
