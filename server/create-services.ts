/** The composition root: opens the database and builds every service once. */
import { CommandRegistry, type CommandDefinition } from '../shared/commands';
import { serverCommands } from './commands';
import type { ServerConfig } from './config';
import { openDatabase } from './db';
import { createIamService, type IamOptions } from './iam';
import type { Logger } from './logging/logger';
import type { ServerServices } from './services';
import { loadScriptConfig } from './script/script-config';
import { ScriptPool } from './script/script-pool';
import { DataSources } from './sql/data-sources';
import { MemoryCacheStore, loadCacheConfig } from './cache';
import { DriveService } from './drive';
import { loadDriveConfig } from './drive/drive-config';
import { MailService, loadMailConfig } from './mail';
import { startPropertyJobs } from './start-property-jobs';
import { createPropertyServices } from './store/create-property-services';

export interface ServiceOptions {
  iam?: IamOptions;
  /** More commands beside the built-in ones (tests use it to add commands that misbehave on purpose). */
  extraCommands?: CommandDefinition<ServerServices>[];
}

export function createServices(
  config: ServerConfig,
  logger: Logger,
  options: ServiceOptions = {},
): ServerServices {
  const db = openDatabase(config.databaseFile);
  const iam = createIamService(db, config, logger, options.iam);
  const commands = new CommandRegistry<ServerServices>([...serverCommands, ...(options.extraCommands ?? [])]);
  const properties = createPropertyServices(db, iam, logger);
  const dataSources = new DataSources(config.sql);
  const services = {
    config,
    logger,
    db,
    iam,
    authenticator: iam.authenticator,
    commands,
    ...properties,
    dataSources,
    drive: new DriveService(config.drive ?? loadDriveConfig({}, config.dataDir)),
    mail: new MailService(config.mail ?? loadMailConfig({}, config.dataDir)),
    cache: new MemoryCacheStore(config.cache ?? loadCacheConfig({})),
    scripts: new ScriptPool(config.scripts ?? loadScriptConfig({})),
  };
  startPropertyJobs(services);
  return services;
}

/** Stops background work and closes the database. */
export function closeServices(services: ServerServices): void {
  services.propertyJobs.stop();
  void services.scripts.close();
  void services.dataSources.close();
  services.mail.close();
  services.db.close();
}
