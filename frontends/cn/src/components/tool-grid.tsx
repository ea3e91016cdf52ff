import { Link } from 'react-router';

interface ToolLink {
  to: string;
  label: string;
  text?: string;
}

/** A grid of links to the site's tools, each with an optional line saying what it does. */
export function ToolGrid({ links }: { links: readonly ToolLink[] }) {
  return (
    <ul className="tool-grid">
      {links.map((link) => (
        <li key={link.to}>
          <Link to={link.to}>{link.label}</Link>
          {link.text && <p>{link.text}</p>}
        </li>
      ))}
    </ul>
  );
}
