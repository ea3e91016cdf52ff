import { Link, Outlet } from 'react-router';
import { SITE_NAME } from '../routes/route-page.js';

/** The simple layout: a slim header and the page, no navigation or footer. */
export function SimpleLayout() {
  return (
    <div className="layout layout-simple">
      <header className="site-header">
        <Link to="/" className="brand">
          {SITE_NAME}
        </Link>
      </header>
      <main id="main" className="site-main">
        <Outlet />
      </main>
    </div>
  );
}
