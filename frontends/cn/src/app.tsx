import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router';
import { ToastStack } from '@ipdata/web-kit/toast-stack';
import { ModalHost } from './modals/modal-host.js';
import type { createAppRouter } from './routes/router.js';
import type { AppStore } from './store/store.js';

interface AppProps {
  store: AppStore;
  router: ReturnType<typeof createAppRouter>;
}

export function App({ store, router }: AppProps) {
  return (
    <Provider store={store}>
      <RouterProvider router={router} />
      <ModalHost />
      <ToastStack />
    </Provider>
  );
}
