import { siteConfig } from './site.ts';

/** Prefilled texts for the WhatsApp links (spec sections 2 and 7); the link is built on the client. */
export const WHATSAPP_GREETING = "Hello! I'm looking for industrial spare parts. Can you help me find the right part?";

export const productQuoteText = (p: { name: string; sku: string; partNumber?: string }) =>
  `Hello! I would like a quote for this part:\n` +
  `Product: ${p.name}\n` +
  `SKU: ${p.sku}\n` +
  (p.partNumber ? `Part Number: ${p.partNumber}\n` : '') +
  `Please share price, availability and shipping options.`;

export const productDetailsText = (p: { name: string; sku: string }) =>
  `Hello! Could you send me more details about ${p.name} (SKU: ${p.sku})?`;

export const categoryQuoteText = (category: string) =>
  `Hello! I would like a quote for ${category} parts. Can you help me?`;

export const CONTACT_CHAT_TEXT = 'Hello! I have a question for the Forgeline Parts team.';

/** https://wa.me/<number>?text=<encoded text>; `number` defaults to the configured messaging number. */
export function whatsappLink(text: string, number: string = siteConfig.whatsappNumber): string {
  const digits = number.replace(/\D/g, '');
  return `https://wa.me/${digits}?text=${encodeURIComponent(text)}`;
}
