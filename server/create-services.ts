/** The composition root: opens the database and builds every service once. */
import { CommandRegistry, type CommandDefinition } from '../shared/commands';
import { serverCommands } from './commands';
import { BUILT_IN_ROLES } from './commands/command-roles';
import type { ServerConfig } from './config';
import { openDatabaseParts } from './parts/open-database-parts';
import { openServerDatabase } from './db/server-database';
import { createIamService, type IamOptions } from './iam';
import type { Logger } from './logging/logger';
import { RecentLogs } from './logging/recent-logs';
import type { ServerServices } from './services';
import { loadScriptConfig } from './script/script-config';
import { ScriptPool } from './script/script-pool';
import { RunSlots } from './fairness/run-slots';
import { DEFAULT_RUN_LIMITS } from './fairness/run-limits-config';
import { DataSources } from './datasources/data-sources';
import { DriveService } from './drive';
import { loadDriveConfig } from './drive/drive-config';
import { MailService, loadMailConfig } from './mail';
import { createDeliveryService, loadDeliveryConfig } from './delivery';
import { createSecretService, loadSecretKeyConfig } from './secrets';
import { createRunService, loadRunHistoryConfig } from './runs';
import { Metrics } from './metrics/metrics';
import { startPropertyJobs } from './start-property-jobs';
import { JobScheduler, openJobStore } from './jobs';
import { runJob } from './jobs/run-job';
import { openWebhookStore } from './webhooks';
import { createPropertyServices } from './store/create-property-services';
import { PropertyValueCipher } from './store/property-value-cipher';
import { registerStepPreparer } from './pipeline/execute-pipeline';
import { uriPrefetcher } from './uri/prefetch-uris';
import { StoredPipelineCache } from './pipeline/stored-pipeline-cache';

export interface ServiceOptions {
  iam?: Partial<IamOptions>;
  /** The buffer the logger also writes to (`createLogger(level, recentLogs)`), for `log.list`. */
  recentLogs?: RecentLogs;
  /** More commands beside the built-in ones (tests use it to add commands that misbehave on purpose). */
  extraCommands?: CommandDefinition<ServerServices>[];
}

/** Builds the services on SQLite, or on PostgreSQL when `config.database` is set (`PIPEWORK_DATABASE_URL`). */
export async function createServices(
  config: ServerConfig,
  logger: Logger,
  options: ServiceOptions = {},
): Promise<ServerServices> {
  registerStepPreparer(uriPrefetcher);
  const database = await openServerDatabase(config, logger);
  try {
    const parts = await openDatabaseParts(database, config, logger);
    const iam = await createIamService(database.sql, config, logger, {
      builtInRoles: BUILT_IN_ROLES,
      bruteForce: config.bruteForce,
      ...parts.iam,
      ...options.iam,
    });
    const commands = new CommandRegistry<ServerServices>([
      ...serverCommands,
      ...(options.extraCommands ?? []),
    ]);
    const secrets = await createSecretService(
      database.sql,
      iam,
      config.secrets ?? loadSecretKeyConfig({}, config.dataDir),
    );
    const properties = createPropertyServices(parts, iam, logger, {
      trashBinDays: config.trashBinDays,
      cipher: new PropertyValueCipher(secrets.keys),
    });
    secrets.onRotation((next) => properties.properties.resealEncrypted(next));
    const mail = new MailService(config.mail ?? loadMailConfig({}, config.dataDir));
    const deliveries = await createDeliveryService(
      database.sql,
      mail,
      config.delivery ?? loadDeliveryConfig({}),
      () => config.publicUrl ?? `http://${config.host}:${config.port}`,
      logger,
    );
    const jobStore = await openJobStore(database.sql);
    const jobs = new JobScheduler({
      properties: properties.properties,
      store: jobStore,
      instance: database.kind === 'postgres' ? database.instanceId : 'local',
      principalOf: (uuid) => iam.principalByUuid(uuid),
      run: (job, principal) => runJob(services, job, principal),
      logger,
    });
    const runs = await createRunService(database.sql, config.runHistory ?? loadRunHistoryConfig({}), logger);
    const metrics = new Metrics({
      asyncQueueDepth: () => runs.queue.depth,
      pool: () =>
        database.kind === 'postgres'
          ? {
              total: database.pool.totalCount,
              idle: database.pool.idleCount,
              waiting: database.pool.waitingCount,
            }
          : null,
    });
    runs.recorder.onFinished((run) => metrics.observeRun(run));
    const services: ServerServices = {
      config,
      logger,
      recentLogs: options.recentLogs ?? new RecentLogs(),
      database,
      parts,
      iam,
      authenticator: iam.authenticator,
      commands,
      ...properties,
      dataSources: new DataSources(config.sql, (mask, name, configuredBy) =>
        secrets.installationCredentials(mask, name, configuredBy),
      ),
      drive: new DriveService(config.drive ?? loadDriveConfig({}, config.dataDir)),
      mail,
      deliveries,
      secrets,
      cache: parts.cache,
      jobs,
      webhooks: await openWebhookStore(database.sql),
      scripts: new ScriptPool(config.scripts ?? loadScriptConfig({})),
      runSlots: new RunSlots(config.runs ?? DEFAULT_RUN_LIMITS, config.limits.pipelineMillis),
      runs,
      metrics,
      storedPipelines: new StoredPipelineCache({ properties: properties.properties, iam }, properties.events),
    };
    services.events.subscribe((event) => metrics.observeEvent(event.timestamp));
    runs.start();
    await startPropertyJobs(services);
    return services;
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
}

/** Stops background work and closes the database. */
export async function closeServices(services: ServerServices): Promise<void> {
  await services.jobs.stop();
  services.storedPipelines.stop();
  await services.propertyJobs.stop();
  await services.runs.close();
  services.iam.close();
  services.runSlots.close();
  void services.scripts.close();
  void services.dataSources.close();
  services.mail.close();
  await services.parts.close();
  await services.database.close();
}
