import type { ReactNode } from 'react';

/** The dark title band every static page opens with: eyebrow, h1 and an intro line. */
export function PageHero({ eyebrow, title, children }: { eyebrow: string; title: string; children?: ReactNode }) {
  return (
    <section className="relative overflow-hidden bg-ink text-white">
      <div
        className="absolute inset-0 opacity-[0.07]"
        style={{ backgroundImage: 'repeating-linear-gradient(-45deg, #fff 0 1px, transparent 1px 14px)' }}
        aria-hidden="true"
      />
      <div className="container-page relative py-14 sm:py-20">
        <p className="text-sm font-extrabold uppercase tracking-[0.2em] text-safety">{eyebrow}</p>
        <h1 className="mt-3 max-w-3xl font-display text-4xl font-extrabold uppercase leading-[0.95] sm:text-6xl">{title}</h1>
        {children ? <div className="mt-5 max-w-2xl text-lg leading-relaxed text-zinc-300">{children}</div> : null}
      </div>
      <div className="hazard-stripe h-1.5" aria-hidden="true" />
    </section>
  );
}
