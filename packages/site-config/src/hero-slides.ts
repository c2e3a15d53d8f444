/** Spec section 3, Hero slide: six static slides for the home carousel (autoplay 4000 ms, spec section 9). */
export interface HeroSlide {
  id: number;
  tagline: string;
  title: string;
  description: string;
  /** Path under web/public; 1600x900 WebP. */
  image: string;
  /** Short text alternative for the background image. */
  imageAlt: string;
}

export const HERO_AUTOPLAY_DELAY_MS = 4000;
export const HERO_BADGE = '500,000+ Parts in Stock';

export const heroSlides: HeroSlide[] = [
  {
    id: 1,
    tagline: 'Mining Equipment Parts',
    title: 'Keep Your Haul Fleet Moving',
    description:
      'Undercarriage, hydraulics, filters and engine parts for haul trucks, loaders and excavators, quoted within hours.',
    image: '/images/hero/mining.webp',
    imageAlt: 'Haul truck at an open-pit mine at dusk',
  },
  {
    id: 2,
    tagline: 'Construction Machinery',
    title: 'Parts for Every Job Site',
    description:
      'Genuine and aftermarket parts for excavators, dozers, backhoes and cranes from 150+ brands, shipped worldwide.',
    image: '/images/hero/construction.webp',
    imageAlt: 'Excavator and tower crane on a construction site',
  },
  {
    id: 3,
    tagline: 'Agricultural Equipment',
    title: 'Harvest Without Downtime',
    description: 'Tractor, combine and sprayer parts in stock, with Express delivery in 3-5 business days.',
    image: '/images/hero/agriculture.webp',
    imageAlt: 'Tractor working a field at sunrise',
  },
  {
    id: 4,
    tagline: 'Material Handling',
    title: 'Forklift & Warehouse Parts',
    description: 'Mast chains, brake kits, seals and electrical parts for forklifts, reach trucks and telehandlers.',
    image: '/images/hero/material-handling.webp',
    imageAlt: 'Forklift lifting a pallet in a warehouse',
  },
  {
    id: 5,
    tagline: 'Power Generation',
    title: 'Reliable Power, Genuine Parts',
    description: 'Filters, injectors, gaskets and control parts for diesel generator sets and industrial engines.',
    image: '/images/hero/power-generation.webp',
    imageAlt: 'Diesel generator sets beside a power line',
  },
  {
    id: 6,
    tagline: 'Global Logistics',
    title: 'Delivered to 80+ Countries',
    description: 'Tracked and insured shipping by Express, Standard or Economy, straight to your workshop or site.',
    image: '/images/hero/logistics.webp',
    imageAlt: 'Container ship and cranes at a port',
  },
];
