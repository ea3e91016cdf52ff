import { isRouteErrorResponse, Link, useLocation, useRouteError } from 'react-router';
import { NOT_FOUND_MESSAGE } from './route-table.js';

/** The 404 page: 'Page not found: {path}' (issue 16, spec section 2). */
export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <section className="page error-page" role="alert">
      <h1>404</h1>
      <p>{NOT_FOUND_MESSAGE(pathname)}</p>
      <Link to="/">返回首页</Link>
    </section>
  );
}

/** The global error page: any error thrown while routing or rendering (spec section 8). */
export function ErrorPage() {
  const error = useRouteError();
  const { pathname } = useLocation();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <section className="page error-page" role="alert">
      <h1>页面出错了</h1>
      <p>{message}</p>
      <p className="muted">{pathname}</p>
      <a href="/">返回首页</a>
    </section>
  );
}
