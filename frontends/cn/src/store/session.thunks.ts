import type { Dispatch } from '@reduxjs/toolkit';
import { clearTokenCookie } from './token-cookie.js';
import { loggedOut } from './user.slice.js';

/** Where a full logout goes afterwards: the main site's sign-out link (spec section 4). */
export const SIGN_OUT_PATH = '/';

/** Code 506 (spec section 8): the login is invalid; clear cookie, token and user, no toast, no redirect. */
export function silentLogout() {
  return (dispatch: Dispatch): void => {
    clearTokenCookie();
    dispatch(loggedOut());
  };
}

/** The visitor's logout: the silent logout, then through the sign-out link. */
export function logout(navigate: (href: string) => void = (href) => window.location.assign(href)) {
  return (dispatch: Dispatch): void => {
    clearTokenCookie();
    dispatch(loggedOut());
    navigate(SIGN_OUT_PATH);
  };
}
