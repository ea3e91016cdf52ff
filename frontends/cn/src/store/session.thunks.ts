import type { Dispatch } from '@reduxjs/toolkit';
import { faceAApi } from '../api/face-a.api.js';
import type { SignedIn } from '../api/face-a.types.js';
import type { AppDispatch } from './store.js';
import { readTokenCookie, writeTokenCookie } from './token-cookie.js';
import { initDataSet, ipSelfSet } from './app.slice.js';
import { loggedOut, silentLogout, tokenSet, unreadSet, userSet } from './user.slice.js';

/** Where a full logout goes afterwards: the main site's sign-out link (spec section 4). */
export const SIGN_OUT_PATH = '/';

/** The visitor's logout: the silent logout (user.slice.ts), then through the sign-out link. */
export function logout(navigate: (href: string) => void = (href) => window.location.assign(href)) {
  return (dispatch: Dispatch): void => {
    dispatch(silentLogout());
    navigate(SIGN_OUT_PATH);
  };
}

/**
 * The user's info after a token is known (spec section 4): a failed fetch clears token and user;
 * a fetched user is saved, then the unread count, which is 0 when it could not be had.
 */
export function loadUser() {
  return async (dispatch: AppDispatch): Promise<boolean> => {
    const info = await dispatch(faceAApi.endpoints.userInfo.initiate(undefined, { forceRefetch: true, subscribe: false }));
    if (!info.data) {
      // A 506 already logged out silently (base query); any other failure ends the login the same way.
      dispatch(loggedOut());
      return false;
    }
    dispatch(userSet(info.data.user));
    dispatch(unreadSet(info.data.unread ?? 0));
    return true;
  };
}

/**
 * Application start (spec section 4): no `token` cookie → token and user cleared; a cookie → the
 * token stored and the user loaded. The site's own data (web_init, the visitor's address) is
 * fetched alongside and does not wait for the user.
 */
export function startSession(cookie?: string) {
  return async (dispatch: AppDispatch): Promise<void> => {
    void dispatch(faceAApi.endpoints.webInit.initiate(undefined, { subscribe: false })).then((init) => {
      if (init.data) dispatch(initDataSet(init.data));
    });
    void dispatch(faceAApi.endpoints.ipSelfSearch.initiate(undefined, { subscribe: false })).then((self) => {
      if (self.data) dispatch(ipSelfSet(self.data));
    });
    const token = readTokenCookie(cookie);
    if (!token) {
      dispatch(loggedOut());
      return;
    }
    dispatch(tokenSet(token));
    await dispatch(loadUser());
  };
}

/** A login or registration answer: cookie, token, user, then the unread count as at start-up. */
export function signedIn(answer: SignedIn) {
  return async (dispatch: AppDispatch): Promise<void> => {
    writeTokenCookie(answer.token, answer.expires_at);
    dispatch(tokenSet(answer.token));
    dispatch(userSet(answer.user));
    await dispatch(loadUser());
  };
}
