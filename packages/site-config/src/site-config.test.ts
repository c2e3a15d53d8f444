import { describe, expect, it } from 'vitest';
import { contactCountries, DEFAULT_CONTACT_DIAL_CODE, quoteCountries } from './countries.ts';
import { faqCategories } from './faq.ts';
import { heroSlides } from './hero-slides.ts';
import { policies, policyKinds } from './policies.ts';
import { overrideSiteConfig, siteConfig } from './site.ts';
import { productQuoteText, WHATSAPP_GREETING, whatsappLink } from './whatsapp.ts';

const policyText = (kind: keyof typeof policies) =>
  policies[kind].sections.flatMap((s) => [s.heading, ...(s.paragraphs ?? []), ...(s.bullets ?? [])]).join('\n');

describe('site configuration', () => {
  it('carries the figures and icons of spec section 3', () => {
    expect(siteConfig).toMatchObject({
      name: 'Forgeline Parts',
      businessHours: 'MON - FRI: 9:00 - 18:00',
      establishedYear: 2017,
      stats: { clients: '15,000+', shipments: '50,000+', products: '500,000+', countries: '80+' },
      socialMedia: { linkedin: '', twitter: '', facebook: '', instagram: '', youtube: '' },
    });
    expect(siteConfig.features.map((f) => f.icon)).toEqual(['CreditCard', 'Zap', 'Globe']);
    expect(siteConfig.trustIndicators.map((t) => t.icon)).toEqual(['Truck', 'Award', 'Tag', 'Headphones', 'Shield']);
  });

  it('takes contact values from SITE_* or VITE_SITE_* variables and ignores empty ones', () => {
    const site = overrideSiteConfig({ SITE_PHONE: '+44 20 7946 0000', VITE_SITE_EMAIL: 'parts@example.co.uk', SITE_WHATSAPP_NUMBER: '+44 (20) 7946-0000', SITE_ALTERNATE_EMAIL: '  ' });
    expect(site.phone).toBe('+44 20 7946 0000');
    expect(site.email).toBe('parts@example.co.uk');
    expect(site.whatsappNumber).toBe('442079460000');
    expect(site.alternateEmail).toBe(siteConfig.alternateEmail);
    expect(siteConfig.phone).not.toBe('+44 20 7946 0000'); // the base object is untouched
  });

  it('has six hero slides with images under /images/hero', () => {
    expect(heroSlides).toHaveLength(6);
    for (const s of heroSlides) expect(s.image).toMatch(/^\/images\/hero\/[\w-]+\.webp$/);
  });

  it('has the six FAQ categories of spec section 2, each with answers', () => {
    expect(faqCategories.map((c) => c.title)).toEqual([
      'Ordering & Products',
      'Shipping & Delivery',
      'Payment & Pricing',
      'Returns & Warranty',
      'International Orders',
      'Technical Support',
    ]);
    for (const c of faqCategories) for (const i of c.items) expect(i.answer.length).toBeGreaterThan(20);
  });

  it('states every policy claim of spec section 9, last updated September 2025', () => {
    expect(policyKinds).toEqual(['privacy', 'refund-policy', 'shipping-policy', 'disclaimer']);
    for (const k of policyKinds) expect(policies[k].lastUpdated).toBe('September 2025');
    const refund = policyText('refund-policy');
    for (const claim of ['30 days of delivery', '5-7 business days', '5-10 business days', '15-25%', 'within 7 days of the expected delivery', '48 hours', 'Warranty claims are reviewed within 5-7 business days']) {
      expect(refund).toContain(claim);
    }
    const shipping = policyText('shipping-policy');
    for (const claim of ['Express: 3-5 business days', 'Standard: 5-10 business days', 'Economy: 10-20 business days', '1-2 business days', '3-7 business days', 'full value']) {
      expect(shipping).toContain(claim);
    }
    expect(policyText('privacy')).toContain('Customers under 18 are excluded');
    expect(policyText('disclaimer')).toContain('Customers under 18 are excluded');
  });

  it('offers about 55 quote countries sorted by name and 39 contact countries starting at +91', () => {
    expect(quoteCountries.length).toBeGreaterThanOrEqual(50);
    expect(quoteCountries.length).toBeLessThanOrEqual(60);
    const names = quoteCountries.map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    expect(contactCountries).toHaveLength(39);
    expect(contactCountries[0]!.dialCode).toBe(DEFAULT_CONTACT_DIAL_CODE);
    for (const c of [...quoteCountries, ...contactCountries]) {
      expect(c.code).toMatch(/^[A-Z]{2}$/);
      expect(c.dialCode).toMatch(/^\+\d{1,4}$/);
    }
    expect(new Set(quoteCountries.map((c) => c.code)).size).toBe(quoteCountries.length);
    expect(new Set(contactCountries.map((c) => c.code)).size).toBe(contactCountries.length);
  });

  it('builds WhatsApp links with the number as digits and the text encoded', () => {
    expect(whatsappLink(WHATSAPP_GREETING, '+1 (312) 555-0147')).toBe(`https://wa.me/13125550147?text=${encodeURIComponent(WHATSAPP_GREETING)}`);
    const text = productQuoteText({ name: 'Oil Filter & Seal', sku: 'JD-RE504836', partNumber: 'RE504836' });
    expect(text).toContain('Product: Oil Filter & Seal');
    expect(text).toContain('SKU: JD-RE504836');
    const link = new URL(whatsappLink(text));
    expect(link.searchParams.get('text')).toBe(text);
  });
});
