/**
 * Saves what an admin GET answers (a CSV export) as a file: the call needs the session's token, so a plain link
 * will not do. `fallbackName` is used when the answer names no file.
 */
export async function downloadWithSession(path: string, token: string | undefined, fallbackName: string): Promise<void> {
  const res = await fetch(path, { headers: { Authorization: `Bearer ${token ?? ''}` }, credentials: 'include' });
  if (!res.ok) throw new Error(`${res.status}: ${await res.text().catch(() => res.statusText)}`);
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
