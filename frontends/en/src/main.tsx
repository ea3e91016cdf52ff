// Wires the app (store, router, start-up sequence, new-build watch) and mounts it; the pieces live elsewhere.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BUILD_ID } from '@ipdata/web-kit/build-id';
import { watchBuilds } from '@ipdata/web-kit/build-watch';
import { App } from './app.js';
import { createAppRouter } from './routes/router.js';
import { startSession } from './store/session.thunks.js';
import { createStore } from './store/store.js';
import './styles.css';

const store = createStore();
const router = createAppRouter();
// Spec section 4: the start-up sequence (token cookie → profile → unread) runs once, before the first page.
void store.dispatch(startSession());
// A newer build on the server is loaded on the next navigation (spec section 4).
watchBuilds(router, BUILD_ID);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App store={store} router={router} />
  </StrictMode>,
);
