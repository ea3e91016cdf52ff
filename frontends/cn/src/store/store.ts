import { combineSlices, configureStore, createListenerMiddleware } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { faceAApi } from '../api/face-a.api.js';
import { appSlice } from './app.slice.js';
import { toastSlice } from '@ipdata/web-kit/toast';
import { clearTokenCookie } from './token-cookie.js';
import { silentLogout, userSlice } from './user.slice.js';

const rootReducer = combineSlices(userSlice, appSlice, toastSlice, faceAApi);

export type RootState = ReturnType<typeof rootReducer>;

/**
 * A `silentLogout` (code 506 from the base query, or the Log out button) also forgets the
 * `token` cookie, so the next start-up does not sign the visitor in again. The slice cannot do
 * it (reducers stay pure) and the base query dispatches the plain action, so it happens here.
 */
function sessionEndListener() {
  const listener = createListenerMiddleware<RootState>();
  listener.startListening({
    actionCreator: silentLogout,
    effect: () => clearTokenCookie(),
  });
  return listener.middleware;
}

/** A fresh store (one per app start, one per test). */
export function createStore(preloadedState?: Partial<RootState>) {
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) => getDefault().prepend(sessionEndListener()).concat(faceAApi.middleware),
  });
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof createStore>;
export type AppDispatch = AppStore['dispatch'];
