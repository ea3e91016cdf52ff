import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Profile } from '../api/web-api.types.js';

/**
 * The visitor (spec section 3): the user, its `payService` as a list, the unread count, and the
 * CSRF value the app echoes. The session token itself is an HttpOnly cookie the app never reads:
 * `status` says what the start-up sequence found.
 */
export interface SessionState {
  status: 'starting' | 'anonymous' | 'loggedIn';
  user: Profile | null;
  payService: string[];
  unread: number;
  csrf: string;
  freeLookupsPerMonth: number;
}

/** The spec: payService arrives as a comma-separated string and becomes a list (empty when absent). */
export function payServiceList(value: string | null | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

const initialState: SessionState = {
  status: 'starting',
  user: null,
  payService: [],
  unread: 0,
  csrf: '',
  freeLookupsPerMonth: 50_000,
};

export const sessionSlice = createSlice({
  name: 'session',
  initialState,
  reducers: {
    initialised(state, action: PayloadAction<{ csrf: string; freeLookupsPerMonth: number }>) {
      state.csrf = action.payload.csrf;
      state.freeLookupsPerMonth = action.payload.freeLookupsPerMonth;
    },
    userLoaded(state, action: PayloadAction<Profile>) {
      state.status = 'loggedIn';
      state.user = action.payload;
      state.payService = payServiceList(action.payload.payService);
    },
    unreadLoaded(state, action: PayloadAction<number>) {
      state.unread = action.payload;
    },
    /** Logout, a failed profile fetch, or code 506 (silent logout): user and session gone. */
    silentLogout(state) {
      state.status = 'anonymous';
      state.user = null;
      state.payService = [];
      state.unread = 0;
    },
  },
  selectors: {
    selectSession: (state) => state,
    selectUser: (state) => state.user,
    selectLoggedIn: (state) => state.status === 'loggedIn',
  },
});

export const { initialised, userLoaded, unreadLoaded, silentLogout } = sessionSlice.actions;
export const { selectSession, selectUser, selectLoggedIn } = sessionSlice.selectors;
