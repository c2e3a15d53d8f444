import type { ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';

/** Empty and error states: an icon, a heading, a sentence and actions. */
export function StateMessage({
  icon: Icon,
  title,
  children,
  actions,
  tone = 'neutral',
  headingLevel = 2,
}: {
  icon: LucideIcon;
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
  tone?: 'neutral' | 'error';
  headingLevel?: 1 | 2;
}) {
  const H = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center px-4 py-16 text-center">
      <span
        className={
          tone === 'error'
            ? 'mb-5 grid size-16 place-items-center rounded-full bg-red-100 text-red-700'
            : 'mb-5 grid size-16 place-items-center rounded-full bg-ink text-safety'
        }
      >
        <Icon className="size-8" aria-hidden="true" />
      </span>
      <H className="font-display text-3xl font-bold uppercase text-ink">{title}</H>
      {children ? <div className="mt-3 text-base text-steel">{children}</div> : null}
      {actions ? <div className="mt-6 flex flex-wrap justify-center gap-3">{actions}</div> : null}
    </div>
  );
}
