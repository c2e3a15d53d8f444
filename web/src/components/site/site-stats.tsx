import { site } from '../../config/site.ts';
import { cn } from '../../lib/cn.ts';

const STATS = [
  { value: site.stats.clients, label: 'Clients Globally' },
  { value: site.stats.shipments, label: 'Shipments Delivered' },
  { value: site.stats.products, label: 'Products' },
  { value: site.stats.countries, label: 'Countries Served' },
];

/** The company's four numbers of the site configuration, for a dark band (home stats band, about "Our Numbers"). */
export function SiteStats({ className }: { className?: string }) {
  return (
    <dl className={cn('grid grid-cols-2 gap-px overflow-hidden rounded-lg bg-ink-line lg:grid-cols-4', className)}>
      {STATS.map((s) => (
        <div key={s.label} className="flex flex-col-reverse items-center bg-ink-soft px-4 py-8 text-center">
          <dt className="mt-2 text-xs font-bold uppercase tracking-[0.18em] text-zinc-300 sm:text-sm">{s.label}</dt>
          <dd className="font-display text-4xl font-extrabold text-safety sm:text-5xl">{s.value}</dd>
        </div>
      ))}
    </dl>
  );
}
