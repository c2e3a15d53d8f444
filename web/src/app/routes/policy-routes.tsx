import PolicyPage from '../../features/static-pages/components/policy-page.tsx';

// One chunk for the four policy pages (router.tsx loads it lazily; the server bundle renders them directly).
export const PrivacyRoute = () => <PolicyPage kind="privacy" />;
export const RefundPolicyRoute = () => <PolicyPage kind="refund-policy" />;
export const ShippingPolicyRoute = () => <PolicyPage kind="shipping-policy" />;
export const DisclaimerRoute = () => <PolicyPage kind="disclaimer" />;
