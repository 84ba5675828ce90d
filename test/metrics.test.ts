// /metrics over real HTTP: Node's process metrics, the event pipeline's counters and lag and the
// redirect's histogram present at zero before any traffic; answers timed by route pattern (never
// the raw URL), redirects in a histogram of their own; one access-log line per request at info,
// redirects by sample (ACCESS_LOG_REDIRECT_SAMPLE). METRICS_PORT moves /metrics off the service's
// port and METRICS_TOKEN puts it behind a bearer token.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from './support/error-body.js';
import { eventually, isolate, startService, type Isolation, type TestService } from './support/service.js';

const METRICS_TOKEN = 'scrape-token-0123456789abcdef';

/** The value of one sample line (`name{labels} value`), or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** Log lines as pino writes them. */
function logCollector() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n'))
        if (text.trim() !== '') lines.push(JSON.parse(text) as Record<string, unknown>);
      done();
    },
  });
  return { lines, stream };
}

describe('metrics on the service port', () => {
  let isolation: Isolation;
  let svc: TestService;
  let base: string;
  const logs = logCollector();

  beforeAll(async () => {
    isolation = await isolate();
    svc = await startService(
      isolation,
      { LOG_LEVEL: 'info', ACCESS_LOG_REDIRECT_SAMPLE: '1' },
      { logDestination: logs.stream },
    );
    base = (await svc.container.listen()).replace('127.0.0.1', 'localhost');
  });

  afterAll(async () => {
    await svc?.close();
    await isolation?.dispose();
  });

  it('exports process metrics and the pipeline, redirect and webhook series at zero before any traffic', async () => {
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    for (const line of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(sample(text, line), line).toBeGreaterThanOrEqual(0);
    }
    for (const series of [
      'signpost_events_accepted_total{type="click"}',
      'signpost_events_accepted_total{type="api_request"}',
      'signpost_events_published_total',
      'signpost_events_dropped_total{reason="closed"}',
      'signpost_events_written_total{table="clicks"}',
      'signpost_events_dead_lettered_total{reason="refused"}',
      'signpost_event_write_lag_seconds_count{table="clicks"}',
      'signpost_redirects_total{outcome="redirect"}',
      'signpost_redirects_total{outcome="not_found"}',
      'signpost_redirect_duration_seconds_count{status="302"}',
      'signpost_redirect_duration_seconds_bucket{status="302",le="+Inf"}',
      'signpost_webhook_attempts_total{result="success"}',
      'signpost_webhook_attempts_total{result="gave_up"}',
    ]) {
      expect(sample(text, series), series).toBe(0);
    }
  });

  it('times a redirect in its own histogram and every other answer by route pattern and status, logging each at info', async () => {
    const org = await svc.createOrganization('Metrics', 'PRO');
    const link = await svc.createLink(org, { url: 'https://shop.example/sale' });
    const read = await fetch(`${base}/api/v1/service/urls/${link.id}`, { headers: { 'x-api-key': org.apiKey } });
    expect(read.status).toBe(200);
    expect(
      (await fetch(`${base}/api/v1/service/urls/999999999`, { headers: { 'x-api-key': org.apiKey } })).status,
    ).toBe(404);
    // Twice: the first fills the link cache through the router, the second is the fast path.
    for (let i = 0; i < 2; i++) {
      const click = await fetch(`${base}/${link.shortCode}?cid=user-42`, {
        redirect: 'manual',
        headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0' },
      });
      expect(click.status).toBe(302);
    }
    expect((await fetch(`${base}/nosuchcode1`, { redirect: 'manual' })).status).toBe(404);

    const text = await (await fetch(`${base}/metrics`)).text();
    expect(sample(text, 'signpost_redirect_duration_seconds_count{status="302"}')).toBe(2);
    expect(sample(text, 'signpost_redirect_duration_seconds_count{status="404"}')).toBe(1);
    expect(
      sample(
        text,
        'signpost_http_request_duration_seconds_count{method="GET",route="/api/v1/service/urls/:id",status="200"}',
      ),
    ).toBe(1);
    expect(
      sample(
        text,
        'signpost_http_request_duration_seconds_count{method="GET",route="/api/v1/service/urls/:id",status="404"}',
      ),
    ).toBe(1);
    // Ids and codes never become label values.
    expect(text).not.toContain(`/urls/${link.id}"`);
    expect(text).not.toContain(link.shortCode);
    expect(text).not.toContain('nosuchcode1');

    const lines = logs.lines.filter((l) => l.msg === 'request');
    const apiRead = lines.find((l) => l.path === `/api/v1/service/urls/${link.id}`);
    expect(apiRead).toMatchObject({ level: 30, method: 'GET', route: '/api/v1/service/urls/:id', status: 200 });
    expect(typeof apiRead?.ms).toBe('number');
    expect(typeof apiRead?.reqId).toBe('string');
    const clicks = lines.filter((l) => l.path === `/${link.shortCode}`);
    expect(clicks.map((l) => [l.route, l.status])).toEqual([
      ['/:slug', 302],
      ['/:slug', 302],
    ]);
    // The query string (a visitor's cid, tokens) stays out of the log.
    expect(JSON.stringify(logs.lines)).not.toContain('user-42');

    // The bus's time to hold a batch, since the previous scrape: seen in some scrape after the clicks went.
    const publishDelays: number[] = [];
    const first = sample(text, 'signpost_event_publish_delay_seconds{quantile="1"}');
    if (first !== undefined) publishDelays.push(first);
    await eventually(
      async () => {
        const after = await (await fetch(`${base}/metrics`)).text();
        const delay = sample(after, 'signpost_event_publish_delay_seconds{quantile="1"}');
        if (delay !== undefined) publishDelays.push(delay);
        return (
          sample(after, 'signpost_events_written_total{table="clicks"}') === 2 &&
          sample(after, 'signpost_event_write_lag_seconds_count{table="clicks"}') === 2
        );
      },
      10_000,
      'the two clicks written and their lag observed',
    );
    expect(publishDelays.length).toBeGreaterThan(0);
    for (const seconds of publishDelays) expect(seconds).toBeGreaterThan(0);
    expect(Math.max(...publishDelays)).toBeLessThan(10);
  });

  it('logs probes and scrapes at debug, not at info', async () => {
    const before = logs.lines.length;
    await fetch(`${base}/healthz`);
    await fetch(`${base}/metrics`);
    expect(logs.lines.slice(before).filter((l) => l.msg === 'request')).toEqual([]);
  });

  it('still answers every other series while the bus cannot say its backlog, leaving that gauge out rather than 0', async () => {
    const bus = svc.container.bus;
    expect(sample(await (await fetch(`${base}/metrics`)).text(), 'signpost_bus_pending{consumer="olap-clicks"}')).toBe(
      0,
    );
    // What a JetStream server too busy to answer a consumer-info request in time does.
    const stats = bus.stats;
    bus.stats = () => Promise.reject(new Error('TIMEOUT'));
    try {
      const response = await fetch(`${base}/metrics`);
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(sample(text, 'signpost_bus_pending{consumer="olap-clicks"}')).toBeUndefined();
      expect(sample(text, 'signpost_events_published_total')).toBeGreaterThanOrEqual(0);
      expect(
        logs.lines.some((l) => l.msg === 'a metric could not be collected for /metrics' && l.metric === 'bus_pending'),
      ).toBe(true);
    } finally {
      bus.stats = stats;
    }
    expect(sample(await (await fetch(`${base}/metrics`)).text(), 'signpost_bus_pending{consumer="olap-clicks"}')).toBe(
      0,
    );
  });
});

