// The process's metrics: the registry every part defines its own in, the runtime's gauges (the
// event loop's delay, what the bus holds unacknowledged), and the server METRICS_PORT gives them.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createMetricsServer } from '../api/metrics-server.js';
import type { Bus } from '../ingest/bus.js';
import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';
import { createMetrics, type Metrics } from '../shared/metrics.js';

export function composeMetrics(log: Logger): Metrics {
  // A metric whose store does not answer in time (JetStream's consumer info on a busy server) is
  // left out of that scrape; the rest of /metrics still answers.
  return createMetrics(undefined, (metric, err) =>
    log.warn({ err, metric }, 'a metric could not be collected for /metrics'),
  );
}

/** The event loop's delay and the bus's pending messages; `stop` ends the loop's monitoring. */
export function defineRuntimeMetrics(ctx: { metrics: Metrics; bus: Bus }): { stop(): void } {
  const { metrics, bus } = ctx;
  // How late the event loop runs what is due. A redirect waits this long, and so does an event on
  // its way to the bus: what a crash can lose is the batch delay plus this.
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  metrics.define('event_loop_delay_seconds', 'gauge', 'Event-loop delay since the previous scrape: p99 and max', {
    labels: { quantile: ['0.99', '1'] },
    collect: () => {
      const points = [
        { labels: { quantile: '0.99' }, value: loopDelay.percentile(99) / 1e9 },
        { labels: { quantile: '1' }, value: loopDelay.max / 1e9 },
      ];
      loopDelay.reset();
      return points;
    },
  });
  metrics.define('bus_pending', 'gauge', 'Messages a consumer has not acknowledged yet', {
    labels: { consumer: [] },
    collect: async () => {
      const { pending } = await bus.stats();
      return Object.entries(pending).map(([consumer, value]) => ({ labels: { consumer }, value }));
    },
  });
  return { stop: () => loopDelay.disable() };
}

export interface MetricsPort {
  /** Binds METRICS_PORT; nothing without one. */
  listen(): Promise<void>;
  /** Its address once listening; undefined without one. */
  address(): string | undefined;
  close(): Promise<void>;
}

/** METRICS_PORT's server: scrapes go on during the drain; it closes with the stores. */
export function composeMetricsPort(ctx: {
  config: Pick<Config, 'metrics' | 'server'>;
  metrics: Metrics;
  log: Logger;
}): MetricsPort {
  const { config, log } = ctx;
  const server =
    config.metrics.port === undefined
      ? undefined
      : createMetricsServer({
          metrics: ctx.metrics,
          token: config.metrics.token,
          onError: (err) => log.error({ err }, 'metrics scrape failed'),
        });
  const address = () => {
    const bound = server?.address();
    if (!bound) return undefined;
    return typeof bound === 'string'
      ? bound
      : `http://${bound.family === 'IPv6' ? `[${bound.address}]` : bound.address}:${bound.port}`;
  };
  return {
    address,
    async listen() {
      if (!server) return;
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.metrics.port, config.server.host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      log.info({ address: address() }, 'metrics listening');
    },
    async close() {
      if (!server?.listening) return;
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      await closed;
    },
  };
}
