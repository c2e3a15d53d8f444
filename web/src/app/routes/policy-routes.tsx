import { lazy } from 'react';

const PolicyPage = lazy(() => import('../../features/static-pages/components/policy-page.tsx'));

export const PrivacyRoute = () => <PolicyPage kind="privacy" />;
export const RefundPolicyRoute = () => <PolicyPage kind="refund-policy" />;
export const ShippingPolicyRoute = () => <PolicyPage kind="shipping-policy" />;
export const DisclaimerRoute = () => <PolicyPage kind="disclaimer" />;
