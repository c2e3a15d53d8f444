import { X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import type { ReactNode } from 'react';

/**
 * The account's form dialogs (a machine, a list, a reorder): Radix's dialog (focus kept inside, Escape closes, focus
 * back on the button that opened it), drawn as the shared confirm dialog is, and scrolling inside itself on a phone.
 * Controlled: the caller holds `open`, and renders its trigger itself (a Dialog.Trigger when given `trigger`).
 */
export function AccountDialog({
  open,
  onOpenChange,
  trigger,
  title,
  description,
  wide = false,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  trigger?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      {trigger ? <Dialog.Trigger asChild>{trigger}</Dialog.Trigger> : null}
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/60" />
        <Dialog.Content
          // Without a description, no aria-describedby (Radix's default points at one).
          {...(description ? {} : { 'aria-describedby': undefined })}
          className={`fixed left-1/2 top-1/2 z-50 max-h-[calc(100dvh-2rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg bg-white p-5 shadow-xl focus:outline-none sm:p-6 ${wide ? 'w-[min(44rem,calc(100vw-2rem))]' : 'w-[min(30rem,calc(100vw-2rem))]'}`}
        >
          <div className="flex items-start justify-between gap-3">
            <Dialog.Title className="min-w-0 break-words font-display text-lg font-extrabold uppercase text-ink">{title}</Dialog.Title>
            <Dialog.Close asChild>
              <button type="button" aria-label="Close" className="-m-1 shrink-0 rounded p-1 text-steel hover:text-ink">
                <X className="size-5" aria-hidden="true" />
              </button>
            </Dialog.Close>
          </div>
          {description ? <Dialog.Description className="mt-2 text-sm text-steel">{description}</Dialog.Description> : null}
          <div className="mt-4">{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
