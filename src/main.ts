// Starts Signpost: configuration from the environment, the container, the port, and a graceful
// shutdown on SIGTERM or SIGINT (asking again, a moment later, exits at once).
import { createContainer } from './container.js';
import { type Config, ConfigError, loadConfig } from './shared/config.js';
import { createLogger } from './shared/logger.js';

/** Signals within this long of the first are copies of it (npm forwards what it gets). */
const SAME_REQUEST_MS = 1_500;

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
  const log = createLogger({ level: config.log.level, pretty: config.log.pretty });
  const container = await createContainer(config, log);
  await container.listen();

  // One Ctrl-C reaches the service more than once: the terminal signals the whole process group
  // (npm and the service), and npm passes it on (so does tsx's CLI, where that runs it). Signals
  // close together are that one request; one that comes later is someone asking again, and ends
  // the drain at once.
  let stoppingSince = 0;
  const stop = (signal: NodeJS.Signals) => {
    const now = Date.now();
    if (stoppingSince > 0) {
      if (now - stoppingSince < SAME_REQUEST_MS) return;
      log.warn({ signal }, 'asked again to stop: exiting now, without finishing the drain');
      process.exit(1);
    }
    stoppingSince = now;
    log.info({ signal }, 'shutting down: draining the clicks in hand (send the signal again to exit at once)');
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
  // A configuration that cannot work (found while opening the stores): its message says what to do.
  if (err instanceof ConfigError) {
    process.stderr.write(`signpost cannot start: ${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`signpost failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
