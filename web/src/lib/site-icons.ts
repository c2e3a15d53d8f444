import { Award, CreditCard, Globe, Headphones, Shield, Tag, Truck, Zap, type LucideIcon } from 'lucide-react';
import type { FeatureIcon, TrustIcon } from '@forgeline/site-config/site';

/** Maps the icon names of the site configuration to lucide components. */
export const siteIcons: Record<FeatureIcon | TrustIcon, LucideIcon> = {
  CreditCard,
  Zap,
  Globe,
  Truck,
  Award,
  Tag,
  Headphones,
  Shield,
};
