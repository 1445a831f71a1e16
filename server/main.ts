/** Starts the service: reads the configuration, opens the store, listens, and on SIGTERM drains and shuts down. */
import { createApp } from './app';
import { loadConfig } from './config';
import { closeServices, createServices } from './create-services';
import { trackRequests } from './http/graceful-shutdown';
import { createHttpServer } from './http/http-server';
import { DEFAULT_LISTENER_CONFIG } from './http/listener-config';
import { createLogger } from './logging/logger';
import { RecentLogs } from './logging/recent-logs';

const config = (() => {
  try {
    return loadConfig();
  } catch (error) {
    // A wrong setting is the operator's to fix: one line saying which, not a stack trace.
    process.stderr.write(
      `Pipework cannot start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  }
})();
const recentLogs = new RecentLogs();
const logger = createLogger(config.logLevel, undefined, recentLogs);
const listener = config.listener ?? DEFAULT_LISTENER_CONFIG;
const services = await createServices(config, logger, { recentLogs }).catch((error: unknown) => {
  logger.fatal({ err: error }, 'cannot start: the database could not be opened');
  process.exit(1);
});
const server = createHttpServer(createApp(services), listener);
const requests = trackRequests(server);
server.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info({ url: `http://${config.host}:${port}`, data: config.dataDir }, 'Pipework is listening');
});
server.on('error', (error) => {
  logger.fatal({ err: error }, 'cannot listen');
  process.exit(1);
});

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal, inFlight: requests.inFlight }, 'stopping: no new connections, draining requests');
  const result = await requests.drain(listener.shutdownGraceMs);
  await closeServices(services);
  logger.info(result, 'stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
