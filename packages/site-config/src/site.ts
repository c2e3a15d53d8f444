/**
 * The site's configuration (spec section 3): every name, contact detail, claim and icon the storefront shows,
 * edited here and nowhere else. Icons are lucide-react names; the web app maps them to components.
 *
 * Contact values can be overridden at build/start time without touching this file: the web build reads
 * `VITE_SITE_*` variables and the gateway reads `SITE_*` variables, both through `overrideSiteConfig`.
 */

export type FeatureIcon = 'CreditCard' | 'Zap' | 'Globe';
export type TrustIcon = 'Truck' | 'Award' | 'Tag' | 'Headphones' | 'Shield';

export interface SiteFeature {
  icon: FeatureIcon;
  title: string;
  description: string;
}

export interface TrustIndicator {
  icon: TrustIcon;
  title: string;
  description: string;
}

export interface SiteConfig {
  name: string;
  tagline: string;
  logoPath: string;
  /** Display form, e.g. "+1 (312) 555-0147". */
  phone: string;
  /** Digits only with country code, as wa.me wants it. */
  whatsappNumber: string;
  email: string;
  alternateEmail: string;
  businessHours: string;
  establishedYear: number;
  socialMedia: { linkedin: string; twitter: string; facebook: string; instagram: string; youtube: string };
  description: string;
  stats: { clients: string; shipments: string; products: string; countries: string };
  features: SiteFeature[];
  trustIndicators: TrustIndicator[];
}

export const siteConfig: SiteConfig = {
  name: 'Forgeline Parts',
  tagline: 'Industrial Spare Parts, Delivered Worldwide',
  logoPath: '/logo.svg',
  phone: '+1 (312) 555-0147',
  whatsappNumber: '13125550147',
  email: 'sales@forgelineparts.com',
  alternateEmail: 'support@forgelineparts.com',
  businessHours: 'MON - FRI: 9:00 - 18:00',
  establishedYear: 2017,
  socialMedia: { linkedin: '', twitter: '', facebook: '', instagram: '', youtube: '' },
  description:
    'Forgeline Parts supplies OEM, genuine and aftermarket spare parts for mining, construction, agriculture, ' +
    'material handling and power generation equipment. Since 2017 we have helped maintenance teams, fleet owners ' +
    'and dealers in more than 80 countries find the right part fast, with quotes within hours and tracked, ' +
    'insured delivery to the job site.',
  stats: { clients: '15,000+', shipments: '50,000+', products: '500,000+', countries: '80+' },
  features: [
    {
      icon: 'CreditCard',
      title: 'Flexible Payment',
      description: 'Pay by bank transfer or credit card, with secure payments and clear pro-forma invoices for every order.',
    },
    {
      icon: 'Zap',
      title: 'Fast Quotes & Dispatch',
      description: 'Quotes within 2-4 hours on business days; in-stock parts ship within 1-2 business days.',
    },
    {
      icon: 'Globe',
      title: 'Worldwide Delivery',
      description: 'Express, Standard and Economy shipping to 80+ countries, every parcel tracked and insured.',
    },
  ],
  trustIndicators: [
    {
      icon: 'Truck',
      title: 'Worldwide Shipping',
      description: 'Tracked and insured delivery to 80+ countries, with Express, Standard and Economy options.',
    },
    {
      icon: 'Award',
      title: 'OEM & Genuine Quality',
      description: 'OEM, genuine and quality aftermarket parts checked against part numbers before dispatch.',
    },
    {
      icon: 'Tag',
      title: 'Competitive Pricing',
      description: 'Direct sourcing from 150+ brands keeps prices fair on single parts and fleet orders alike.',
    },
    {
      icon: 'Headphones',
      title: 'Expert Support',
      description: 'Parts specialists on live chat Monday to Saturday to confirm fitment and cross-references.',
    },
    {
      icon: 'Shield',
      title: 'Satisfied or Refunded',
      description: 'Returns within 30 days of delivery and secure payments on every order.',
    },
  ],
};

/** Environment variable suffixes that may replace a contact value (prefix them with `SITE_` or `VITE_SITE_`). */
const OVERRIDABLE = {
  NAME: 'name',
  PHONE: 'phone',
  WHATSAPP_NUMBER: 'whatsappNumber',
  EMAIL: 'email',
  ALTERNATE_EMAIL: 'alternateEmail',
  BUSINESS_HOURS: 'businessHours',
} as const satisfies Record<string, keyof SiteConfig>;

/**
 * A copy of `siteConfig` with contact values taken from the environment where given and non-empty.
 * Reads `SITE_PHONE` (server) or `VITE_SITE_PHONE` (Vite's `import.meta.env`), and so on for each key of OVERRIDABLE.
 */
export function overrideSiteConfig(env: Record<string, string | boolean | undefined>, base: SiteConfig = siteConfig): SiteConfig {
  const out: SiteConfig = { ...base };
  for (const [suffix, key] of Object.entries(OVERRIDABLE)) {
    const raw = env[`SITE_${suffix}`] ?? env[`VITE_SITE_${suffix}`];
    if (typeof raw !== 'string' || raw.trim() === '') continue;
    const value = raw.trim();
    out[key] = key === 'whatsappNumber' ? value.replace(/\D/g, '') : value;
  }
  return out;
}
