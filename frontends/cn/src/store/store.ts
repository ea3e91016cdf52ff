import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { faceAApi } from '../api/face-a.api.js';
import { appSlice } from './app.slice.js';
import { toastSlice } from '@ipdata/web-kit/toast';
import { userSlice } from './user.slice.js';

const rootReducer = combineSlices(userSlice, appSlice, toastSlice, faceAApi);

export type RootState = ReturnType<typeof rootReducer>;

/** A fresh store (one per app start, one per test). */
export function createStore(preloadedState?: Partial<RootState>) {
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) => getDefault().concat(faceAApi.middleware),
  });
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof createStore>;
export type AppDispatch = AppStore['dispatch'];
