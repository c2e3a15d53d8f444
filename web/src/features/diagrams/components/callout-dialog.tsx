import { productPath } from '@forgeline/contracts/slug';
import { ArrowRight, ListPlus, X } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useRef } from 'react';
import { ProductImage } from '../../../components/product/product-image.tsx';
import { Button, ButtonLink } from '../../../components/ui/button.tsx';
import { displayBrand } from '../../../lib/brand.ts';
import { cn } from '../../../lib/cn.ts';
import { primaryImage } from '../../../lib/product-image.ts';
import { formatSerialRange } from '../../../lib/serial-range.ts';
import { ReplacedByNotice } from '../../products/components/part-history.tsx';
import { notForSerial, type LineView } from '../assembly-lines.ts';

function Fact({ label, children, mono = false }: { label: string; children: string | number; mono?: boolean }) {
  return (
    <div className="rounded-md border border-zinc-200 bg-white p-3">
      <dt className="text-xs font-bold uppercase tracking-wider text-steel">{label}</dt>
      <dd className={cn('mt-0.5 break-all font-semibold text-ink', mono && 'font-mono')}>{children}</dd>
    </div>
  );
}

/** One line of the callout: its part as the catalogue sells it today, and the way to the quote list and its page. */
/** `first`: the dialog's first line (the others are ruled off above). */
function CalloutPart({ view, serial, first, onAdd }: { view: LineView; serial: string | null; first: boolean; onAdd: (lines: LineView[]) => void }) {
  const { line, fits } = view;
  const part = line.part;
  if (!part) {
    return <p className={cn('text-steel', !first && 'mt-4')}>This part is no longer sold. Ask us for its replacement: send us the callout number and your serial number.</p>;
  }
  return (
    <article className={cn(!first && 'mt-4 border-t border-zinc-200 pt-4')} aria-label={part.name}>
      <div className="flex gap-4">
        <ProductImage
          src={primaryImage(part)}
          alt=""
          width={64}
          height={64}
          sizes="64px"
          displayWidth={160}
          className="size-16 shrink-0 rounded border border-zinc-200 bg-zinc-50 object-contain p-1"
        />
        <div className="min-w-0">
          <h3 className="font-bold uppercase leading-snug text-ink">{part.name}</h3>
          <p className="mt-1 text-sm text-steel">{displayBrand(part.brandName)}</p>
          <span
            className={cn(
              'mt-2 inline-block rounded px-2 py-0.5 text-xs font-bold',
              part.inStock ? 'bg-emerald-100 text-emerald-800' : 'bg-zinc-200 text-zinc-700',
            )}
          >
            {part.inStock ? part.availability || 'In Stock' : 'Out of Stock'}
          </span>
        </div>
      </div>
      <dl className="mt-4 grid grid-cols-2 gap-2 text-sm">
        <Fact label="Part number" mono>
          {part.partNumber || 'N/A'}
        </Fact>
        <Fact label="SKU" mono>
          {part.sku}
        </Fact>
        <Fact label="Qty per assembly">{line.quantity}</Fact>
        <Fact label="Serial range">{formatSerialRange(line)}</Fact>
      </dl>
      {line.note ? <p className="mt-3 text-sm text-steel">{line.note}</p> : null}
      {!fits && serial ? <p className="mt-3 rounded bg-zinc-100 px-3 py-2 text-sm font-semibold text-zinc-700">{notForSerial(serial)}</p> : null}
      {part.replacedBy ? <ReplacedByNotice replacedBy={part.replacedBy} /> : null}
      {part.crossReferences.length ? (
        <div className="mt-3 text-sm">
          <p className="font-semibold text-ink">Cross-references</p>
          <ul className="mt-1 flex flex-wrap gap-1.5" aria-label="Cross-references">
            {part.crossReferences.map((x) => (
              <li key={`${x.brand}|${x.partNumber}`} className="rounded border border-zinc-300 bg-paper px-2 py-0.5 text-xs text-ink">
                {x.brand} <span className="font-mono font-semibold">{x.partNumber}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="mt-4 flex flex-wrap gap-2">
        <Button variant="primary" onClick={() => onAdd([view])}>
          <ListPlus className="size-4" aria-hidden="true" /> Add to quote list × {line.quantity}
          <span className="sr-only"> ({part.name})</span>
        </Button>
        <ButtonLink to={productPath(part)} variant="outline">
          Part page<span className="sr-only"> ({part.name})</span> <ArrowRight className="size-4" aria-hidden="true" />
        </ButtonLink>
      </div>
    </article>
  );
}

/**
 * A callout's details (Radix's dialog, drawn as the site's other dialogs: a sheet from the bottom on a phone): every
 * line with that number (usually one; more when the part changed at a serial number), each with its part's numbers,
 * stock, successor and cross-references, "Add to quote list" with the callout's quantity, and its page.
 */
export function CalloutDialog({
  number,
  lines,
  serial,
  onClose,
  onAdd,
}: {
  /** The callout shown; null: closed. */
  number: string | null;
  lines: LineView[];
  serial: string | null;
  onClose: () => void;
  onAdd: (lines: LineView[]) => void;
}) {
  const opener = useRef<HTMLElement | null>(null);
  return (
    <Dialog.Root open={number !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/60" />
        <Dialog.Content
          aria-describedby={undefined}
          // Opened from a hotspot or a row (not a Dialog.Trigger): focus goes back there on closing.
          onOpenAutoFocus={() => {
            opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          }}
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            opener.current?.focus();
          }}
          className="fixed inset-x-0 bottom-0 z-50 max-h-[100dvh] overflow-y-auto rounded-t-xl bg-white p-5 shadow-2xl focus:outline-none sm:inset-auto sm:left-1/2 sm:top-1/2 sm:w-full sm:max-w-xl sm:-translate-x-1/2 sm:-translate-y-1/2 sm:rounded-xl sm:p-6"
        >
          <div className="flex items-start justify-between gap-3">
            <Dialog.Title className="font-display text-xl font-extrabold uppercase text-ink">Callout {number}</Dialog.Title>
            <Dialog.Close asChild>
              <button type="button" aria-label="Close" className="-m-1 shrink-0 rounded p-1 text-steel hover:text-ink">
                <X className="size-5" aria-hidden="true" />
              </button>
            </Dialog.Close>
          </div>
          <div className="mt-4">
            {lines.map((v, i) => (
              <CalloutPart key={v.key} view={v} serial={serial} first={i === 0} onAdd={onAdd} />
            ))}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
