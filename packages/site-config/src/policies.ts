/**
 * The four policy pages (spec sections 2 and 9). Text is data: sections of paragraphs and bullet lists.
 * Every figure below comes from spec section 9; change them here only.
 */
import { siteConfig } from './site.ts';

export type PolicyKind = 'privacy' | 'refund-policy' | 'shipping-policy' | 'disclaimer';

export interface PolicySection {
  heading: string;
  paragraphs?: string[];
  bullets?: string[];
}

export interface Policy {
  kind: PolicyKind;
  path: `/${PolicyKind}`;
  title: string;
  /** One sentence for the meta description and the page intro. */
  summary: string;
  lastUpdated: string;
  sections: PolicySection[];
}

export const POLICY_LAST_UPDATED = 'September 2025';

/** Kept free of the phone and e-mail so an environment override never leaves a stale value in policy text. */
const contactLine = `Questions? Reach us through the Contact page, by e-mail, phone or WhatsApp (${siteConfig.businessHours}).`;

export const policies: Record<PolicyKind, Policy> = {
  privacy: {
    kind: 'privacy',
    path: '/privacy',
    title: 'Privacy Policy',
    summary: `How ${siteConfig.name} collects, uses and protects the information you share with us.`,
    lastUpdated: POLICY_LAST_UPDATED,
    sections: [
      {
        heading: 'Information we collect',
        paragraphs: ['We collect only what we need to answer your requests and deliver your orders:'],
        bullets: [
          'Contact details you give us in quote requests and contact messages: name, business e-mail, phone number and country.',
          'Order details: the parts requested, quantities, delivery address and shipping choice.',
          'Technical data our servers log when you visit: IP address, browser type and pages viewed, kept for security and troubleshooting.',
        ],
      },
      {
        heading: 'How we use it',
        bullets: [
          'To prepare quotes, process orders and arrange shipping, tracking and insurance.',
          'To answer your questions by e-mail, phone or WhatsApp.',
          'To prevent fraud and keep the website secure.',
        ],
        paragraphs: ['We do not sell your personal information, and we do not send marketing e-mails without your consent.'],
      },
      {
        heading: 'Sharing',
        paragraphs: [
          'We share information only with the parties needed to complete your order: carriers and insurers for delivery, ' +
            'and payment providers for bank transfers and card payments. Card details are handled by the payment provider over secure, encrypted connections and never stored by us.',
        ],
      },
      {
        heading: 'Cookies',
        paragraphs: ['We use only the cookies the site needs to work, such as keeping an administrator signed in. We do not use advertising cookies.'],
      },
      {
        heading: 'Your rights',
        paragraphs: [
          'You may ask to see, correct or delete the personal information we hold about you. ' + contactLine,
        ],
      },
      {
        heading: 'Children',
        paragraphs: ['Our services are for businesses. Customers under 18 are excluded, and we do not knowingly collect information from them.'],
      },
    ],
  },
  'refund-policy': {
    kind: 'refund-policy',
    path: '/refund-policy',
    title: 'Returns & Refund Policy',
    summary: 'Satisfied or refunded: returns within 30 days of delivery, refunds processed in 5-7 business days.',
    lastUpdated: POLICY_LAST_UPDATED,
    sections: [
      {
        heading: 'Satisfied or refunded',
        paragraphs: [
          'We want every part to fit and work. If it does not, we replace it or refund you under the terms below.',
        ],
      },
      {
        heading: 'Returns',
        bullets: [
          'Returns are accepted within 30 days of delivery.',
          'Parts must be unused, uninstalled and in their original packaging.',
          'Contact us before sending anything back so we can issue return instructions.',
        ],
      },
      {
        heading: 'Refunds and replacements',
        bullets: [
          'Once we receive and inspect the return, a refund or replacement is processed within 5-7 business days.',
          'Your bank or card issuer may take a further 5-10 business days to credit the refund.',
          'Refunds go back to the original payment method (bank transfer or credit card).',
        ],
      },
      {
        heading: 'Restocking fee',
        paragraphs: [
          'Returns caused by a customer error, such as ordering the wrong part number, carry a restocking fee of 15-25% of the part value. ' +
            'No fee applies when we shipped a wrong or faulty part.',
        ],
      },
      {
        heading: 'Lost or damaged shipments',
        bullets: [
          'Report a lost shipment within 7 days of the expected delivery date.',
          'Report visible damage within 48 hours of delivery, with photos of the packaging and the part.',
          'Shipments are insured for their full value, so an approved claim is replaced or refunded in full.',
        ],
      },
      {
        heading: 'Warranty claims',
        paragraphs: [
          'Send the order number, a description of the fault and photos. Warranty claims are reviewed within 5-7 business days. ' +
            contactLine,
        ],
      },
    ],
  },
  'shipping-policy': {
    kind: 'shipping-policy',
    path: '/shipping-policy',
    title: 'Shipping Policy',
    summary: 'Worldwide delivery with tracking and insurance: Express 3-5, Standard 5-10 and Economy 10-20 business days.',
    lastUpdated: POLICY_LAST_UPDATED,
    sections: [
      {
        heading: 'Worldwide delivery',
        paragraphs: [
          'We ship to more than 80 countries. Every shipment is tracked, and the tracking number is e-mailed to you when the parcel leaves our warehouse.',
        ],
      },
      {
        heading: 'Shipping options',
        bullets: [
          'Express: 3-5 business days.',
          'Standard: 5-10 business days.',
          'Economy: 10-20 business days.',
        ],
        paragraphs: ['Delivery times are counted from dispatch. Your quote lists the price of each option for your destination.'],
      },
      {
        heading: 'Processing time',
        bullets: [
          'In-stock parts: processed and dispatched within 1-2 business days.',
          'Special-order parts: 3-7 business days before dispatch.',
        ],
      },
      {
        heading: 'Insurance',
        paragraphs: ['Insurance covers the full value of every shipment.'],
      },
      {
        heading: 'Lost or damaged shipments',
        bullets: [
          'Report a lost shipment within 7 days of the expected delivery date.',
          'Report damage within 48 hours of delivery, with photos.',
        ],
      },
      {
        heading: 'Customs, duties and taxes',
        paragraphs: [
          'Unless your quote states otherwise, import duties, taxes and customs fees are paid by the buyer. We provide a commercial invoice and packing list with every international shipment.',
        ],
      },
    ],
  },
  disclaimer: {
    kind: 'disclaimer',
    path: '/disclaimer',
    title: 'Disclaimer',
    summary: `Terms that apply to the information, part numbers and brand names shown on ${siteConfig.name}.`,
    lastUpdated: POLICY_LAST_UPDATED,
    sections: [
      {
        heading: 'Information on this website',
        paragraphs: [
          'We take care to keep part descriptions, specifications and images accurate, but they are provided for reference. ' +
            'Always confirm fitment with the machine model and serial number before installing a part; our specialists will check it for you on request.',
        ],
      },
      {
        heading: 'Trademarks and part numbers',
        paragraphs: [
          'Manufacturer names, brand names and part numbers are used for identification and cross-reference only. ' +
            `They remain the property of their owners, and their use does not mean ${siteConfig.name} is affiliated with or endorsed by them. ` +
            'Parts are sold as OEM, genuine or aftermarket, as stated on each quote.',
        ],
      },
      {
        heading: 'Stock and prices',
        paragraphs: [
          'Our catalogue lists more than 500,000 parts from 150+ brands across 50+ categories. Availability and prices change; ' +
            'the binding figures are those in your written quote. Prices are mainly quoted in USD.',
        ],
      },
      {
        heading: 'Eligibility',
        paragraphs: ['Our services are offered to businesses and adults. Customers under 18 are excluded.'],
      },
      {
        heading: 'Limitation of liability',
        paragraphs: [
          'To the extent the law allows, our liability for any part is limited to its purchase price. We are not liable for downtime, ' +
            'lost production or installation costs. This does not affect the returns, refund and warranty terms in our Returns Policy.',
        ],
      },
      {
        heading: 'Questions',
        paragraphs: [contactLine],
      },
    ],
  },
};

export const policyKinds = Object.keys(policies) as PolicyKind[];
