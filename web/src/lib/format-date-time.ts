/** A moment as staff read it in the admin panel ("25 Nov 2026, 22:32"); `seconds` for the audit log's order of events. */
export function formatDateTime(iso: string, opts: { seconds?: boolean } = {}): string {
  return new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: opts.seconds ? 'medium' : 'short' });
}
