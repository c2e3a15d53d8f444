import { Clock, Mail, Menu, MessageCircle, Phone, UserRound, X } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { WHATSAPP_GREETING, whatsappLink } from '@forgeline/site-config/whatsapp';
import { phoneHref, site } from '../../../config/site.ts';
import { HydrateLater } from '../../../components/ui/hydrate-later.tsx';
import { cn } from '../../../lib/cn.ts';
import { QuoteListLink } from '../../quote-list/components/quote-list-link.tsx';
import { BrandMark } from './brand-mark.tsx';

const NAV = [
  { to: '/', desktop: 'HOME', mobile: 'HOME', end: true },
  { to: '/categories', desktop: 'PARTS', mobile: 'CATEGORIES', end: false },
  { to: '/catalog', desktop: 'CATALOG', mobile: 'CATALOG', end: false },
  { to: '/about', desktop: 'ABOUT', mobile: 'ABOUT', end: false },
  { to: '/contact', desktop: 'CONTACT', mobile: 'CONTACT', end: false },
] as const;

/** Site header: contact strip, logo, search, Chat Now, desktop nav and the phone menu (spec section 2). */
export function Header({ renderSearch }: { renderSearch: (variant: 'desktop' | 'mobile') => ReactNode }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  const chat = whatsappLink(WHATSAPP_GREETING, site.whatsappNumber);

  // The phone menu closes whenever the route changes.
  const route = location.pathname + location.search;
  const [menuRoute, setMenuRoute] = useState(route);
  if (menuRoute !== route) {
    setMenuRoute(route);
    setMenuOpen(false);
  }

  return (
    <header className="sticky top-0 z-40 bg-ink text-white shadow-lg">
      {/* The search is hydrated first; what surrounds it after (HydrateLater). */}
      <div className="hidden border-b border-ink-line text-xs text-zinc-300 md:block">
        <HydrateLater>
          <div className="container-page flex h-9 items-center justify-between gap-6">
            <div className="flex items-center gap-5">
              <a href={phoneHref} className="inline-flex items-center gap-1.5 hover:text-safety">
                <Phone className="size-3.5" aria-hidden="true" /> {site.phone}
              </a>
              <a href={`mailto:${site.email}`} className="inline-flex items-center gap-1.5 hover:text-safety">
                <Mail className="size-3.5" aria-hidden="true" /> {site.email}
              </a>
            </div>
            <span className="inline-flex items-center gap-1.5">
              <Clock className="size-3.5" aria-hidden="true" /> {site.businessHours}
            </span>
          </div>
        </HydrateLater>
      </div>

      <div className="container-page flex h-16 items-center gap-3 sm:gap-4 lg:h-20 lg:gap-8">
        <HydrateLater>
          <BrandMark />
        </HydrateLater>
        <div className="hidden flex-1 md:block">{renderSearch('desktop')}</div>
        <div className="ml-auto flex items-center gap-1.5 sm:gap-2 md:ml-0">
          <HydrateLater>
            <QuoteListLink />
            <Link
              to="/account"
              aria-label="Your account"
              className="hidden h-9 items-center gap-2 rounded-md border border-ink-line px-2 text-sm font-bold text-white hover:bg-ink-soft sm:inline-flex sm:h-10 sm:px-3"
            >
              <UserRound className="size-5 sm:size-4" aria-hidden="true" />
              <span className="hidden lg:inline">Account</span>
            </Link>
            <a
              href={chat}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex h-9 items-center gap-2 rounded-md bg-safety px-2 text-sm sm:h-10 sm:px-4 font-bold text-ink hover:bg-safety-hover"
            >
              <MessageCircle className="size-5 sm:size-4" aria-hidden="true" />
              <span className="sr-only sm:not-sr-only">Chat Now</span>
            </a>
            {/* A link to the footer's page links until the app runs (server HTML, no JavaScript); then it toggles the menu. */}
            <a
              href="#site-links"
              role="button"
              className="grid size-9 place-items-center rounded-md border sm:size-10 border-ink-line text-white hover:bg-ink-soft md:hidden"
              aria-label={menuOpen ? 'Close menu' : 'Open menu'}
              aria-expanded={menuOpen}
              aria-controls="mobile-menu"
              onClick={(e) => {
                e.preventDefault();
                setMenuOpen((o) => !o);
              }}
              // A button answers Space as well as Enter (a link only answers Enter).
              onKeyDown={(e) => {
                if (e.key !== ' ') return;
                e.preventDefault();
                setMenuOpen((o) => !o);
              }}
            >
              {menuOpen ? <X className="size-5" aria-hidden="true" /> : <Menu className="size-5" aria-hidden="true" />}
            </a>
          </HydrateLater>
        </div>
      </div>

      <div className="container-page pb-3 md:hidden">
        <HydrateLater>{renderSearch('mobile')}</HydrateLater>
      </div>

      <nav aria-label="Main" className="hidden border-t border-ink-line bg-ink-soft md:block">
        <HydrateLater>
          <ul className="container-page flex h-12 items-center gap-1">
            {NAV.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  end={item.end}
                  className={({ isActive }) =>
                    cn(
                      'relative inline-flex h-12 items-center px-4 text-sm font-bold tracking-wider transition-colors hover:text-safety',
                      isActive ? 'text-safety after:absolute after:inset-x-4 after:bottom-0 after:h-0.5 after:bg-safety' : 'text-zinc-200',
                    )
                  }
                >
                  {item.desktop}
                </NavLink>
              </li>
            ))}
          </ul>
        </HydrateLater>
      </nav>

      {menuOpen ? (
        <nav id="mobile-menu" aria-label="Mobile" className="border-t border-ink-line bg-ink-soft md:hidden">
          <ul className="container-page flex flex-col py-2">
            {NAV.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  end={item.end}
                  onClick={() => setMenuOpen(false)}
                  className={({ isActive }) =>
                    cn(
                      'flex h-12 items-center border-b border-ink-line px-1 text-base font-bold tracking-wider last:border-b-0',
                      isActive ? 'text-safety' : 'text-white',
                    )
                  }
                >
                  {item.mobile}
                </NavLink>
              </li>
            ))}
            {/* On a phone the header has no room for the account's button: it is here. */}
            <li className="sm:hidden">
              <NavLink
                to="/account"
                onClick={() => setMenuOpen(false)}
                className={({ isActive }) => cn('flex h-12 items-center gap-2 px-1 text-base font-bold tracking-wider', isActive ? 'text-safety' : 'text-white')}
              >
                <UserRound className="size-5" aria-hidden="true" /> YOUR ACCOUNT
              </NavLink>
            </li>
          </ul>
          <div className="container-page flex flex-col gap-2 pb-4 text-sm text-zinc-300">
            <a href={phoneHref} className="inline-flex items-center gap-2">
              <Phone className="size-4" aria-hidden="true" /> {site.phone}
            </a>
            <span className="inline-flex items-center gap-2">
              <Clock className="size-4" aria-hidden="true" /> {site.businessHours}
            </span>
          </div>
        </nav>
      ) : null}
    </header>
  );
}
