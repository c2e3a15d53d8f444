// Placeholder written by the storefront engineer; the quotes owner replaces it.
export function QuoteDialog(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  product: { id: string; name: string; sku: string; partNumber: string };
}) {
  if (!props.open) return null;
  return (
    <div role="dialog" aria-label="Get Instant Quote">
      Quote for {props.product.name}
      <button type="button" onClick={() => props.onOpenChange(false)}>
        Close
      </button>
    </div>
  );
}
