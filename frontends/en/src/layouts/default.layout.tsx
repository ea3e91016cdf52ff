import { useRef, useState, type KeyboardEvent } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../store/hooks.js';
import { selectSession } from '../store/session.slice.js';
import { logOut } from '../store/session.thunks.js';
import { NavMenu } from './nav-menu.js';
import { DATABASE_LINKS, MAIN_LINKS, PRODUCT_LINKS, USER_CENTRE_LINKS } from './site-links.js';
import { SiteFooter } from './site-footer.js';

type OpenMenu = 'products' | 'databases' | null;

/** The header's account corner (UI contract): log in / sign up, or the user, the console and log out. */
function AccountLinks() {
  const session = useAppSelector(selectSession);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  if (session.status === 'starting') return <div className="account" />;
  if (session.status === 'anonymous') {
    return (
      <div className="account">
        <Link to="/login">Log in</Link>
        <Link className="button primary" to="/signup">
          Sign up free
        </Link>
      </div>
    );
  }
  return (
    <div className="account">
      <span className="user-name" data-user-name title={session.user?.email}>
        {session.user?.email}
      </span>
      <Link to="/console">Console</Link>
      <button type="button" className="link-button" onClick={() => void dispatch(logOut((path) => void navigate(path)))}>
        Log out
      </button>
    </div>
  );
}

/**
 * Every page's frame: the header with the main navigation (Products and Databases menus, Pricing,
 * Docs, IP lookup, Contact) and the account corner, the user centre's navigation when logged in,
 * the page, the footer. On phones the navigation and the account corner fold behind a Menu button
 * (in the same order as on a desktop, so the focus order follows what is seen).
 */
export function DefaultLayout() {
  const session = useAppSelector(selectSession);
  const { pathname } = useLocation();
  const [phoneMenu, setPhoneMenu] = useState(false);
  const [openMenu, setOpenMenu] = useState<OpenMenu>(null);
  const menuButton = useRef<HTMLButtonElement>(null);

  // A new page (a link, Back) closes whatever was open: adjusted while rendering, not in an effect.
  const [shownPath, setShownPath] = useState(pathname);
  if (shownPath !== pathname) {
    setShownPath(pathname);
    setPhoneMenu(false);
    setOpenMenu(null);
  }

  const toggle = (menu: Exclude<OpenMenu, null>) => (open: boolean) => setOpenMenu(open ? menu : null);
  const closePhoneMenu = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && phoneMenu) {
      setPhoneMenu(false);
      menuButton.current?.focus();
    }
  };

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <div className="header-bar">
          <Link to="/" className="brand">
            IP<span>Data</span>
            <span className="visually-hidden"> home</span>
          </Link>
          <button
            ref={menuButton}
            type="button"
            className="menu-toggle"
            aria-expanded={phoneMenu}
            aria-controls="site-menu"
            onClick={() => setPhoneMenu(!phoneMenu)}
          >
            <span className="menu-icon" aria-hidden="true" />
            Menu
          </button>
          <div id="site-menu" className={phoneMenu ? 'site-menu open' : 'site-menu'} onKeyDown={closePhoneMenu}>
            <nav aria-label="Main">
              <ul className="main-nav">
                <li>
                  <NavMenu label="Products" links={PRODUCT_LINKS} open={openMenu === 'products'} onToggle={toggle('products')} />
                </li>
                <li>
                  <NavMenu
                    label="Databases"
                    links={DATABASE_LINKS}
                    open={openMenu === 'databases'}
                    onToggle={toggle('databases')}
                  />
                </li>
                {MAIN_LINKS.map((link) => (
                  <li key={link.to}>
                    <NavLink to={link.to}>{link.label}</NavLink>
                  </li>
                ))}
              </ul>
            </nav>
            <AccountLinks />
          </div>
        </div>
      </header>
      {/* Also while the start-up sequence runs on a user-centre page: the bar is there before the
          profile answers, so the page does not move down when it does (Lighthouse CLS); a
          visitor who turns out not to be logged in leaves for the root path anyway. */}
      {(session.status === 'loggedIn' || (session.status === 'starting' && pathname.startsWith('/console'))) && (
        <nav className="console-nav" aria-label="User centre">
          <ul>
            {USER_CENTRE_LINKS.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end>
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      )}
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <SiteFooter />
    </>
  );
}
