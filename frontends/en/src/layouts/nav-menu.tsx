import { useId, useRef, type FocusEvent, type KeyboardEvent } from 'react';
import { NavLink, useLocation } from 'react-router';
import type { SiteLink } from './site-links.js';

interface NavMenuProps {
  label: string;
  links: readonly SiteLink[];
  open: boolean;
  onToggle: (open: boolean) => void;
}

/**
 * A disclosure menu of the main navigation (Products, Databases): a button that shows or hides
 * its list of links. A disclosure rather than an ARIA menu: links stay links, Tab moves through
 * them, Escape closes and returns to the button, and focus leaving the list closes it.
 */
export function NavMenu({ label, links, open, onToggle }: NavMenuProps) {
  const listId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();
  const current = links.some((link) => pathname === link.to);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && open) {
      event.stopPropagation();
      onToggle(false);
      button.current?.focus();
    }
  };
  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    if (open && !event.currentTarget.contains(event.relatedTarget)) onToggle(false);
  };
  return (
    <div className="nav-menu" onKeyDown={onKeyDown} onBlur={onBlur}>
      <button
        ref={button}
        type="button"
        className={current ? 'nav-menu-button active' : 'nav-menu-button'}
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => onToggle(!open)}
      >
        {label}
        <span className="caret" aria-hidden="true" />
      </button>
      <ul id={listId} className="nav-menu-list" hidden={!open}>
        {links.map((link) => (
          <li key={link.to}>
            <NavLink to={link.to} end onClick={() => onToggle(false)}>
              {link.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </div>
  );
}
