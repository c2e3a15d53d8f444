import { site } from '../../config/site.ts';
import { cn } from '../../lib/cn.ts';
import { siteIcons } from '../../lib/site-icons.ts';

/**
 * The five trust indicators of the site configuration as icon cards (home "Why Choose Us", about "Why Customers
 * Trust Us"). `on` is the section's background: cards on paper are white and raised, cards on white are paper.
 */
export function TrustIndicatorList({ on, className }: { on: 'paper' | 'white'; className?: string }) {
  return (
    <ul className={cn('grid gap-4 sm:grid-cols-2 lg:grid-cols-5', className)}>
      {site.trustIndicators.map((t) => {
        const Icon = siteIcons[t.icon];
        return (
          <li
            key={t.title}
            className={cn('rounded-lg border border-zinc-200 p-6 text-center', on === 'paper' ? 'bg-white shadow-sm' : 'bg-paper')}
          >
            <span className="mx-auto grid size-14 place-items-center rounded-full bg-safety text-ink">
              <Icon className="size-7" aria-hidden="true" />
            </span>
            <h3 className="mt-4 font-display text-xl font-bold uppercase text-ink">{t.title}</h3>
            <p className="mt-2 text-sm leading-relaxed text-steel">{t.description}</p>
          </li>
        );
      })}
    </ul>
  );
}
