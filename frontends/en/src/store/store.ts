import { combineReducers, configureStore, createListenerMiddleware } from '@reduxjs/toolkit';
import { toastSlice } from '@ipdata/web-kit/toast';
import { webApi } from '../api/web.api.js';
import { sessionSlice, silentLogout } from './session.slice.js';
import { forgetTryKey } from './try-key.js';

const rootReducer = combineReducers({
  [sessionSlice.reducerPath]: sessionSlice.reducer,
  [toastSlice.reducerPath]: toastSlice.reducer,
  [webApi.reducerPath]: webApi.reducer,
});

export type RootState = ReturnType<typeof rootReducer>;

/**
 * Every way out of a session (the Log out button, code 506, a 401 on a session call, a failed
 * profile at start-up) is a `silentLogout`: here the rest is forgotten with it — the key the
 * docs page would try, and, when someone was logged in, every cached answer of that account
 * (keys, usage, invoices), so the next visitor of this browser sees none of them.
 */
function sessionEndListener() {
  const listener = createListenerMiddleware<RootState>();
  listener.startListening({
    actionCreator: silentLogout,
    effect: (_action, api) => {
      forgetTryKey();
      if (api.getOriginalState().session.status === 'loggedIn') api.dispatch(webApi.util.resetApiState());
    },
  });
  return listener.middleware;
}

export function createStore(preloaded?: Partial<RootState>) {
  return configureStore({
    reducer: rootReducer,
    ...(preloaded ? { preloadedState: preloaded as RootState } : {}),
    middleware: (getDefault) => getDefault().prepend(sessionEndListener()).concat(webApi.middleware),
  });
}

export type AppStore = ReturnType<typeof createStore>;
export type AppDispatch = AppStore['dispatch'];
