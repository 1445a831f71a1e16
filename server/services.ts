/** Everything the server's commands and routes share, built once at start-up by `createServices`. */
import type { CommandRegistry } from '../shared/commands/registry';
import type { Authenticator } from './auth/authenticator';
import type { ServerConfig } from './config';
import type { DatabaseParts } from './parts/database-parts';
import type { ServerDatabase } from './db/server-database';
import type { IamService } from './iam';
import type { Logger } from './logging/logger';
import type { RecentLogs } from './logging/recent-logs';
import type { EventBus } from './events/event-bus';
import type { PropertyJobs } from './store/create-property-services';
import type { PropertyService } from './store/property-service';
import type { ScriptPool } from './script/script-pool';
import type { RunSlots } from './fairness/run-slots';
import type { DataSources } from './datasources/data-sources';
import type { CacheStore } from './cache';
import type { DriveService } from './drive';
import type { MailService } from './mail';
import type { DeliveryService } from './delivery';
import type { SecretService } from './secrets';
import type { JobScheduler } from './jobs';
import type { WebhookStore } from './webhooks';
import type { RunService } from './runs/run-service';
import type { Metrics } from './metrics/metrics';
import type { StoredPipelineCache } from './pipeline/stored-pipeline-cache';
import type { RunScope } from './runs/run-scope';

export interface ServerServices {
  config: ServerConfig;
  logger: Logger;
  /** The last log lines of this instance, for `log.list`. */
  recentLogs: RecentLogs;
  /** SQLite, or PostgreSQL shared with other instances. */
  database: ServerDatabase;
  /** What differs between the two databases: store, cache, job lock, event delivery. */
  parts: DatabaseParts;
  iam: IamService;
  authenticator: Authenticator;
  commands: CommandRegistry<ServerServices>;
  properties: PropertyService;
  events: EventBus;
  propertyJobs: PropertyJobs;
  /** The worker pool that runs `script.run` scripts in QuickJS (workers start on first use). */
  scripts: ScriptPool;
  /** Per-user slots of top-level pipeline runs, shared fairly (`PIPEWORK_RUNS_*`). */
  runSlots: RunSlots;
  dataSources: DataSources;
  /** Files per user and shared (`drive.*`). */
  drive: DriveService;
  /** Mail over SMTP or into the outbox (`mail.*`). */
  mail: MailService;
  /** Secure deliveries (`delivery.*`, `property.send.delivery`) and their download page. */
  deliveries: DeliveryService;
  /** Named secrets (`secret.*`, `secret`/`credentials` parameters), sealed with the master key. */
  secrets: SecretService;
  /** The cache behind `cache.*` (in memory on SQLite; shared through PostgreSQL). */
  cache: CacheStore;
  /** The stored pipelines that start with `job`, run on schedule once per installation. */
  jobs: JobScheduler;
  /** Webhooks (`webhook.*` and the public receive route), shared by every instance. */
  webhooks: WebhookStore;
  /** The run history: every run recorded, async runs, cancel (`server/runs/`). */
  runs: RunService;
  /** The measurements `GET /metrics` serves. */
  metrics: Metrics;
  /** Stored pipelines parsed once per version, for `POST /api/v3/pipeline:<key>`. */
  storedPipelines: StoredPipelineCache;
  /** The run these services were handed to (a command's `ctx.services`); absent outside runs. */
  run?: RunScope;
}
