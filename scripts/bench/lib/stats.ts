import os from 'node:os';
/** Figures for the bench scripts' markdown tables. */

/** The value at percentile `p` (0-100] of an ascending list; NaN when it is empty. */
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;

/** `1,234.5`: thousands separated, exactly `digits` decimals. */
export const fmt = (n: number, digits = 1) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The machine's load average, `1.2 / 0.9 / 0.7` (1, 5 and 15 minutes): printed beside figures taken on it. */
export const machineLoad = () => os.loadavg().map((n) => n.toFixed(1)).join(' / ');
