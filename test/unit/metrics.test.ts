// The Prometheus registry: counters and gauges as text exposition format, label escaping, and
// gauges computed when scraped.
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/shared/metrics.js';

/** The sample lines (not comments) of an exposition. */
const samples = (text: string) => text.split('\n').filter((l) => l !== '' && !l.startsWith('#'));

describe('metrics', () => {
  it('renders HELP and TYPE before the samples of each metric, prefixed, ending in a newline', async () => {
    const m = createMetrics();
    m.define('events_written_total', 'counter', 'Events inserted into ClickHouse');
    m.inc('events_written_total', { table: 'api_requests' }, 5);
    m.inc('events_written_total', { table: 'clicks' });
    const text = await m.render();
    expect(text.endsWith('\n')).toBe(true);
    expect(text.split('\n')).toEqual([
      '# HELP signpost_events_written_total Events inserted into ClickHouse',
      '# TYPE signpost_events_written_total counter',
      'signpost_events_written_total{table="api_requests"} 5',
      'signpost_events_written_total{table="clicks"} 1',
      '',
    ]);
  });

  it('adds up counters per label set, whatever the order of the labels', async () => {
    const m = createMetrics('app_');
    m.inc('requests_total', { method: 'GET', status: '200' });
    m.inc('requests_total', { status: '200', method: 'GET' }, 2);
    m.inc('requests_total', { method: 'POST', status: '200' });
    m.inc('requests_total');
    expect(m.get('requests_total', { status: '200', method: 'GET' })).toBe(3);
    expect(m.get('requests_total', { method: 'POST', status: '200' })).toBe(1);
    expect(m.get('requests_total')).toBe(1);
    expect(m.get('requests_total', { method: 'PUT' })).toBe(0);
    expect(m.get('never_defined')).toBe(0);
    expect(samples(await m.render())).toEqual([
      'app_requests_total{method="GET",status="200"} 3',
      'app_requests_total{method="POST",status="200"} 1',
      'app_requests_total 1',
    ]);
  });

  it('escapes backslashes, quotes and newlines in label values', async () => {
    const m = createMetrics();
    m.inc('odd_total', { path: 'C:\\temp\\"x"\nnext' });
    expect(samples(await m.render())).toEqual(['signpost_odd_total{path="C:\\\\temp\\\\\\"x\\"\\nnext"} 1']);
  });

  it('replaces a gauge value on set, and uses the name as help until one is defined', async () => {
    const m = createMetrics();
    m.set('queue_depth', { queue: 'a' }, 7);
    m.set('queue_depth', { queue: 'a' }, 3);
    expect(m.get('queue_depth', { queue: 'a' })).toBe(3);
    const text = await m.render();
    expect(text).toContain('# HELP signpost_queue_depth queue_depth\n# TYPE signpost_queue_depth gauge\n');
    expect(samples(text)).toEqual(['signpost_queue_depth{queue="a"} 3']);
  });

  it('computes collected gauges at every scrape, synchronous or not', async () => {
    const m = createMetrics();
    let backlog = 4;
    m.define('event_backlog', 'gauge', 'Events not yet held by the bus', () => [{ labels: {}, value: backlog }]);
    m.define('bus_pending', 'gauge', 'Unacknowledged messages', async () => [
      { labels: { consumer: 'olap-writer' }, value: backlog * 2 },
      { labels: { consumer: 'webhooks' }, value: 0 },
    ]);
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

  it('lists a defined metric with no samples yet by its HELP and TYPE only', async () => {
    const m = createMetrics();
    m.define('events_dead_lettered_total', 'counter', 'Events that could never be written');
    expect(await m.render()).toBe(
      '# HELP signpost_events_dead_lettered_total Events that could never be written\n# TYPE signpost_events_dead_lettered_total counter\n',
    );
    m.inc('events_dead_lettered_total', { reason: 'undecodable' });
    expect(samples(await m.render())).toEqual(['signpost_events_dead_lettered_total{reason="undecodable"} 1']);
  });
});
