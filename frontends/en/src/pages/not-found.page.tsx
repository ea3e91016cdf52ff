import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';

/** Spec sections 2 and 8: the 404 text, the missing path, and a way back home. */
export function NotFoundPage() {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = 'Page not found · IP Data';
  }, []);
  return (
    <section className="not-found">
      <p className="not-found-code" aria-hidden="true">
        404
      </p>
      <h1>Sorry, the page you visited does not exist</h1>
      <p className="not-found-path">
        Page Not Found: <code>{pathname}</code>
      </p>
      <Link className="button primary large" to="/">
        Back to home
      </Link>
    </section>
  );
}
