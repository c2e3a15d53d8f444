import { productQuoteText, whatsappLink } from '@forgeline/site-config/whatsapp';
import { CheckCircle2, Loader2, MessageCircle, Send, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button, ExternalButtonLink } from '../../../components/ui/button.tsx';
import { site } from '../../../config/site.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { serverMessage } from '../../../lib/api-error.ts';
import { useCreateQuoteRequest } from '../api/create-quote-request.ts';
import { QuoteCustomerFields, QuoteField, quoteInputClass, useQuoteCustomerForm } from './quote-customer-fields.tsx';

export interface QuoteDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  product: { id: string; name: string; sku: string; partNumber: string };
}

/** Spec section 5: quantity falls back to 1 if blank or invalid. */
export function parseQuantity(text: string): number {
  const n = Number.parseInt(text, 10);
  return Number.isFinite(n) && n >= 1 ? n : 1;
}

/**
 * The quote dialog of the product page (spec sections 2, 4, 5, 8): form -> submitting -> sent, or back to the form
 * with everything kept on error. A new math check on every opening; closing is blocked while submitting and resets it.
 */
export function QuoteDialog({ open, onOpenChange, product }: QuoteDialogProps) {
  const uid = useId();
  const form = useQuoteCustomerForm();
  const [quantity, setQuantity] = useState('1');
  const [sentTo, setSentTo] = useState<{ name: string; email: string } | null>(null);
  const mutation = useCreateQuoteRequest();
  const submitting = mutation.isPending;

  // A new challenge each time the dialog opens; closing resets the form and the success state.
  const { renewChallenge, reset: resetForm } = form;
  const { reset: resetMutation } = mutation;
  useEffect(() => {
    if (open) {
      renewChallenge();
      return;
    }
    resetForm();
    // eslint-disable-next-line react-hooks/set-state-in-effect -- follows `open`, which the page (and ?quote=1) sets, with the form and the request
    setQuantity('1');
    setSentTo(null);
    resetMutation();
  }, [open, renewChallenge, resetForm, resetMutation]);

  const requestClose = (next: boolean) => {
    if (!next && submitting) return; // blocked while submitting
    onOpenChange(next);
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (submitting || !form.validate()) return;
    const customer = form.values();
    try {
      await mutation.mutateAsync({ productId: product.id, quantity: parseQuantity(quantity), ...customer });
      setSentTo({ name: customer.customerName, email: customer.customerEmail });
      toast.success('Quote Request Sent Successfully! ✅', {
        description: `Confirmation email sent to ${customer.customerEmail}. We'll contact you within 2-4 hours.`,
      });
    } catch (err) {
      const limited = err instanceof ApiError && err.status === 429;
      toast.error('Failed to Send Quote Request', {
        description: (limited && serverMessage(err)) || 'Please check your details and try again, or contact us directly via WhatsApp.',
      });
    }
  }

  const whatsapp = whatsappLink(productQuoteText(product), site.whatsappNumber);

  return (
    <Dialog.Root open={open} onOpenChange={requestClose}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/60" />
        <Dialog.Content
          className="fixed inset-x-0 bottom-0 z-50 max-h-[100dvh] overflow-y-auto rounded-t-xl bg-white p-5 shadow-2xl sm:inset-auto sm:top-1/2 sm:left-1/2 sm:w-full sm:max-w-xl sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-xl sm:p-6"
          onEscapeKeyDown={(e) => submitting && e.preventDefault()}
          onPointerDownOutside={(e) => submitting && e.preventDefault()}
          onInteractOutside={(e) => submitting && e.preventDefault()}
          aria-describedby={`${uid}-desc`}
        >
          <div className="flex items-start justify-between gap-4">
            <div>
              <Dialog.Title className="font-display text-xl font-extrabold uppercase text-ink">
                {sentTo ? 'Quote Request Sent' : 'Get Instant Quote'}
              </Dialog.Title>
              <Dialog.Description id={`${uid}-desc`} className="mt-1 text-sm text-steel">
                {product.name} · SKU {product.sku}
                {product.partNumber ? ` · Part No. ${product.partNumber}` : ''}
              </Dialog.Description>
            </div>
            <Dialog.Close asChild>
              <button
                type="button"
                disabled={submitting}
                className="rounded-md p-2 text-steel hover:bg-black/5 disabled:opacity-40"
                aria-label="Close"
              >
                <X className="size-5" aria-hidden="true" />
              </button>
            </Dialog.Close>
          </div>

          {sentTo ? (
            <div className="mt-6 text-center" role="status">
              <CheckCircle2 className="mx-auto size-14 text-green-700" aria-hidden="true" />
              <p className="mt-4 text-lg font-bold text-ink">Thank you, {sentTo.name}!</p>
              <p className="mt-2 text-steel">
                Your quote request has been received. We'll reply within 24 hours to <strong className="text-ink">{sentTo.email}</strong>.
              </p>
              <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:justify-center">
                <ExternalButtonLink href={whatsapp} variant="whatsapp">
                  <MessageCircle className="size-5" aria-hidden="true" /> Chat on WhatsApp
                </ExternalButtonLink>
                <Button variant="dark" onClick={() => onOpenChange(false)}>
                  Close
                </Button>
              </div>
            </div>
          ) : (
            <form className="mt-5 space-y-4" onSubmit={(e) => void submit(e)} noValidate aria-busy={submitting}>
              <fieldset disabled={submitting} className="space-y-4">
                <QuoteCustomerFields form={form} messagePlaceholder="Delivery location, urgency, alternative part numbers...">
                  <QuoteField id={form.ids('quantity')} label="Quantity Required" required>
                    <input
                      id={form.ids('quantity')}
                      type="number"
                      min={1}
                      step={1}
                      inputMode="numeric"
                      className={quoteInputClass}
                      value={quantity}
                      onChange={(e) => setQuantity(e.target.value)}
                    />
                  </QuoteField>
                </QuoteCustomerFields>
              </fieldset>
              <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
                <Button variant="outline" disabled={submitting} onClick={() => requestClose(false)}>
                  Cancel
                </Button>
                <Button type="submit" variant="primary" disabled={submitting}>
                  {submitting ? (
                    <>
                      <Loader2 className="size-4 animate-spin" aria-hidden="true" /> Processing...
                    </>
                  ) : (
                    <>
                      <Send className="size-4" aria-hidden="true" /> Send Quote Request
                    </>
                  )}
                </Button>
              </div>
            </form>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export default QuoteDialog;
