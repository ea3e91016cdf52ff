import { Link } from 'react-router';
import { useAppSelector } from '../store/hooks.js';
import { selectSession } from '../store/session.slice.js';
import { DATABASE_LINKS, PRODUCT_LINKS, type SiteLink } from './site-links.js';

const COMPANY_LINKS: readonly SiteLink[] = [
  { to: '/pricing', label: 'Pricing' },
  { to: '/docs', label: 'Documentation' },
  { to: '/lookup', label: 'IP lookup' },
  { to: '/contact', label: 'Contact us' },
];

function LinkColumn({ title, links }: { title: string; links: readonly SiteLink[] }) {
  return (
    <div className="footer-column">
      <h2>{title}</h2>
      <ul>
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to}>{link.label}</Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Links to every public page, and the free tier (from the plan catalogue, via /api/init). */
export function SiteFooter() {
  const { freeLookupsPerMonth } = useAppSelector(selectSession);
  return (
    <footer className="site-footer">
      <nav className="footer-columns" aria-label="Footer">
        <LinkColumn title="APIs" links={PRODUCT_LINKS} />
        <LinkColumn title="Databases" links={DATABASE_LINKS} />
        <LinkColumn title="Company" links={COMPANY_LINKS} />
      </nav>
      <p className="footer-note">
        © {new Date().getFullYear()} IP Data · {freeLookupsPerMonth.toLocaleString('en-US')} free lookups every month, no credit
        card
      </p>
    </footer>
  );
}
