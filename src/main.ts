// Starts Signpost: configuration from the environment, the container, the port, and a graceful
// shutdown on SIGTERM or SIGINT (a second signal exits at once).
import { createContainer } from './container.js';
import { type Config, ConfigError, loadConfig } from './shared/config.js';
import { createLogger } from './shared/logger.js';

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const log = createLogger({ level: config.logLevel, pretty: config.logPretty });
  const container = await createContainer(config, log);
  await container.listen();

  let signals = 0;
  const stop = (signal: NodeJS.Signals) => {
    signals++;
    if (signals > 1) {
      log.warn({ signal }, 'second signal, exiting now');
      process.exit(1);
    }
    log.info({ signal }, 'shutting down');
    container.close().then(
      () => process.exit(0),
      (err) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err) => {
  process.stderr.write(`signpost failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
