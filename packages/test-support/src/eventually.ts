const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Polls `probe` until it returns something other than undefined, and gives that back; fails naming `what` (and the
 * probe's last error) after `timeoutMs`. For what another process does in its own time: a mail arriving, a replica
 * started again, a job finished.
 */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s${last ? ` (last error: ${String(last)})` : ''}`);
    await sleep(everyMs);
  }
}