describe('metrics on METRICS_PORT behind METRICS_TOKEN', () => {
  let isolation: Isolation;
  let svc: TestService;
  let base: string;
  let metricsBase: string;

  beforeAll(async () => {
    isolation = await isolate();
    svc = await startService(isolation, { METRICS_PORT: '0', METRICS_TOKEN, ACCESS_LOG_REDIRECT_SAMPLE: '0' });
    base = await svc.container.listen();
    metricsBase = svc.container.metricsAddress()!;
  });

  afterAll(async () => {
    await svc?.close();
    await isolation?.dispose();
  });

  it('serves /metrics on its own port with the token, and nothing else there', async () => {
    expect(metricsBase).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(metricsBase).not.toBe(base);
    const res = await fetch(`${metricsBase}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(sample(await res.text(), 'signpost_events_published_total')).toBe(0);
    const other = await fetch(`${metricsBase}/healthz`);
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ status: 404, code: 'ROUTE_NOT_FOUND' });
  });

  it('refuses a scrape without the token or with a wrong one: 401 with the error body', async () => {
    const attempts: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer wrong-token-0123456789abcdef' },
      { authorization: METRICS_TOKEN },
    ];
    for (const headers of attempts) {
      const res = await fetch(`${metricsBase}/metrics`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      const body = (await res.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['code', 'error', 'message', 'status', 'timestamp']);
      expect(body).toMatchObject({ status: 401, error: 'Unauthorized', code: 'METRICS_TOKEN_INVALID' });
    }
  });

  it('no longer answers /metrics on the service port', async () => {
    expectError(
      await svc.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } }),
      404,
      { code: 'ROUTE_NOT_FOUND' },
    );
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });
});

describe('metrics token on the service port', () => {
  let isolation: Isolation;
  let svc: TestService;

  beforeAll(async () => {
    isolation = await isolate();
    svc = await startService(isolation, { METRICS_TOKEN });
  });

  afterAll(async () => {
    await svc?.close();
    await isolation?.dispose();
  });

  it('answers /metrics only with the bearer token', async () => {
    expectError(await svc.inject({ method: 'GET', url: '/metrics' }), 401, { code: 'METRICS_TOKEN_INVALID' });
    const res = await svc.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('# TYPE process_cpu_seconds_total counter');
  });
});
