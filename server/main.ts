/** Starts the service: reads the configuration, opens the store, listens, and shuts down cleanly. */
import { createApp } from './app';
import { answerClientErrors } from './http/client-error';
import { loadConfig } from './config';
import { closeServices, createServices } from './create-services';
import { createLogger } from './logging/logger';

const config = loadConfig();
const logger = createLogger(config.logLevel);
const services = createServices(config, logger);
const server = createApp(services).listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info({ url: `http://${config.host}:${port}`, data: config.dataDir }, 'Pipework is listening');
});
answerClientErrors(server);
server.on('error', (error) => {
  logger.fatal({ err: error }, 'cannot listen');
  process.exit(1);
});

function shutdown(signal: string): void {
  logger.info({ signal }, 'shutting down');
  server.close(() => {
    closeServices(services);
    process.exit(0);
  });
  server.closeAllConnections();
  setTimeout(() => process.exit(0), 5000).unref();
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
