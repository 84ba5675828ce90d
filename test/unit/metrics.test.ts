// The Prometheus registry: our series prefixed beside Node's default process metrics, every
// declared series at zero from the start, bound counters and histograms, and gauges computed when
// scraped.
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/shared/metrics.js';

/** The sample lines (not comments) of an exposition that start with the prefix. */
const samples = (text: string, prefix = 'signpost_') => text.split('\n').filter((l) => l.startsWith(prefix));

describe('metrics', () => {
  it("exports Node's default process and runtime metrics unprefixed", async () => {
    const text = await createMetrics().render();
    expect(text).toMatch(/^# TYPE process_cpu_seconds_total counter$/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(text).toMatch(/^# TYPE nodejs_eventloop_lag_p99_seconds gauge$/m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes \d+/m);
  });

  it('exports every declared label value at zero before the first increment', async () => {
    const m = createMetrics();
    m.define('events_dead_lettered_total', 'counter', 'Events that could never be written', {
      labels: { reason: ['invalid', 'refused'] },
    });
    m.define('events_published_total', 'counter', 'Events held durably by the bus');
    const text = await m.render();
    expect(text).toContain(
      '# HELP signpost_events_dead_lettered_total Events that could never be written\n# TYPE signpost_events_dead_lettered_total counter\n',
    );
    expect(samples(text)).toEqual([
      'signpost_events_dead_lettered_total{reason="invalid"} 0',
      'signpost_events_dead_lettered_total{reason="refused"} 0',
      'signpost_events_published_total 0',
    ]);
  });

  it('adds up counters per label set, whatever the order of the labels, bound or not', async () => {
    const m = createMetrics('app_');
    m.define('requests_total', 'counter', 'Requests', { labels: { method: [], status: [] } });
    m.inc('requests_total', { method: 'GET', status: '200' });
    m.inc('requests_total', { status: '200', method: 'GET' }, 2);
    const bound = m.counter('requests_total', { method: 'POST', status: '200' });
    bound.inc();
    bound.inc(4);
    expect(await m.get('requests_total', { status: '200', method: 'GET' })).toBe(3);
    expect(await m.get('requests_total', { method: 'POST', status: '200' })).toBe(5);
    expect(await m.get('requests_total', { method: 'PUT', status: '200' })).toBe(0);
    expect(await m.get('never_defined')).toBe(0);
    bound.inc();
    expect(samples(await m.render(), 'app_')).toEqual([
      'app_requests_total{method="GET",status="200"} 3',
      'app_requests_total{method="POST",status="200"} 6',
    ]);
  });

  it('leaves a metric whose collect fails out of the scrape, says which, and serves every other one', async () => {
    const failures: string[] = [];
    const m = createMetrics('signpost_', (metric) => failures.push(metric));
    let up = false;
    m.define('bus_pending', 'gauge', 'Backlog', {
      labels: { consumer: [] },
      collect: async () => {
        if (!up) throw new Error('TIMEOUT');
        return [{ labels: { consumer: 'clicks' }, value: 3 }];
      },
    });
    m.define('events_published_total', 'counter', 'Events held durably by the bus');
    expect(samples(await m.render())).toEqual(['signpost_events_published_total 0']);
    expect(failures).toEqual(['bus_pending']);
    up = true;
    expect(samples(await m.render())).toEqual([
      'signpost_bus_pending{consumer="clicks"} 3',
      'signpost_events_published_total 0',
    ]);
  });

  it('refuses to count a metric that was never defined', () => {
    expect(() => createMetrics().inc('typo_total')).toThrow(/typo_total is not defined/);
  });

  it('escapes backslashes, quotes and newlines in label values', async () => {
    const m = createMetrics();
    m.define('odd_total', 'counter', 'Odd', { labels: { path: [] } });
    m.inc('odd_total', { path: 'C:\\temp\\"x"\nnext' });
    expect(samples(await m.render())).toEqual(['signpost_odd_total{path="C:\\\\temp\\\\\\"x\\"\\nnext"} 1']);
  });

  it('computes collected gauges at every scrape, synchronous or not', async () => {
    const m = createMetrics();
    let backlog = 4;
    m.define('event_backlog', 'gauge', 'Events not yet held by the bus', {
      collect: () => [{ labels: {}, value: backlog }],
    });
    m.define('bus_pending', 'gauge', 'Unacknowledged messages', {
      labels: { consumer: [] },
      collect: async () => [
        { labels: { consumer: 'olap-writer' }, value: backlog * 2 },
        { labels: { consumer: 'webhooks' }, value: 0 },
      ],
    });
    const first = await m.render();
    expect(first).toContain('# TYPE signpost_event_backlog gauge\n');
    expect(samples(first)).toEqual([
      'signpost_event_backlog 4',
      'signpost_bus_pending{consumer="olap-writer"} 8',
      'signpost_bus_pending{consumer="webhooks"} 0',
    ]);
    backlog = 0;
    expect(samples(await m.render())).toEqual([
      'signpost_event_backlog 0',
      'signpost_bus_pending{consumer="olap-writer"} 0',
      'signpost_bus_pending{consumer="webhooks"} 0',
    ]);
  });

  it('renders histograms as cumulative buckets with sum and count, declared series at zero', async () => {
    const m = createMetrics();
    const h = m.histogram('redirect_duration_seconds', 'Redirects', {
      labels: { status: ['302', '404'] },
      buckets: [0.001, 0.01],
    });
    const found = h.bind({ status: '302' });
    found.observe(0.0005);
    found.observe(0.001);
    found.observe(0.005);
    found.observe(3);
    expect(samples(await m.render())).toEqual([
      'signpost_redirect_duration_seconds_bucket{status="302",le="0.001"} 2',
      'signpost_redirect_duration_seconds_bucket{status="302",le="0.01"} 3',
      'signpost_redirect_duration_seconds_bucket{status="302",le="+Inf"} 4',
      'signpost_redirect_duration_seconds_sum{status="302"} 3.0065',
      'signpost_redirect_duration_seconds_count{status="302"} 4',
      'signpost_redirect_duration_seconds_bucket{status="404",le="0.001"} 0',
      'signpost_redirect_duration_seconds_bucket{status="404",le="0.01"} 0',
      'signpost_redirect_duration_seconds_bucket{status="404",le="+Inf"} 0',
      'signpost_redirect_duration_seconds_sum{status="404"} 0',
      'signpost_redirect_duration_seconds_count{status="404"} 0',
    ]);
    expect(m.histogram('redirect_duration_seconds', 'again', { labels: { status: [] }, buckets: [1] })).toBe(h);
  });
});
