import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router';
import { ToastStack } from './components/toast-stack.js';
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
      <ToastStack />
    </Provider>
  );
}
