import { webApi } from '../api/web.api.js';
import type { Profile } from '../api/web-api.types.js';
import { initialised, silentLogout, unreadLoaded, userLoaded } from './session.slice.js';
import type { AppDispatch } from './store.js';

/**
 * The start-up sequence (spec section 4). The `token` cookie is HttpOnly, so the app cannot look
 * at it: /api/init says whether the request carried one (and hands out the CSRF value).
 * - No token cookie: token and user are cleared (silentLogout), nothing else is asked.
 * - A token cookie: the user is fetched (the server keeps the token; the app never holds it).
 *   That fetch failing clears token and user without a word; succeeding saves the user and
 *   fetches the unread count, which is 0 when that fails.
 * When /api/init itself fails the app cannot know about the cookie, so it asks for the profile
 * anyway: a visitor without a session gets 401 there and is cleared the same way.
 * Every call is silent: nothing of this shows a toast.
 */
export function startSession() {
  return async (dispatch: AppDispatch): Promise<void> => {
    const init = await dispatch(webApi.endpoints.init.initiate(undefined, { subscribe: false }));
    if (init.data) {
      dispatch(initialised({ csrf: init.data.csrf_token, freeLookupsPerMonth: init.data.free_lookups_per_month }));
      if (!init.data.logged_in) {
        dispatch(silentLogout());
        return;
      }
    }
    await dispatch(loadUser());
  };
}

/** The user, then the unread count (start-up with a token cookie). */
export function loadUser() {
  return async (dispatch: AppDispatch): Promise<boolean> => {
    const profile = await dispatch(webApi.endpoints.profile.initiate(undefined, { subscribe: false, forceRefetch: true }));
    if (!profile.data) {
      dispatch(silentLogout());
      return false;
    }
    await dispatch(userArrived(profile.data));
    return true;
  };
}

/**
 * A user is known (start-up, or the login's answer): saved, answers cached for the visitor before
 * (the downloads catalogue's `entitled`, ...) refetched for the account, then the unread count.
 */
export function userArrived(user: Profile) {
  return async (dispatch: AppDispatch): Promise<void> => {
    dispatch(userLoaded(user));
    dispatch(webApi.util.invalidateTags(['Account']));
    const unread = await dispatch(webApi.endpoints.unread.initiate(undefined, { subscribe: false, forceRefetch: true }));
    dispatch(unreadLoaded(unread.data?.unread ?? 0));
  };
}

/**
 * Logout (spec section 4): the server ends the session and clears the cookie; the app clears the
 * user and everything cached for it (store.ts) and goes to the root path. The user is forgotten
 * even when the server cannot be reached: the cookie then ends with its own lifetime.
 */
export function logOut(navigate: (path: string) => void) {
  return async (dispatch: AppDispatch): Promise<void> => {
    await dispatch(webApi.endpoints.logOut.initiate());
    dispatch(silentLogout());
    navigate('/');
  };
}
