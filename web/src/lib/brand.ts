/** Spec section 2: the brand 'Generic' is shown as 'OEM/Genuine'. */
export const displayBrand = (brand: string) => (brand.trim().toLowerCase() === 'generic' ? 'OEM/Genuine' : brand);
