import { overrideSiteConfig } from '@forgeline/site-config/site';

/** The site configuration with contact values optionally replaced by VITE_SITE_* build variables. */
export const site = overrideSiteConfig(import.meta.env);

/** The `tel:` link of the site's phone number (digits and the leading +). */
export const phoneHref = `tel:${site.phone.replace(/[^+\d]/g, '')}`;
