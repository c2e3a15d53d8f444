/** One sample of a Prometheus text exposition: `name{labels} value`. */
export interface PromSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Every sample of a Prometheus text exposition (comments and blank lines skipped); a line that is not one throws. */
export function parsePrometheusText(text: string): PromSample[] {
  const out: PromSample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!m) throw new Error(`not Prometheus text: ${line}`);
    const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!]));
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

/** A sample as a series selector promtool and PromQL read: `name{a="1",b="2"}`. */
export function seriesOf(name: string, labels: Record<string, string>): string {
  return `${name}{${Object.entries(labels).map(([k, v]) => `${k}="${v}"`).join(',')}}`;
}
