/** Spec section 2, FAQ: six categories of questions, shown as single-open accordions. */
export interface FaqItem {
  question: string;
  answer: string;
}
export interface FaqCategory {
  id: string;
  title: string;
  items: FaqItem[];
}

export const faqCategories: FaqCategory[] = [
  {
    id: 'ordering',
    title: 'Ordering & Products',
    items: [
      {
        question: 'How do I order a part?',
        answer:
          'Open the product page and press "Get Instant Quote", or message us on WhatsApp with the part number. ' +
          'We reply with price, availability and shipping options, usually within 2-4 hours on business days. ' +
          'Once you accept the quote we send a pro-forma invoice and ship after payment.',
      },
      {
        question: 'Do you sell OEM, genuine or aftermarket parts?',
        answer:
          'All three. Each quote states whether a part is OEM, genuine or aftermarket so you can choose on price and lead time. ' +
          'Parts listed under "OEM/Genuine" come from the original manufacturer or its authorised suppliers.',
      },
      {
        question: "I can't find my part on the website. Can you still supply it?",
        answer:
          'Very likely. Our catalogue lists more than 500,000 parts, but we source many more on request. ' +
          'Send us the part number, the machine model and serial number, and a photo if you have one.',
      },
      {
        question: 'How do I make sure a part fits my machine?',
        answer:
          'Give us the machine model and serial number with your request. Our parts specialists check the part number ' +
          'against the manufacturer’s catalogue and any superseded or cross-referenced numbers before we quote.',
      },
    ],
  },
  {
    id: 'shipping',
    title: 'Shipping & Delivery',
    items: [
      {
        question: 'Which shipping options do you offer?',
        answer:
          'Express (3-5 business days), Standard (5-10 business days) and Economy (10-20 business days). ' +
          'The quote shows the price of each option for your destination.',
      },
      {
        question: 'How long before my order ships?',
        answer: 'In-stock parts are processed within 1-2 business days; special-order parts take 3-7 business days.',
      },
      {
        question: 'Is my shipment tracked and insured?',
        answer:
          'Yes. Every shipment has a tracking number, sent by e-mail when it leaves our warehouse, and is insured for its full value.',
      },
      {
        question: 'What if my shipment is lost or arrives damaged?',
        answer:
          'Report a lost shipment within 7 days of the expected delivery date and visible damage within 48 hours of delivery, ' +
          'with photos of the parcel and the part. We then arrange a replacement or a refund.',
      },
    ],
  },
  {
    id: 'payment',
    title: 'Payment & Pricing',
    items: [
      {
        question: 'Which payment methods do you accept?',
        answer: 'Bank transfer and major credit cards. All card payments go through a secure, encrypted payment provider.',
      },
      {
        question: 'In which currency are prices quoted?',
        answer: 'Mainly in US dollars (USD). Ask us if you need a quote in another currency.',
      },
      {
        question: 'Do you offer discounts for large orders?',
        answer:
          'Yes. Fleet operators, dealers and workshops ordering in volume get tiered pricing. Send your full parts list and we quote it as one order.',
      },
      {
        question: 'Are import duties and taxes included?',
        answer:
          'Unless your quote says otherwise, import duties, taxes and customs fees in the destination country are paid by the buyer.',
      },
    ],
  },
  {
    id: 'returns',
    title: 'Returns & Warranty',
    items: [
      {
        question: 'Can I return a part?',
        answer:
          'Yes, within 30 days of delivery, unused and in its original packaging. Contact us first so we can give you return instructions.',
      },
      {
        question: 'How long does a refund take?',
        answer:
          'Once we receive and inspect the return, refunds or replacements are processed within 5-7 business days; ' +
          'your bank may take a further 5-10 business days to credit the amount.',
      },
      {
        question: 'Is there a restocking fee?',
        answer:
          'Returns caused by a customer error, such as a wrong part number ordered, carry a restocking fee of 15-25%. ' +
          'There is no fee when we shipped the wrong or a faulty part.',
      },
      {
        question: 'How do warranty claims work?',
        answer:
          'Send us the order number, a description of the fault and photos. Warranty claims are reviewed within 5-7 business days.',
      },
    ],
  },
  {
    id: 'international',
    title: 'International Orders',
    items: [
      {
        question: 'Which countries do you ship to?',
        answer: 'We deliver to more than 80 countries across the Americas, Europe, Africa, the Middle East, Asia and Oceania.',
      },
      {
        question: 'Do you provide export documents?',
        answer:
          'Yes. Every international shipment travels with a commercial invoice and packing list; certificates of origin are available on request.',
      },
      {
        question: 'Can you ship to my freight forwarder?',
        answer: 'Yes. Give us your forwarder’s address and contact details and we deliver to them instead.',
      },
    ],
  },
  {
    id: 'support',
    title: 'Technical Support',
    items: [
      {
        question: 'Can you help me identify a part?',
        answer:
          'Yes. Send the machine model, serial number and a photo of the old part (with any numbers stamped on it). ' +
          'Our specialists identify it and confirm the correct part number.',
      },
      {
        question: 'When is support available?',
        answer:
          'Live chat support runs Monday to Saturday. Phone and e-mail are answered MON - FRI: 9:00 - 18:00; messages sent outside these hours are answered the next business day.',
      },
      {
        question: 'Do you provide installation instructions?',
        answer:
          'Where the manufacturer publishes installation or torque data we send it with the part. For complex jobs we recommend an authorised technician.',
      },
    ],
  },
];

/** The four short FAQ cards on the contact page. */
export const contactFaqCards: FaqItem[] = [
  {
    question: 'How fast will you reply?',
    answer: 'We answer messages within 24 hours, and quote requests usually within 2-4 hours on business days.',
  },
  {
    question: 'Do you ship internationally?',
    answer: 'Yes, to 80+ countries with Express, Standard and Economy options, tracked and insured.',
  },
  {
    question: 'Which payment methods do you accept?',
    answer: 'Bank transfer and credit cards, with secure payments on every order.',
  },
  {
    question: 'What is your return policy?',
    answer: 'Returns are accepted within 30 days of delivery. See our Returns Policy for details.',
  },
];
