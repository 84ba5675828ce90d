// The service's Prometheus metrics on a prom-client registry: Node's default process and runtime
// metrics (unprefixed, as dashboards expect them), and ours under `signpost_`. Every series whose
// label values are known is exported at zero from the start, so a rate() or an alert works before
// the first event.
//
// Hot paths (the redirect, the consumers' per-event work) never go through prom-client's labelled
// `inc`/`observe`, which hash the label set and allocate on every call (about 0.1 to 0.2 µs each):
// they increment cells bound once at start. A counter's bound cells are added in when scraped;
// histograms are cells of our own, exported through the same registry.
import { Counter, Gauge, Registry, collectDefaultMetrics, type Metric } from 'prom-client';

type Labels = Record<string, string>;
type Points = Array<{ labels: Labels; value: number }>;

/** A counter with its labels bound once: what a hot path increments. */
export interface BoundCounter {
  inc(by?: number): void;
}

/** A histogram series with its labels bound once. */
export interface BoundHistogram {
  observe(value: number): void;
}

export interface HistogramFamily {
  /** The series of these label values; made on first use when its values were not declared. */
  bind(labels: Labels): BoundHistogram;
}

export interface MetricOptions {
  /** Each label with the values it takes; every combination is exported at zero from the start. Values may be open (`[]`). */
  labels?: Record<string, readonly string[]>;
  /** Values computed at every scrape, replacing what the metric held. */
  collect?: () => Points | Promise<Points>;
}

export interface Metrics {
  define(name: string, type: 'counter' | 'gauge', help: string, options?: MetricOptions): void;
  inc(name: string, labels?: Labels, by?: number): void;
  counter(name: string, labels?: Labels): BoundCounter;
  histogram(
    name: string,
    help: string,
    options: { labels: Record<string, readonly string[]>; buckets: readonly number[] },
  ): HistogramFamily;
  /** The current value of a counter or gauge series (0 when absent). */
  get(name: string, labels?: Labels): Promise<number>;
  render(): Promise<string>;
  readonly contentType: string;
}

/** Latency buckets in seconds, from a cached redirect (sub-millisecond) to a slow statistics query. */
export const LATENCY_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
] as const;

/** Every combination of the declared values (none when a label's values are open). */
function combinations(labels: Record<string, readonly string[]>): Labels[] {
  let out: Labels[] = [{}];
  for (const [name, values] of Object.entries(labels)) {
    out = out.flatMap((partial) => values.map((value) => ({ ...partial, [name]: value })));
  }
  return out;
}

const keyOf = (names: readonly string[], labels: Labels) => names.map((n) => labels[n] ?? '').join('\u0000');

interface Cell {
  labels: Labels;
  counts: Float64Array;
  sum: number;
  count: number;
}

/** A histogram of bound cells, registered as a custom metric (prom-client reads its `get`). */
function createCellHistogram(name: string, help: string, labelNames: readonly string[], buckets: readonly number[]) {
  const cells = new Map<string, Cell>();
  const bind = (labels: Labels): BoundHistogram => {
    const key = keyOf(labelNames, labels);
    let cell = cells.get(key);
    if (!cell)
      cells.set(
        key,
        (cell = { labels: { ...labels }, counts: new Float64Array(buckets.length + 1), sum: 0, count: 0 }),
      );
    const c = cell;
    return {
      observe(value) {
        let i = 0;
        while (i < buckets.length && value > buckets[i]!) i++;
        c.counts[i]! += 1;
        c.sum += value;
        c.count += 1;
      },
    };
  };
  const metric = {
    name,
    help,
    type: 'histogram',
    aggregator: 'sum',
    get: async () => {
      const values = [];
      for (const { labels, counts, sum, count } of cells.values()) {
        let cumulative = 0;
        for (let i = 0; i <= buckets.length; i++) {
          cumulative += counts[i]!;
          values.push({
            metricName: `${name}_bucket`,
            labels: { ...labels, le: i < buckets.length ? String(buckets[i]) : '+Inf' },
            value: cumulative,
          });
        }
        values.push(
          { metricName: `${name}_sum`, labels, value: sum },
          { metricName: `${name}_count`, labels, value: count },
        );
      }
      return { name, help, type: 'histogram', aggregator: 'sum', values };
    },
  };
  return { bind, metric };
}

/**
 * `onCollectError` hears of a metric whose collect failed (a store that did not answer in time):
 * that metric is left out of the scrape, never shown as 0, and every other one is still served.
 */
export function createMetrics(prefix = 'signpost_', onCollectError?: (metric: string, err: unknown) => void): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const metrics = new Map<string, Counter | Gauge>();
  const histograms = new Map<string, HistogramFamily>();
  /** Pending increments of bound counter cells, added into the counter when scraped. */
  const boundCells = new Map<string, Array<{ labels: Labels; pending: number }>>();

  const find = (name: string) => {
    const metric = metrics.get(name);
    if (!metric) throw new Error(`metric ${name} is not defined`);
    return metric;
  };

  return {
    contentType: registry.contentType,
    define(name, type, help, options = {}) {
      if (metrics.has(name)) return;
      const labels = options.labels ?? {};
      const labelNames = Object.keys(labels);
      const collected = async (): Promise<Points> => {
        try {
          return (await options.collect?.()) ?? [];
        } catch (err) {
          onCollectError?.(name, err);
          return [];
        }
      };
      const { collect } = options;
      const cells: Array<{ labels: Labels; pending: number }> = [];
      boundCells.set(name, cells);
      const metric =
        type === 'counter'
          ? new Counter({
              name: prefix + name,
              help,
              labelNames,
              registers: [registry],
              async collect() {
                if (collect) {
                  const points = await collected();
                  this.reset();
                  for (const p of points) this.inc(p.labels, p.value);
                  return;
                }
                for (const cell of cells) {
                  if (cell.pending === 0) continue;
                  this.inc(cell.labels, cell.pending);
                  cell.pending = 0;
                }
              },
            })
          : new Gauge({
              name: prefix + name,
              help,
              labelNames,
              registers: [registry],
              async collect() {
                if (!collect) return;
                const points = await collected();
                this.reset();
                for (const p of points) this.set(p.labels, p.value);
              },
            });
      if (labelNames.length > 0) {
        for (const combination of combinations(labels)) {
          if (metric instanceof Counter) metric.inc(combination, 0);
          else metric.set(combination, 0);
        }
      }
      metrics.set(name, metric);
    },
    inc(name, labels = {}, by = 1) {
      (find(name) as Counter).inc(labels, by);
    },
    counter(name, labels = {}) {
      find(name);
      const cell = { labels, pending: 0 };
      boundCells.get(name)!.push(cell);
      return { inc: (by = 1) => void (cell.pending += by) };
    },
    histogram(name, help, { labels, buckets }) {
      const known = histograms.get(name);
      if (known) return known;
      const histogram = createCellHistogram(prefix + name, help, Object.keys(labels), buckets);
      registry.registerMetric(histogram.metric as unknown as Metric);
      for (const combination of combinations(labels)) histogram.bind(combination);
      const family = { bind: histogram.bind };
      histograms.set(name, family);
      return family;
    },
    async get(name, labels = {}) {
      const metric = metrics.get(name);
      if (!metric) return 0;
      const { values } = await metric.get();
      const wanted = Object.entries(labels);
      const point = values.find((v) => {
        const have = Object.entries(v.labels).filter(([, value]) => value !== undefined);
        return have.length === wanted.length && wanted.every(([k, value]) => v.labels[k] === value);
      });
      return point?.value ?? 0;
    },
    render: () => registry.metrics(),
  };
}
