import type { FleetUnit } from '@forgeline/contracts/account';

/** "Caterpillar 777G · S/N LAJ00123 · 12,400 h" */
export const unitDetails = (u: Pick<FleetUnit, 'make' | 'model' | 'serial' | 'hours'>) =>
  [`${u.make} ${u.model}`, u.serial ? `S/N ${u.serial}` : null, u.hours !== null ? `${u.hours.toLocaleString('en')} h` : null].filter(Boolean).join(' · ');

/** "27 Nov 2026" */
export const formatDate = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { dateStyle: 'medium' });

/** "1,240.00 USD + 80.00 EUR", or null when nothing is priced. */
export const formatTotals = (totals: readonly { currency: string; total: number }[]) =>
  totals.length ? totals.map((t) => `${t.total.toLocaleString('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${t.currency}`).join(' + ') : null;

export const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** A small select in a row of buttons (a member's role, a list's status filter): the form control's look, button-sized. */
export const compactSelectClass =
  'block h-9 rounded-md border border-zinc-300 bg-white px-2 text-sm text-ink focus:border-ink focus:outline-none focus:ring-2 focus:ring-safety disabled:bg-zinc-100';
