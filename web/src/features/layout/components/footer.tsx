import { Clock, Mail, MapPin, Phone } from 'lucide-react';
import { Link } from 'react-router-dom';
import { phoneHref, site } from '../../../config/site.ts';
import { BrandMark } from './brand-mark.tsx';

const COMPANY = [
  { to: '/about', label: 'Company Info' },
  { to: '/faq', label: 'FAQ' },
  { to: '/contact', label: 'Share Your Feedback' },
];
const POLICIES = [
  { to: '/privacy', label: 'Privacy Policy' },
  { to: '/refund-policy', label: 'Returns Policy' },
  { to: '/shipping-policy', label: 'Shipping Policy' },
  { to: '/disclaimer', label: 'Disclaimer' },
];
const SHOP = [
  { to: '/categories', label: 'Browse by Brand' },
  { to: '/catalog', label: 'Image Gallery' },
  { to: '/contact', label: 'Request a Quote' },
];

function LinkColumn({ title, links }: { title: string; links: Array<{ to: string; label: string }> }) {
  return (
    <div>
      <h2 className="font-display text-lg font-bold uppercase tracking-wide text-white">{title}</h2>
      <ul className="mt-4 space-y-2.5 text-sm">
        {links.map((l) => (
          <li key={l.label}>
            <Link to={l.to} className="text-zinc-300 hover:text-safety">
              {l.label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Footer: links of spec section 2 and the claims of section 1. */
export function Footer() {
  return (
    <footer className="bg-ink text-zinc-300">
      <div className="hazard-stripe h-2" aria-hidden="true" />
      <div id="site-links" className="container-page grid gap-10 py-14 sm:grid-cols-2 lg:grid-cols-[1.5fr_1fr_1fr_1.3fr]">
        <div>
          <BrandMark />
          <p className="mt-4 max-w-sm text-sm leading-relaxed">{site.tagline}. OEM, genuine and aftermarket parts for mining, construction, agriculture, material handling and power generation.</p>
          <p className="mt-4 text-sm font-semibold text-white">
            Trusted by <span className="text-safety">10,000+ businesses</span> · more than <span className="text-safety">10 million parts</span> supplied
          </p>
        </div>
        <LinkColumn title="Company" links={COMPANY} />
        <div className="grid gap-10">
          <LinkColumn title="Shop" links={SHOP} />
          <LinkColumn title="Policies" links={POLICIES} />
        </div>
        <div>
          <h2 className="font-display text-lg font-bold uppercase tracking-wide text-white">Contact</h2>
          <ul className="mt-4 space-y-3 text-sm">
            <li>
              <a href={phoneHref} className="inline-flex items-center gap-2 hover:text-safety">
                <Phone className="size-4 text-safety" aria-hidden="true" /> {site.phone}
              </a>
            </li>
            <li>
              <a href={`mailto:${site.email}`} className="inline-flex items-center gap-2 break-all hover:text-safety">
                <Mail className="size-4 shrink-0 text-safety" aria-hidden="true" /> {site.email}
              </a>
            </li>
            <li>
              <a href={`mailto:${site.alternateEmail}`} className="inline-flex items-center gap-2 break-all hover:text-safety">
                <Mail className="size-4 shrink-0 text-safety" aria-hidden="true" /> {site.alternateEmail}
              </a>
            </li>
            <li className="inline-flex items-center gap-2">
              <Clock className="size-4 text-safety" aria-hidden="true" /> {site.businessHours}
            </li>
            <li className="flex items-center gap-2">
              <MapPin className="size-4 text-safety" aria-hidden="true" /> Shipping worldwide to 80+ countries
            </li>
          </ul>
          <p className="mt-5 text-xs text-zinc-400">Bank transfer · Credit cards · Secure payments</p>
        </div>
      </div>
      <div className="border-t border-ink-line">
        <div className="container-page flex flex-col gap-2 py-5 text-xs text-zinc-400 sm:flex-row sm:items-center sm:justify-between">
          <p>
            © {site.establishedYear}-2024 {site.name}. All rights reserved.
          </p>
          <p>Express · Standard · Economy shipping, tracked and insured.</p>
        </div>
      </div>
    </footer>
  );
}
