import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { User } from '../api/face-a.types.js';

export interface UserState {
  user: User | null;
  token: string;
  channel: string;
  unread: number;
  auth: string[];
}

export const initialUserState: UserState = { user: null, token: '', channel: '', unread: 0, auth: [] };

export const userSlice = createSlice({
  name: 'user',
  initialState: initialUserState,
  reducers: {
    tokenSet(state, action: PayloadAction<string>) {
      state.token = action.payload;
    },
    /** A signed-in or refreshed user: channel and auth follow the user object. */
    userSet(state, action: PayloadAction<User>) {
      state.user = action.payload;
      state.channel = action.payload.channel;
      state.auth = action.payload.auth;
    },
    unreadSet(state, action: PayloadAction<number>) {
      state.unread = action.payload;
    },
    /** No session at start-up, or the user could not be loaded (spec section 4): token and user cleared. */
    loggedOut() {
      return initialUserState;
    },
    /**
     * Code 506 (spec section 8) or the visitor's logout: token and user cleared, and the store's
     * listener clears the cookie. A plain action, so the base query can dispatch it without
     * importing the thunks (which import the API, which imports the base query).
     */
    silentLogout() {
      return initialUserState;
    },
  },
  selectors: {
    selectUser: (state) => state.user,
    selectToken: (state) => state.token,
    selectIsLoggedIn: (state) => state.token !== '',
    /** Face A shows the phone number as the user name. */
    selectUserName: (state) => state.user?.phone ?? '',
    selectUnread: (state) => state.unread,
  },
});

export const { tokenSet, userSet, unreadSet, loggedOut, silentLogout } = userSlice.actions;
export const { selectUser, selectToken, selectIsLoggedIn, selectUserName, selectUnread } = userSlice.selectors;
