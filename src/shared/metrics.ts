// A small Prometheus registry: counters and gauges with fixed label sets, rendered as text
// exposition format at /metrics. Enough for our counters; no dependency needed.

type Labels = Record<string, string>;

interface Series {
  help: string;
  type: 'counter' | 'gauge';
  values: Map<string, { labels: Labels; value: number }>;
  /** Gauges may be computed when scraped. */
  collect?: () => Promise<Array<{ labels: Labels; value: number }>> | Array<{ labels: Labels; value: number }>;
}

/** A counter with its labels bound once: what a hot path increments. */
export interface Counter {
  inc(by?: number): void;
}

export interface Metrics {
  inc(name: string, labels?: Labels, by?: number): void;
  counter(name: string, labels?: Labels): Counter;
  set(name: string, labels: Labels, value: number): void;
  get(name: string, labels?: Labels): number;
  define(name: string, type: 'counter' | 'gauge', help: string, collect?: Series['collect']): void;
  render(): Promise<string>;
}

const key = (labels: Labels) => JSON.stringify(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)));
const escapeLabelValue = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

export function createMetrics(prefix = 'signpost_'): Metrics {
  const series = new Map<string, Series>();
  const ensure = (name: string, type: Series['type']) => {
    let s = series.get(name);
    if (!s) {
      s = { help: name, type, values: new Map() };
      series.set(name, s);
    }
    return s;
  };
  return {
    define(name, type, help, collect) {
      const s = ensure(name, type);
      s.help = help;
      s.type = type;
      if (collect) s.collect = collect;
    },
    counter(name, labels = {}) {
      const s = ensure(name, 'counter');
      const k = key(labels);
      let point = s.values.get(k);
      if (!point) s.values.set(k, (point = { labels, value: 0 }));
      const bound = point;
      return { inc: (by = 1) => void (bound.value += by) };
    },
    inc(name, labels = {}, by = 1) {
      const s = ensure(name, 'counter');
      const k = key(labels);
      const cur = s.values.get(k);
      if (cur) cur.value += by;
      else s.values.set(k, { labels, value: by });
    },
    set(name, labels, value) {
      ensure(name, 'gauge').values.set(key(labels), { labels, value });
    },
    get(name, labels = {}) {
      return series.get(name)?.values.get(key(labels))?.value ?? 0;
    },
    async render() {
      const lines: string[] = [];
      for (const [name, s] of series) {
        const full = prefix + name;
        lines.push(`# HELP ${full} ${s.help}`, `# TYPE ${full} ${s.type}`);
        const points = s.collect ? await s.collect() : [...s.values.values()];
        for (const p of points) {
          const labelText = Object.entries(p.labels).map(([k, v]) => `${k}="${escapeLabelValue(v)}"`).join(',');
          lines.push(`${full}${labelText ? `{${labelText}}` : ''} ${p.value}`);
        }
      }
      return `${lines.join('\n')}\n`;
    },
  };
}
