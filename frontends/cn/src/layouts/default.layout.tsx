import { Link, NavLink, Outlet } from 'react-router';
import { SITE_NAME } from '../routes/route-page.js';
import { NAV_LINKS } from './nav-links.js';
import { FooterLinks } from './footer-links.js';
import { UserMenu } from './user-menu.js';

/** The default layout: header with navigation, the page, footer. */
export function DefaultLayout() {
  return (
    <div className="layout">
      <a className="skip-link" href="#main">
        跳到正文
      </a>
      <header className="site-header">
        <Link to="/" className="brand">
          {SITE_NAME}
        </Link>
        <nav aria-label="主导航">
          <ul>
            {NAV_LINKS.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end>
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <UserMenu />
      </header>
      <main id="main" className="site-main">
        <Outlet />
      </main>
      <footer className="site-footer">
        <FooterLinks />
        <p>
          © {new Date().getFullYear()} {SITE_NAME}
        </p>
      </footer>
    </div>
  );
}
