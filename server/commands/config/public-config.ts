/**
 * The instance's configuration as `config.get` shows it: what a pipeline or client may know (version, URL,
 * limits, which optional parts are set up). Built from an allowlist, so no secret can slip in: the SMTP URL,
 * key secrets, data source URLs and passwords are never read here, only whether they are set.
 */
import { instanceInfo } from '../../pipeline/instance-utility';
import type { ServerServices } from '../../services';

export type PublicConfig = Record<string, Record<string, unknown>>;

export function publicConfig(services: ServerServices): PublicConfig {
  const { config } = services;
  const instance = instanceInfo(services, {});
  const mail = services.mail.config;
  return {
    instance: {
      version: instance.version,
      name: instance.name,
      url: instance.url,
      stage: instance.stage,
      profiles: config.profiles,
    },
    limits: {
      commandBodyBytes: config.limits.commandBodyBytes,
      pipelineBodyBytes: config.limits.pipelineBodyBytes,
      pipelineSteps: config.limits.pipelineSteps,
      pipelineMillis: config.limits.pipelineMillis,
      driveFileBytes: services.drive.maxFileBytes,
    },
    mail: {
      smtpConfigured: services.mail.smtpConfigured,
      outbox: !services.mail.smtpConfigured,
      from: mail.from,
      fromName: mail.fromName ?? null,
    },
    cache: {
      maxEntries: config.cache?.maxEntries ?? null,
      maxBytes: config.cache?.maxBytes ?? null,
    },
    encryption: { serverKeys: Object.keys(config.keys ?? {}).sort() },
    sql: { dataSources: Object.keys(config.sql?.dataSources ?? {}).sort() },
  };
}
