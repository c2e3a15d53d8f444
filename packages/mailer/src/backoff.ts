/**
 * Exponential backoff for unsent mail: base, 2x base, 4x base ... capped at max, with up to 20% jitter taken off
 * so that mails failing together do not retry together. `attempts` counts attempts made so far (>= 1).
 */
export function retryDelayMs(attempts: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const exp = Math.min(maxMs, baseMs * 2 ** Math.min(Math.max(attempts - 1, 0), 30));
  return Math.max(1, Math.round(exp * (1 - 0.2 * random())));
}
