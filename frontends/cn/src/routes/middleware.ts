import type { AppDispatch, RootState } from '../store/store.js';
import { modalShown } from '../store/app.slice.js';

/**
 * A route middleware: `allows` decides during render (pure); `deny` is the side effect when it
 * does not allow, run after render (React forbids dispatching while rendering).
 */
export interface RouteMiddleware {
  allows(state: RootState): boolean;
  deny(dispatch: AppDispatch): void;
}

/** `auth`: a visitor who is not logged in gets the login modal instead of the page. */
const auth: RouteMiddleware = {
  allows: (state) => state.user.token !== '',
  deny: (dispatch) => dispatch(modalShown('login')),
};

export const MIDDLEWARE: Readonly<Record<string, RouteMiddleware>> = { auth };

export class UnknownMiddlewareError extends Error {
  constructor(readonly middlewareName: string) {
    super(`Unknown route middleware: ${middlewareName}`);
    this.name = 'UnknownMiddlewareError';
  }
}

/** The middleware of this name; an unknown name is an error (spec section 8), shown by the error page. */
export function resolveMiddleware(name: string): RouteMiddleware {
  const middleware = Object.hasOwn(MIDDLEWARE, name) ? MIDDLEWARE[name] : undefined;
  if (!middleware) throw new UnknownMiddlewareError(name);
  return middleware;
}
