/**
 * Which company a buyer's address makes or joins (issue 35). A company is made for an e-mail domain by its first buyer;
 * colleagues join by invitation (an address at the same domain is not let in on its own: anyone a mail provider gives
 * a mailbox there could be a stranger, and a removed colleague must stay out). Public mail domains never make a shared
 * company: each address there is a company of one.
 */

/** Mail providers whose addresses belong to people, not to one company. */
export const PUBLIC_MAIL_DOMAINS = new Set([
  'gmail.com', 'googlemail.com', 'outlook.com', 'hotmail.com', 'hotmail.co.uk', 'live.com', 'msn.com', 'yahoo.com',
  'yahoo.co.uk', 'yahoo.co.in', 'yahoo.fr', 'ymail.com', 'aol.com', 'icloud.com', 'me.com', 'mac.com', 'proton.me',
  'protonmail.com', 'pm.me', 'gmx.com', 'gmx.de', 'gmx.net', 'web.de', 'mail.com', 'mail.ru', 'yandex.ru', 'yandex.com',
  'zoho.com', 'qq.com', '163.com', '126.com', 'sina.com', 'naver.com', 'daum.net', 'rediffmail.com', 'libero.it',
  'orange.fr', 'free.fr', 'laposte.net', 't-online.de', 'bol.com.br', 'uol.com.br', 'terra.com.br', 'fastmail.com',
  'tutanota.com', 'hey.com', 'seznam.cz', 'wp.pl', 'o2.pl', 'interia.pl', 'btinternet.com', 'sky.com', 'bigpond.com',
]);

export const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();
export const isPublicMailDomain = (domain: string) => PUBLIC_MAIL_DOMAINS.has(domain);

/** A first name for a new company: "quarry-works.co.za" → "Quarry Works"; a one-person company is named for its address. */
export function defaultCompanyName(email: string, shared: boolean): string {
  if (!shared) return email;
  const label = domainOf(email).split('.')[0] ?? email;
  return label.split(/[-_]+/).filter(Boolean).map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' ') || email;
}

/** How long an invitation stands. */
export const INVITE_TTL_MS = 14 * 86_400_000;
